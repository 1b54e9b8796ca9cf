// Value rendering for builtins and their error messages ("… but found 'x'"), delegating to value/.

import { formatDatetime, formatFloatPlain, toMessageSql, type Compat } from "../../value/index.js";
import type { Datetime, Value } from "../../value/types.js";

/** SurrealQL text of a value, as SurrealDB prints it in messages. */
export function render(v: Value, compat: Compat = 2): string {
  return toMessageSql(v, { compat });
}

/** Rust's f64 Display (no suffix, never in exponent form). */
export function formatFloat(v: number): string {
  return formatFloatPlain(v);
}

/** RFC 3339 in UTC as SurrealDB prints datetimes. */
export function formatDatetimeText(d: Datetime): string {
  return formatDatetime(d);
}
