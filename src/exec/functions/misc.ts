// Top-level builtins without a namespace: count(), not().

import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], (args) => {
    if (args.length === 0) return 1n;
    const v = args[0];
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x)).length);
    return isTruthy(v) ? 1n : 0n;
  }),
  not: fn(["any"], ([v]) => !isTruthy(v)),
};
