// exec/statements: IF … THEN … ELSE IF … ELSE … END — the value of the chosen branch.

import type { IfStatement } from "../../ast/nodes.js";
import { isTruthy } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import type { Expr } from "../../ast/nodes.js";
import { evaluate } from "../expressions/evaluate.js";
import { runBlock } from "./index.js";

/** A branch's `{ … }` is part of the enclosing block: a RETURN in it ends that block too (2.x), unlike a block value. */
function branch(e: Expr, ctx: Ctx): Promise<Value> {
  return e.kind === "Block" ? runBlock(e.statements, ctx) : evaluate(e, ctx);
}

export async function runIf(s: IfStatement, ctx: Ctx): Promise<Value> {
  for (const b of s.branches) if (isTruthy(await evaluate(b.cond, ctx), { compat: ctx.core.compat })) return branch(b.then, ctx);
  return s.otherwise ? branch(s.otherwise, ctx) : undefined;
}
