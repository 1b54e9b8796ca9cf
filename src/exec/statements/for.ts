// exec/statements: FOR $x IN values { … } with BREAK / CONTINUE.

import type { BreakStatement, ContinueStatement, ForStatement } from "../../ast/nodes.js";
import { Range, rangeToArray } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { withCtx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { checkSettable } from "../protected.js";
import { BreakSignal, ContinueSignal } from "../signals.js";
import { runBlock } from "./index.js";

export async function runFor(s: ForStatement, ctx: Ctx): Promise<Value> {
  checkSettable(s.param, ctx.core.compat);
  const range = await evaluate(s.range, ctx);
  // an int range runs over its ints (2.x `FOR $i IN 1..5`)
  const items = Array.isArray(range) ? range : range instanceof Range ? rangeToArray(range) : [range];
  for (const item of items) {
    const pause = ctx.budget.checkpoint();
    if (pause) await pause;
    try {
      await runBlock(s.body.statements, withCtx(ctx, { vars: ctx.vars.child({ [s.param]: item }) }));
    } catch (e) {
      if (e instanceof BreakSignal) break;
      if (e instanceof ContinueSignal) continue;
      throw e;
    }
  }
  return undefined;
}

export async function runBreak(_s: BreakStatement): Promise<Value> {
  throw new BreakSignal();
}

export async function runContinue(_s: ContinueStatement): Promise<Value> {
  throw new ContinueSignal();
}
