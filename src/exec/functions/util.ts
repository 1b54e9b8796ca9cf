// Small value helpers shared by the builtin namespaces: thin bridges to value/ plus number-text parsing.

import { CastError } from "../../errors/index.js";
import {
  compareValues as compareAny,
  isTruthy as valueIsTruthy,
  parseRecordIdText as parseRecordId,
  toRawString,
  tryParseDatetime,
  tryParseDuration,
  valueEquals as equalsAny,
  type Compat,
} from "../../value/index.js";
import type { Datetime, Duration, RecordId, Value } from "../../value/types.js";
import { render } from "./display.js";
import { isRustFloat } from "./validate.js";

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

/** Duration text such as "1h30m"; undefined when malformed. */
export function parseDurationText(text: string): Duration | undefined {
  return tryParseDuration(text);
}

/** Datetime text (RFC 3339 or a bare date); undefined when malformed. */
export function parseDatetimeText(text: string, compat: Compat = 2): Datetime | undefined {
  return tryParseDatetime(text, { compat });
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Rust i64::from_str: optional sign, digits only, in range. */
export function parseIntText(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n >= I64_MIN && n <= I64_MAX ? n : undefined;
}

/** Rust f64::from_str. */
export function parseFloatText(text: string): number | undefined {
  if (!isRustFloat(text)) return undefined;
  const t = text.toLowerCase().replace(/^([+-]?)inf(inity)?$/, "$1Infinity");
  return t.endsWith("nan") ? NaN : Number(t);
}
