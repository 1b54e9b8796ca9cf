// Top-level builtins without a namespace: count(), not().

import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], (args, ctx) => {
    if (args.length === 0) return 1n;
    const v = args[0];
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x, ctx.compat)).length);
    return isTruthy(v, ctx.compat) ? 1n : 0n;
  }),
  not: fn(["any"], ([v], ctx) => !isTruthy(v, ctx.compat)),
};
