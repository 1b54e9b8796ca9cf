// Deep copies of values for the engine (documents are mutated in place by SET / MERGE steps).
import { isValueObject, type Value, type ValueObject } from "./types.js";

/** Copies arrays, objects and bytes; the value classes (RecordId, Datetime …) are immutable and shared. */
export function cloneValue<T extends Value>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneValue(x)) as T;
  if (v instanceof Uint8Array) return new Uint8Array(v) as T;
  if (isValueObject(v)) {
    const out: ValueObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = cloneValue(x);
    return out as T;
  }
  return v;
}
