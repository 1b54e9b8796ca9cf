// exec/: small value helpers the statements share (re-exported from value/ plus a grouping key).

import { valueKey } from "../store/keys.js";
import type { Value } from "../value/types.js";
export { compareValues, isTruthy } from "../value/index.js";

/** A grouping key: equal for values SurrealDB groups together. */
export function valueKeyOf(v: Value): string {
  return valueKey(v);
}
