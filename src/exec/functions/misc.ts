// Top-level builtins without a namespace: count(), not(), sleep().

import { queryError } from "../../errors/index.js";
import type { Duration } from "../../value/types.js";
import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

/** The longest delay one Node timer can hold (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], (args, ctx) => {
    if (args.length === 0) return 1n;
    const v = args[0];
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x, ctx.compat)).length);
    return isTruthy(v, ctx.compat) ? 1n : 0n;
  }),
  // sleep() never outlasts the query's time limit: it wakes at the deadline and the query times out (attack A1)
  sleep: fn(["duration"], async ([d], ctx) => {
    const until = performance.now() + Number((d as Duration).nanos / 1_000_000n);
    for (let left = until - performance.now(); left > 0; left = until - performance.now()) {
      if (ctx.budget?.expired) throw queryError("QueryTimedout");
      const wait = Math.min(left, (ctx.budget?.remainingMs ?? Infinity) + 1, MAX_TIMER_MS);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return undefined;
  }),
  not: fn(["any"], ([v], ctx) => !isTruthy(v, ctx.compat)),
};
