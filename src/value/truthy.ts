// Truthiness as SurrealDB decides it for WHERE, IF, ||, && and PERMISSIONS.
import { compatOf, type CompatOpts } from "./compat.js";
import { decimalIsZero } from "./decimal.js";
import { Datetime, Decimal, Duration, Geometry, Range, RecordId, Regex, Table, Uuid, isValueObject, type Value } from "./types.js";

/**
 * Falsy: NONE, NULL, false, 0 (any number type), '', [], {}, 0ns, bytes, tables, ranges (2.x `!!(1..5)` is false); 1.x also the
 * epoch datetime. Truthy: everything else (record ids, uuids, geometries, non-empty values).
 */
export function isTruthy(v: Value, opts?: CompatOpts): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Decimal) return !decimalIsZero(v);
  if (v instanceof Duration) return v.nanos !== 0n;
  if (v instanceof Datetime) return compatOf(opts) === 1 ? v.nanos !== 0n : true;
  if (v instanceof Uuid || v instanceof RecordId || v instanceof Geometry) return true;
  if (v instanceof Uint8Array || v instanceof Table || v instanceof Range || v instanceof Regex) return false;
  // an object by its entries; a function value (2.x closure) is falsy
  return isValueObject(v) && Object.keys(v).length > 0;
}
