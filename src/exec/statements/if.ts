// exec/statements: IF … THEN … ELSE IF … ELSE … END — the value of the chosen branch.

import type { IfStatement } from "../../ast/nodes.js";
import { isTruthy } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";

export async function runIf(s: IfStatement, ctx: Ctx): Promise<Value> {
  for (const b of s.branches) if (isTruthy(await evaluate(b.cond, ctx), { compat: ctx.core.compat })) return evaluate(b.then, ctx);
  return s.otherwise ? evaluate(s.otherwise, ctx) : undefined;
}
