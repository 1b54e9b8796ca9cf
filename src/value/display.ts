// Values as SurrealQL text, the way SurrealDB prints them in INFO FOR and in error messages.
import { compareStrings, compatOf, type CompatOpts } from "./compat.js";
import { formatDatetime } from "./datetime.js";
import { formatDuration } from "./duration.js";
import { escapeIdent, escapeKey, formatRecordId } from "./record.js";
import { formatRegex } from "./regex.js";
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

/**
 * A string literal: single quotes unless the text holds one, then double quotes.
 * 1.x escapes only the backslash and the quote; 2.x also `\n \r \t \f` and backspace (`\u{8}`).
 */
export function quoteString(s: string, opts?: CompatOpts): string {
  const quote = s.includes("'") ? '"' : "'";
  let body = s.replace(/\\/g, "\\\\");
  if (quote === '"') body = body.replace(/"/g, '\\"');
  if (compatOf(opts) === 2) {
    body = body.replace(/[\n\r\t\f\b]/g, (c) =>
      c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : c === "\f" ? "\\f" : "\\u{8}",
    );
  }
  return `${quote}${body}${quote}`;
}

/** Rust's `{}` for f64: shortest round-trip digits, never an exponent; `NaN`, `inf`, `-inf`. */
export function formatFloatPlain(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "inf";
  if (n === -Infinity) return "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0" : "0";
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, fracDigits = "", expText] = m;
  const digits = lead! + fracDigits;
  const exp = Number(expText);
  const point = 1 + exp; // position of the decimal point within `digits`
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A float as SurrealQL that reads back as itself: `1.5f`, `1f`, `-0f`, `NaN`, and the infinities as `math::inf` /
 * `-math::inf`. SurrealDB prints `inf` (which reads back as a field, NONE) and `-inf` (which fails, taking a whole
 * export's INSERT with it: attack pass 10, H3); ours is stricter, and SurrealDB reads it too.
 */
export function formatFloat(n: number): string {
  if (n === Infinity) return "math::inf";
  if (n === -Infinity) return "-math::inf";
  const s = formatFloatPlain(n);
  return Number.isNaN(n) ? s : `${s}f`;
}

/** Rust's `{}` of a coordinate reads back as the same number unless it is not finite, an integer past i64 or -0. */
const plainReadable = (n: number): boolean => Number.isFinite(n) && Math.abs(n) < 2 ** 63 && !Object.is(n, -0);

/** A geometry coordinate: Rust's `{}` where that reads back, else as formatFloat (`1e19` → `10000000000000000000f`). */
const formatCoordinate = (n: number): string => (plainReadable(n) ? formatFloatPlain(n) : formatFloat(n));

/** Standard base64 without padding, as SurrealDB prints bytes. */
function base64NoPad(b: Uint8Array): string {
  return Buffer.from(b).toString("base64").replace(/=+$/, "");
}

export function sortedKeys(o: ValueObject): string[] {
  return Object.keys(o).sort(compareStrings);
}

function formatGeometry(g: Geometry, asMessage: boolean): string {
  const coord = asMessage ? formatFloatPlain : formatCoordinate;
  const coords = (c: unknown): string => (Array.isArray(c) ? `[${c.map(coords).join(", ")}]` : coord(Number(c)));
  if (g.type === "Point") {
    const [x, y] = (g.coordinates as [unknown, unknown]).map(Number) as [number, number];
    if (asMessage) return `(${formatFloatPlain(x)}, ${formatFloatPlain(y)})`;
    // `(x, y)` reads only number literals (`(inf, 1)` and `(10000000000000000000, 0)` do not parse, in SurrealDB
    // either): such a point prints as a cast, which SurrealDB 1.5.4 and 2.6.0 read too
    if (!plainReadable(x) || !plainReadable(y)) return `<point> [${formatFloat(x)}, ${formatFloat(y)}]`;
    return `(${formatFloatPlain(x)}, ${formatFloatPlain(y)})`;
  }
  if (g.type === "GeometryCollection") {
    const parts = (g.coordinates as Geometry[]).map((x) => (x instanceof Geometry ? formatGeometry(x, asMessage) : String(x)));
    return `{ type: 'GeometryCollection', geometries: [${parts.join(", ")}] }`;
  }
  return `{ type: '${g.type}', coordinates: ${coords(g.coordinates)} }`;
}

/** `1..5`, `1..=5`, `1>..`, `..`: an excluded begin carries `>`, an included end `=`; a range bound is in parentheses. */
function formatRange(r: Range, opts?: CompatOpts): string {
  const bound = (v: Value): string => (v instanceof Range ? `(${toSql(v, opts)})` : toSql(v, opts));
  const b = r.begin ? `${bound(r.begin.value)}${r.begin.inclusive ? "" : ">"}` : "";
  const e = r.end ? `${r.end.inclusive ? "=" : ""}${bound(r.end.value)}` : "";
  return `${b}..${e}`;
}

/** How toSql prints: `asMessage` is SurrealDB's own Display, for error texts and `<string>` (the wire contract). */
export interface PrintOpts extends CompatOpts {
  /** Non-finite floats as `inf` / `-inf` and every point as `(x, y)`, as SurrealDB shows them: does not read back. */
  readonly asMessage?: boolean;
}

/** A value as SurrealDB shows it in an error message: toSql with `asMessage`. */
export function toMessageSql(v: Value, opts?: CompatOpts): string {
  return toSql(v, { ...opts, asMessage: true });
}

/** SurrealQL text of a value (SurrealDB's Display) that reads back as the same value (unless `asMessage`). */
export function toSql(v: Value, opts?: PrintOpts): string {
  const compat = compatOf(opts);
  if (v === undefined) return "NONE";
  if (v === null) return "NULL";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    case "number":
      return opts?.asMessage && !Number.isFinite(v) ? formatFloatPlain(v) : formatFloat(v);
    case "string":
      return quoteString(v, opts);
  }
  if (Array.isArray(v)) return `[${v.map((x) => toSql(x, opts)).join(", ")}]`;
  if (v instanceof Decimal) return `${v.text}dec`;
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof Datetime) return compat === 1 ? `'${formatDatetime(v)}'` : `d'${formatDatetime(v)}'`;
  if (v instanceof Uuid) return compat === 1 ? `'${v.text}'` : `u'${v.text}'`;
  if (v instanceof RecordId) return formatRecordId(v, opts);
  if (v instanceof Table) return escapeIdent(v.name, opts);
  if (v instanceof Uint8Array) return `encoding::base64::decode("${base64NoPad(v)}")`;
  if (v instanceof Geometry) return formatGeometry(v, opts?.asMessage === true);
  if (v instanceof Range) return formatRange(v, opts);
  if (v instanceof Regex) return formatRegex(v);
  if (v instanceof Closure) return v.text;
  if (isValueObject(v)) {
    const keys = sortedKeys(v);
    return `{ ${keys.map((k) => `${escapeKey(k, opts)}: ${toSql(v[k], opts)}`).join(", ")} }`;
  }
  return String(v);
}

/**
 * The "raw" text SurrealDB uses in some messages (`Cannot perform addition with 'a' and '1'`)
 * and in `<string>` casts: strings, datetimes and uuids unquoted, everything else as toMessageSql.
 */
export function toRawString(v: Value, opts?: CompatOpts): string {
  if (typeof v === "string") return v;
  if (v instanceof Datetime) return formatDatetime(v);
  if (v instanceof Uuid) return v.text;
  return toMessageSql(v, opts);
}
