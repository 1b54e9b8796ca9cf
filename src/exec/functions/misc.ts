// Top-level builtins without a namespace: count(), not(), sleep().

import type { Duration } from "../../value/types.js";
import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], (args, ctx) => {
    if (args.length === 0) return 1n;
    const v = args[0];
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x, ctx.compat)).length);
    return isTruthy(v, ctx.compat) ? 1n : 0n;
  }),
  sleep: fn(["duration"], async ([d]) => {
    const ms = Number((d as Duration).nanos / 1_000_000n);
    await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)));
    return undefined;
  }),
  not: fn(["any"], ([v], ctx) => !isTruthy(v, ctx.compat)),
};
