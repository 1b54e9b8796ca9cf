// exec/statements: LET $name [: type] = value — binds a variable in the current scope.

import type { LetStatement } from "../../ast/nodes.js";
import { QueryError } from "../../errors/index.js";
import { coerce } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";

const PROTECTED = new Set(["access", "auth", "token", "session", "scope", "before", "after", "value", "input", "this", "parent", "event"]);

export async function runLet(s: LetStatement, ctx: Ctx): Promise<Value> {
  if (PROTECTED.has(s.name)) throw new QueryError("InvalidParam", `'${s.name}' is a protected variable and cannot be set`);
  let v = await evaluate(s.value, ctx);
  if (s.type) v = coerce(v, s.type, { compat: ctx.core.compat });
  ctx.vars.set(s.name, v);
  return undefined;
}
