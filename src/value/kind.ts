// Type names of values as SurrealDB reports them in type:: functions and error messages.
import { Closure, Datetime, Decimal, Duration, Geometry, Range, RecordId, Regex, Table, Uuid, type Value } from "./types.js";

/** `none`, `null`, `bool`, `int`, `float`, `decimal`, `string`, `duration`, `datetime`, `uuid`, `array`, `object`, `geometry`, `bytes`, `record`, `table`, `range`, `regex`. */
export function typeName(v: Value): string {
  if (v === undefined) return "none";
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return "float";
    case "string":
      return "string";
  }
  if (Array.isArray(v)) return "array";
  if (v instanceof Decimal) return "decimal";
  if (v instanceof Duration) return "duration";
  if (v instanceof Datetime) return "datetime";
  if (v instanceof Uuid) return "uuid";
  if (v instanceof RecordId) return "record";
  if (v instanceof Table) return "table";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof Geometry) return "geometry";
  if (v instanceof Range) return "range";
  if (v instanceof Regex) return "regex";
  if (v instanceof Closure) return "closure";
  return "object";
}
