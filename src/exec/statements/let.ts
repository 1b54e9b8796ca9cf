// exec/statements: LET $name [: type] = value — binds a variable in the current scope.

import type { LetStatement } from "../../ast/nodes.js";
import { coerce } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { checkSettable } from "../protected.js";

export async function runLet(s: LetStatement, ctx: Ctx): Promise<Value> {
  checkSettable(s.name, ctx.core.compat);
  let v = await evaluate(s.value, ctx);
  if (s.type) v = coerce(v, s.type, { compat: ctx.core.compat });
  ctx.vars.set(s.name, v);
  // what the query holds, for the memory guard (a rebinding counts again: the guard only ranks queries)
  ctx.budget.hold(v);
  return undefined;
}
