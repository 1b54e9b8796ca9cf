// Deep copies of values for the engine (documents are mutated in place by SET / MERGE steps), and the nesting limit.
import { queryError } from "../errors/index.js";
import { isValueObject, type Value, type ValueObject } from "./types.js";

/** How deep objects and arrays may nest in a computed or stored value (SurrealDB counts it as computation depth). */
export const MAX_VALUE_DEPTH = 120;

/** Nested deeper than `room` more levels of arrays and objects? Walks no deeper than that. */
function deeperThan(v: Value, room: number): boolean {
  if (Array.isArray(v)) return room === 0 || v.some((x) => deeperThan(x, room - 1));
  if (isValueObject(v)) return room === 0 || Object.values(v).some((x) => deeperThan(x, room - 1));
  return false;
}

/** SurrealDB's computation-depth error for a value nested deeper than MAX_VALUE_DEPTH. */
export function checkValueDepth(v: Value): void {
  if (deeperThan(v, MAX_VALUE_DEPTH)) throw queryError("ComputationDepthExceeded");
}

/** Copies arrays, objects and bytes; the value classes (RecordId, Datetime …) are immutable and shared. */
export function cloneValue<T extends Value>(v: T, depth = 0): T {
  if (depth > MAX_VALUE_DEPTH * 4) throw queryError("ComputationDepthExceeded");
  if (Array.isArray(v)) return v.map((x) => cloneValue(x, depth + 1)) as T;
  if (v instanceof Uint8Array) return new Uint8Array(v) as T;
  if (isValueObject(v)) {
    const out: ValueObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = cloneValue(x, depth + 1);
    return out as T;
  }
  return v;
}
