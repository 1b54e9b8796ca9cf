// exec/statements: RETURN value [FETCH …] — the statement's value (a block turns it into a ReturnSignal).

import type { ReturnStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { fetchFields } from "../output.js";

export async function runReturn(s: ReturnStatement, ctx: Ctx): Promise<Value> {
  const v = await evaluate(s.value, ctx);
  return s.fetch ? fetchFields(v, s.fetch, ctx) : v;
}
