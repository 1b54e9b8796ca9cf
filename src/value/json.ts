// Values to and from SurrealDB's JSON wire form (JSON RPC / HTTP).
import { compareStrings, compatOf, type CompatOpts } from "./compat.js";
import { formatDatetime, tryParseDatetime } from "./datetime.js";
import { formatDuration } from "./duration.js";
import { formatRecordId, parseRecordIdText } from "./record.js";
import {
  Closure,
  Datetime,
  Decimal,
  Duration,
  Geometry,
  Range,
  Regex,
  RecordId,
  Table,
  Uuid,
  isValueObject,
  type Value,
  type ValueObject,
} from "./types.js";
import { tryParseUuid } from "./uuid.js";
import { toSql } from "./display.js";
import { setField } from "./object.js";

/**
 * The JSON form SurrealDB sends (sql::Value into JSON): NONE and NULL → null; ints → numbers;
 * non-finite floats → null; decimals, durations, datetimes, uuids → strings; record ids → their
 * SurrealQL text (`user:1`; 1.x escapes keys as `⟨a-b⟩`, 2.x as `` `a-b` ``); tables → name;
 * bytes → arrays of numbers; geometries → GeoJSON; object keys in code-point order.
 * Ints beyond ±2^53 become (rounded) JS numbers here; use `toJsonText` for exact digits.
 */
export function toJson(v: Value, opts?: CompatOpts): unknown {
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
      return v;
    case "bigint":
      return Number(v);
    case "number":
      return Number.isFinite(v) ? v : null;
  }
  if (Array.isArray(v)) return v.map((x) => toJson(x, opts));
  if (v instanceof Decimal) return v.text;
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof Datetime) return formatDatetime(v);
  if (v instanceof Uuid) return v.text;
  if (v instanceof RecordId) return formatRecordId(v, opts);
  if (v instanceof Table) return v.name;
  if (v instanceof Range || v instanceof Closure) return toSql(v, opts);
  // SurrealDB serializes a regex as its pattern
  if (v instanceof Regex) return v.source;
  if (v instanceof Uint8Array) return Array.from(v);
  if (v instanceof Geometry) {
    return v.type === "GeometryCollection"
      ? { type: v.type, geometries: (v.coordinates as Value[]).map((g) => toJson(g, opts)) }
      : { type: v.type, coordinates: v.coordinates };
  }
  if (isValueObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort(compareStrings)) setField(out, k, toJson(v[k], opts));
    return out;
  }
  return null;
}

/** JSON text of `toJson(v)`, with every int written exactly (no rounding beyond 2^53). */
export function toJsonText(v: Value, opts?: CompatOpts): string {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return `[${v.map((x) => toJsonText(x, opts)).join(",")}]`;
  if (isValueObject(v)) {
    const parts = Object.keys(v)
      .sort(compareStrings)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(v[k], opts)}`);
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(toJson(v, opts));
}

const RFC3339_FULL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A JSON string read the way SurrealDB's JSON RPC reads it ("legacy strands"): the whole text a
 * record id (`user:42`, `user:⟨a-b⟩`), an RFC 3339 datetime with a time part, or a uuid.
 */
export function legacyStrand(s: string, opts?: CompatOpts): Value {
  const compat = compatOf(opts);
  if (s.includes(":")) {
    const rid = parseRecordIdText(s, opts);
    // 1.x reads `user:1abc` as an int, then fails on the rest
    if (rid && !(compat === 1 && typeof rid.id === "string" && /^\d/.test(s.slice(s.indexOf(":") + 1)))) return rid;
    // 1.x reads JSON strings with its SurrealQL string literals' rules (both are its parser's legacy strands)
    if (compat === 1) return v1StringLiteral(s);
    if (RFC3339_FULL.test(s)) {
      const d = tryParseDatetime(s, opts);
      if (d) return d;
    }
  }
  return compat === 1 ? v1StringLiteral(s) : (tryParseUuid(s) ?? s);
}

/**
 * A 1.x string literal as SurrealDB 1.5.4 reads it (oracle): the whole text an RFC 3339 datetime with a time part (a
 * year of 4 digits, maybe signed; a longer fraction cut at 9 digits) is that datetime, a hyphenated uuid of version
 * 1–8 that uuid. A 1.x export prints both as plain strings, so they import back as they were.
 */
export function v1StringLiteral(s: string): Value {
  if (s.includes("T")) {
    const d = tryParseDatetime(s, { compat: 1 });
    if (d) return d;
  }
  const u = s.length === 36 ? tryParseUuid(s) : undefined;
  return u !== undefined && s[14]! >= "1" && s[14]! <= "8" ? u : s;
}

/**
 * JSON input to a value: integers → int (bigint), other numbers → float, null → NULL.
 * With `legacyStrings`, strings go through `legacyStrand`.
 */
export function fromJson(json: unknown, opts?: { legacyStrings?: boolean; compat?: 1 | 2 }): Value {
  if (json === null || json === undefined) return null;
  switch (typeof json) {
    case "boolean":
      return json;
    case "bigint":
      return json;
    case "number":
      return Number.isSafeInteger(json) ? BigInt(json) : json;
    case "string":
      return opts?.legacyStrings ? legacyStrand(json, opts) : json;
  }
  if (Array.isArray(json)) return json.map((x) => fromJson(x, opts));
  if (typeof json === "object") {
    const out: ValueObject = {};
    for (const [k, x] of Object.entries(json as Record<string, unknown>)) setField(out, k, fromJson(x, opts));
    return out;
  }
  return null;
}
