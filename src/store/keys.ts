// store/: canonical string keys for record-id keys and index values, and SurrealDB's key order.

import { Datetime, Decimal, Duration, RecordId, RecordIdRange, Table, Uuid, isValueObject } from "../value/types.js";
import type { RecordIdKey, Value } from "../value/types.js";

/** A stable text form of a value, equal for values SurrealDB stores under the same key. */
export function valueKey(v: Value | RecordIdKey): string {
  if (v === undefined) return "N";
  if (v === null) return "L";
  if (typeof v === "boolean") return v ? "T" : "F";
  if (typeof v === "bigint") return `i${v}`;
  if (typeof v === "number") return Number.isInteger(v) ? `i${v}` : `f${v}`;
  if (typeof v === "string") return `s${JSON.stringify(v)}`;
  if (v instanceof Decimal) return `d${v.text}`;
  if (v instanceof Duration) return `D${v.nanos}`;
  if (v instanceof Datetime) return `t${v.nanos}`;
  if (v instanceof Uuid) return `u${v.text}`;
  if (v instanceof RecordId) return `r${JSON.stringify(v.table)}:${valueKey(v.id)}`;
  if (v instanceof Table) return `b${JSON.stringify(v.name)}`;
  if (v instanceof RecordIdRange) return `R${v.begin ? valueKey(v.begin.value) : ""}..${v.end ? valueKey(v.end.value) : ""}`;
  if (v instanceof Uint8Array) return `y${Array.from(v).join(",")}`;
  if (Array.isArray(v)) return `[${v.map(valueKey).join(",")}]`;
  if (isValueObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${valueKey(v[k])}`).join(",")}}`;
  }
  return `?${String(v)}`;
}

/** Rank of a record-id key kind in SurrealDB's storage order: numbers, strings, uuids, arrays, objects. */
function keyRank(k: RecordIdKey): number {
  if (typeof k === "bigint") return 0;
  if (typeof k === "string") return 1;
  if (k instanceof Uuid) return 2;
  if (Array.isArray(k)) return 3;
  return 4;
}

/** Order of record keys within a table scan. */
export function compareRecordKeys(a: RecordIdKey, b: RecordIdKey): number {
  const ra = keyRank(a);
  const rb = keyRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uuid && b instanceof Uuid) return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  const ka = valueKey(a);
  const kb = valueKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Does a record key fall within a record-id range (bounds inclusive or exclusive, either may be open)? */
export function keyInRange(key: RecordIdKey, r: RecordIdRange): boolean {
  if (r.begin) {
    const c = compareRecordKeys(key, r.begin.value);
    if (c < 0 || (c === 0 && !r.begin.inclusive)) return false;
  }
  if (r.end) {
    const c = compareRecordKeys(key, r.end.value);
    if (c > 0 || (c === 0 && !r.end.inclusive)) return false;
  }
  return true;
}
