// Small value helpers shared by the builtin namespaces (private stand-ins until value/ provides them).

import { Datetime, Decimal, Duration, Geometry, RecordId, Table, Uuid, isValueObject, type Value } from "../../value/types.js";

/** SurrealDB truthiness: NONE, NULL, false, 0, "", [], {} are falsy; everything else is truthy. */
export function isTruthy(v: Value): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (typeof v === "string") return v.length > 0;
  if (v instanceof Decimal) return Number(v.text) !== 0;
  if (v instanceof Duration) return v.nanos !== 0n;
  if (v instanceof Datetime || v instanceof Uuid || v instanceof RecordId || v instanceof Table || v instanceof Geometry) return true;
  if (v instanceof Uint8Array) return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isValueObject(v)) return Object.keys(v).length > 0;
  return true;
}
