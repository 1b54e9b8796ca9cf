// Top-level builtins without a namespace: count(), not(), sleep().

import { Budget } from "../budget.js";
import type { Duration } from "../../value/types.js";
import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

const UNLIMITED = Budget.of(Infinity);

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], (args, ctx) => {
    if (args.length === 0) return 1n;
    const v = args[0];
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x, ctx.compat)).length);
    return isTruthy(v, ctx.compat) ? 1n : 0n;
  }),
  // sleep() never outlasts the query: it wakes at the deadline (attack A1) or when its client goes away (B2)
  sleep: fn(["duration"], async ([d], ctx) => {
    const budget = ctx.budget ?? UNLIMITED;
    const until = performance.now() + Number((d as Duration).nanos / 1_000_000n);
    for (let left = until - performance.now(); left > 0; left = until - performance.now()) {
      budget.stopIfOver();
      await budget.wait(left);
    }
    return undefined;
  }),
  not: fn(["any"], ([v], ctx) => !isTruthy(v, ctx.compat)),
};
