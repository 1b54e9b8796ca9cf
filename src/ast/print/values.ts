// The printer's view of the value layer: literal, identifier and duration text come from src/value.
import { escapeFunctionName, escapeIdent, escapeKey, escapeRecordTable, formatDuration, formatRecordKey, quoteString, toSql } from "../../value/index.js";
import type { Duration, RecordIdKey, Value } from "../../value/types.js";
import type { Ctx } from "./context.js";

/** A literal value as SurrealQL text (strings quoted, floats with `f`, `d'…'` datetimes in 2.x …). */
export function lit(v: Value, c: Ctx): string {
  return toSql(v, { compat: c.compat });
}

/** A string literal (comments, keys, hashes), escaped per version. */
export function str(s: string, c: Ctx): string {
  return quoteString(s, { compat: c.compat });
}

/** An identifier (table, field, index, user name), backtick-escaped when needed. */
export function ident(name: string, c: Ctx): string {
  return escapeIdent(name, { compat: c.compat });
}

/** A function's name (`fn::x`, `string::len`), every part readable back as one. */
export function fnName(name: string, c: Ctx): string {
  return escapeFunctionName(name, { compat: c.compat });
}

/** An object key: bare when it is a plain identifier, else double-quoted. */
export function key(name: string, c: Ctx): string {
  return escapeKey(name, { compat: c.compat });
}

/** A scalar record-id key (`abc`, ``1.x ⟨a b⟩`` / 2.x `` `a b` ``, `u'…'`). */
export function recordKey(k: RecordIdKey, c: Ctx): string {
  return formatRecordKey(k, { compat: c.compat });
}

/** The table of a record id (1.x escapes it like a key, 2.x like an identifier). */
export function recordTable(name: string, c: Ctx): string {
  return escapeRecordTable(name, { compat: c.compat });
}

/** A duration normalised as SurrealDB prints it (`90m` ⇒ `1h30m`). */
export function dur(d: Duration): string {
  return formatDuration(d);
}

/** A duration clause value: `null` (written NONE) prints as NONE. */
export function durOrNone(d: Duration | null): string {
  return d === null ? "NONE" : formatDuration(d);
}
