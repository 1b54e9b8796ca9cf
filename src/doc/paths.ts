// doc/: reading and writing dotted field paths inside plain objects without mutating them.

import { isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";

export function getPath(doc: Value, path: readonly string[]): Value {
  let v: Value = doc;
  for (const p of path) {
    if (!isValueObject(v)) return undefined;
    v = v[p];
  }
  return v;
}

/** A copy of `doc` with `path` set to `value` (NONE removes the key). */
export function setPath(doc: ValueObject, path: readonly string[], value: Value): ValueObject {
  const [head, ...rest] = path;
  if (head === undefined) return doc;
  const out: ValueObject = { ...doc };
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  const inner = out[head];
  if (!isValueObject(inner) && value === undefined) return out;
  out[head] = setPath(isValueObject(inner) ? inner : {}, rest, value);
  return out;
}
