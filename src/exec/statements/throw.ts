// exec/statements: THROW value — "An error occurred: <value as text>".

import type { ThrowStatement } from "../../ast/nodes.js";
import { ThrownError } from "../../errors/index.js";
import { toSql } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";

export async function runThrow(s: ThrowStatement, ctx: Ctx): Promise<Value> {
  const v = await evaluate(s.value, ctx);
  throw new ThrownError(typeof v === "string" ? v : toSql(v, { compat: ctx.core.compat }));
}
