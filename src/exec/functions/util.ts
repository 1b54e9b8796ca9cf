// Small value helpers shared by the builtin namespaces: thin bridges to value/ with the compat level threaded through.

import { CastError } from "../../errors/index.js";
import {
  compareValues as compareAny,
  isTruthy as valueIsTruthy,
  parseRecordIdText as parseRecordId,
  toRawString,
  valueEquals as equalsAny,
  type Compat,
} from "../../value/index.js";
import type { RecordId, Value } from "../../value/types.js";
import { render } from "./display.js";

/** SurrealDB truthiness (value/ decides; 1.x also treats the epoch datetime as falsy). */
export function isTruthy(v: Value, compat: Compat = 2): boolean {
  return valueIsTruthy(v, { compat });
}

/** SurrealDB's `as_raw_string`: strings, datetimes and uuids as bare text, anything else as SurrealQL. */
export function asRawString(v: Value, compat: Compat = 2): string {
  return toRawString(v, { compat });
}

/** Record-id text (`tb:key`) as SurrealDB parses it, else undefined. */
export function parseRecordIdText(text: string, compat: Compat = 2): RecordId | undefined {
  return parseRecordId(text, { compat });
}

/** SurrealDB's total order over values. */
export function compareValues(a: Value, b: Value, compat: Compat = 2): number {
  return compareAny(a, b, { compat });
}

/** SurrealDB `=` on values (numbers compare across int/float/decimal). */
export function valueEquals(a: Value, b: Value, compat: Compat = 2): boolean {
  return equalsAny(a, b, { compat });
}

/** SurrealDB's ConvertTo error: "Expected a X but cannot convert V into a X". */
export function convertError(v: Value, into: string, compat: Compat = 2): CastError {
  return new CastError(`Expected a ${into} but cannot convert ${render(v, compat)} into a ${into}`);
}
