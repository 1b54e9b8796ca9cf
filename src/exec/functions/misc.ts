// Top-level builtins without a namespace: count(), not().

import { isTruthy } from "./util.js";
import { fn, type BuiltinTable } from "./registry.js";

export const miscFunctions: BuiltinTable = {
  count: fn(["any?"], ([v], _ctx) => {
    if (v === undefined) return 1n;
    if (Array.isArray(v)) return BigInt(v.filter((x) => isTruthy(x)).length);
    return isTruthy(v) ? 1n : 0n;
  }),
  not: fn(["any"], ([v]) => !isTruthy(v)),
};
