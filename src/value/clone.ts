// Deep copies of values.
import { queryError } from "../errors/index.js";
import { MAX_VALUE_DEPTH } from "./size.js";
import { setField } from "./object.js";
import { isValueObject, type Value, type ValueObject } from "./types.js";

/** Copies arrays, objects and bytes; the value classes (RecordId, Datetime …) are immutable and shared. */
export function cloneValue<T extends Value>(v: T, depth = 0): T {
  if (depth > MAX_VALUE_DEPTH * 4) throw queryError("ComputationDepthExceeded");
  if (Array.isArray(v)) return v.map((x) => cloneValue(x, depth + 1)) as T;
  if (v instanceof Uint8Array) return new Uint8Array(v) as T;
  if (isValueObject(v)) {
    const out: ValueObject = {};
    for (const [k, x] of Object.entries(v)) setField(out, k, cloneValue(x, depth + 1));
    return out as T;
  }
  return v;
}
