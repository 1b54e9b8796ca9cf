// exec/statements: a bare expression used as a statement.

import type { ExprStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";

export function runExpr(s: ExprStatement, ctx: Ctx): Promise<Value> {
  return evaluate(s.expr, ctx);
}
