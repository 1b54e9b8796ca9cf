// Range values (2.x `1..5`): membership, and the integers an int range holds (`<array> 1..5`, `FOR $i IN 1..5`).
import { queryError } from "../errors/index.js";
import { compareValues } from "./compare.js";
import type { CompatOpts } from "./compat.js";
import { I64_MAX, I64_MIN } from "./int.js";
import { typeName } from "./kind.js";
import { Range, type Value } from "./types.js";

/** SurrealDB's bound on the integers one range may produce. */
export const MAX_RANGE_ITEMS = 1_048_576;

/** Does the range hold `v` (`3 IN 1..5`, `1..5 CONTAINS 3`)? */
export function rangeHas(r: Range, v: Value, opts?: CompatOpts): boolean {
  if (r.begin) {
    const c = compareValues(v, r.begin.value, opts);
    if (c < 0 || (c === 0 && !r.begin.inclusive)) return false;
  }
  if (r.end) {
    const c = compareValues(v, r.end.value, opts);
    if (c > 0 || (c === 0 && !r.end.inclusive)) return false;
  }
  return true;
}

/** The ints of an int range, at most MAX_RANGE_ITEMS of them (an unbounded end spans i64, so it is always too big). */
export function rangeToArray(r: Range): bigint[] {
  const int = (v: Value): bigint => {
    if (typeof v !== "bigint") throw queryError("RangeValueKind", typeName(v));
    return v;
  };
  const first = r.begin ? int(r.begin.value) + (r.begin.inclusive ? 0n : 1n) : I64_MIN;
  const after = r.end ? int(r.end.value) + (r.end.inclusive ? 1n : 0n) : I64_MAX;
  if (after - first > BigInt(MAX_RANGE_ITEMS)) throw queryError("RangeTooBig", MAX_RANGE_ITEMS);
  const out: bigint[] = [];
  for (let i = first; i < after; i++) out.push(i);
  return out;
}

export { Range };
