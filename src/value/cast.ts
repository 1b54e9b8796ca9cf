// `<type> expr` casts and field TYPE coercion with SurrealDB's conversion rules and messages.
import type { Expr, TypeKind } from "../ast/nodes.js";
import { QUERY_MESSAGES } from "../errors/catalogue.js";
import { CastError, queryError } from "../errors/index.js";
import { compatOf, type Compat, type CompatOpts } from "./compat.js";
import { valueEquals } from "./compare.js";
import { tryParseDatetime } from "./datetime.js";
import { decimalFromBigint, decimalFromDigits, decimalFromFloat, decimalIsInteger, decimalToNumber, decimalTrunc } from "./decimal.js";
import { toMessageSql, toRawString, toSql } from "./display.js";
import { tryParseDuration } from "./duration.js";
import { I64_MAX, I64_MIN, parseI64 } from "./int.js";
import { escapeIdent, parseRecordIdText } from "./record.js";
import { Datetime, Decimal, Duration, Closure, Geometry, Range, RecordId, Regex, Uuid, isValueObject, type Value } from "./types.js";
import { regexFrom, RegexSyntaxError } from "./regex.js";
import { rangeToArray } from "./range.js";
import { tryParseUuidAny } from "./uuid.js";

/**
 * A failed cast or coercion. `found` is the value that did not fit (for `array<int>` the offending
 * item), `expected` the full type as SurrealDB prints it. `lengthMessage` is set when an
 * `array<T, max>` / `set<T, max>` was too long: SurrealDB then reports that text as it stands.
 */
export class CoerceError extends CastError {
  constructor(
    message: string,
    readonly found: Value,
    readonly expected: string,
    readonly lengthMessage: string | undefined = undefined,
  ) {
    super(message);
  }

  /** SurrealDB's field TYPE error: "Found 'x' for field `age`, with record `user:1`, but expected a int". */
  fieldMessage(field: string, record: string, opts?: CompatOpts): string {
    if (this.lengthMessage !== undefined) return this.lengthMessage;
    return QUERY_MESSAGES.FieldCheck(toMessageSql(this.found, opts), field, record, `expected a ${this.expected}`);
  }
}

class Mismatch {
  constructor(readonly found: Value) {}
}

class TooLong {
  constructor(readonly message: string) {}
}

function literalText(e: Expr, opts?: CompatOpts): string {
  return e.kind === "Literal" ? toSql(e.value, opts) : "literal";
}

/** A type as SurrealDB prints it: `int`, `option<int>`, `record<user | post>`, `array<int, 2>`, `int | string`. */
export function formatKind(type: TypeKind, opts?: CompatOpts): string {
  switch (type.kind) {
    case "Basic":
      return type.name;
    case "Option":
      return `option<${formatKind(type.inner, opts)}>`;
    case "Array":
    case "Set": {
      const name = type.kind === "Array" ? "array" : "set";
      if (type.inner === undefined) return name;
      return type.max === undefined ? `${name}<${formatKind(type.inner, opts)}>` : `${name}<${formatKind(type.inner, opts)}, ${type.max}>`;
    }
    case "Record":
      return type.tables.length ? `record<${type.tables.map((t) => escapeIdent(t, opts)).join(" | ")}>` : "record";
    case "Geometry":
      return type.types.length ? `geometry<${type.types.join(" | ")}>` : "geometry";
    case "Either":
      return type.types.map((t) => formatKind(t, opts)).join(" | ");
    case "Literal":
      return literalText(type.value, opts);
  }
}

const INT_TEXT = /^[+-]?\d+$/;
// every quantifier is followed by a character it cannot match: no backtracking (`\d+\.?\d*` was quadratic)
const FLOAT_TEXT = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;
// rust_decimal also accepts `_` separators
const DECIMAL_TEXT = /^[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)$/;

function parseIntText(s: string): bigint | undefined {
  return INT_TEXT.test(s) ? parseI64(s) : undefined;
}

function parseFloatText(s: string): number | undefined {
  if (!FLOAT_TEXT.test(s)) return undefined;
  const lower = s.toLowerCase().replace(/^\+/, "");
  if (lower === "inf" || lower === "infinity") return Infinity;
  if (lower === "-inf" || lower === "-infinity") return -Infinity;
  if (lower === "nan" || lower === "-nan") return NaN;
  return Number(s);
}

function parseDecimalCast(s: string): Decimal | undefined {
  if (!DECIMAL_TEXT.test(s)) return undefined;
  const [int, frac = ""] = s.replace(/_/g, "").replace(/^[+-]/, "").split(".");
  return decimalFromDigits(s.startsWith("-"), int!, frac);
}

/** Float to int as Rust's `as i64` after SurrealDB's "no fractional part" check (saturating). */
function floatToInt(n: number): bigint | undefined {
  if (!Number.isFinite(n) || !Number.isInteger(n)) return undefined;
  const b = BigInt(n);
  return b > I64_MAX ? I64_MAX : b < I64_MIN ? I64_MIN : b;
}

type Mode = "cast" | "coerce";

function regexOrFail(source: string, mode: Mode): Regex | undefined {
  try {
    return regexFrom(source);
  } catch (e) {
    if (!(e instanceof RegexSyntaxError)) throw e;
    if (mode === "cast") return undefined;
    throw queryError("InvalidRegex", e.message);
  }
}

function isNumber(v: Value): v is bigint | number | Decimal {
  return typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;
}

function basic(v: Value, name: string, mode: Mode, compat: Compat): Value {
  const fail = (): never => {
    throw new Mismatch(v);
  };
  switch (name) {
    case "any":
    case "future":
      return v;
    case "null":
      return v === null ? v : fail();
    case "bool":
      if (typeof v === "boolean") return v;
      if (mode === "cast" && (v === "true" || v === "false")) return v === "true";
      return fail();
    case "int":
      if (typeof v === "bigint") return v;
      if (typeof v === "number") return floatToInt(v) ?? fail();
      if (v instanceof Decimal) return decimalIsInteger(v) ? decimalTrunc(v) : fail();
      if (mode === "cast" && typeof v === "string") return parseIntText(v) ?? fail();
      return fail();
    case "float":
      if (typeof v === "number") return v;
      if (typeof v === "bigint") return Number(v);
      if (v instanceof Decimal) return decimalToNumber(v);
      if (mode === "cast" && typeof v === "string") return parseFloatText(v) ?? fail();
      return fail();
    case "decimal":
      if (v instanceof Decimal) return v;
      if (typeof v === "bigint") return decimalFromBigint(v);
      if (typeof v === "number") return decimalFromFloat(v) ?? fail();
      if (mode === "cast" && typeof v === "string") return parseDecimalCast(v) ?? fail();
      return fail();
    case "number":
      if (isNumber(v)) return v;
      if (mode === "cast" && typeof v === "string") return parseIntText(v) ?? parseFloatText(v) ?? fail();
      return fail();
    case "string":
      if (typeof v === "string") return v;
      if (mode === "cast" && v !== undefined && v !== null && !(v instanceof Uint8Array)) return toRawString(v, { compat });
      return fail();
    case "duration":
      if (v instanceof Duration) return v;
      if (mode === "cast" && typeof v === "string") return tryParseDuration(v) ?? fail();
      return fail();
    case "datetime":
      if (v instanceof Datetime) return v;
      if ((mode === "cast" || compat === 1) && typeof v === "string") return tryParseDatetime(v, { compat }) ?? fail();
      return fail();
    case "uuid":
      if (v instanceof Uuid) return v;
      if ((mode === "cast" || compat === 1) && typeof v === "string") return tryParseUuidAny(v) ?? fail();
      return fail();
    case "object":
      return isValueObject(v) ? v : fail();
    case "bytes":
      if (v instanceof Uint8Array) return v;
      if (mode === "cast" && typeof v === "string") return new Uint8Array(Buffer.from(v, "utf8"));
      return fail();
    case "point":
      if (v instanceof Geometry && v.type === "Point") return v;
      if (mode === "cast" && Array.isArray(v) && v.length === 2 && v.every(isNumber)) {
        return new Geometry("Point", v.map((x) => (x instanceof Decimal ? decimalToNumber(x) : Number(x))));
      }
      return fail();
    case "range":
      if (v instanceof Range) return v;
      // `<range> [1, 5]` is `1..5`
      if (mode === "cast" && Array.isArray(v) && v.length === 2) return new Range({ value: v[0], inclusive: true }, { value: v[1], inclusive: false });
      return fail();
    case "function":
      return v instanceof Closure ? v : fail();
    case "regex":
      if (v instanceof Regex) return v;
      // a string is read as SurrealDB reads a pattern (`\/` is `/`); a bad pattern fails a cast as a mismatch, a
      // field's TYPE regex with the pattern's error
      if (typeof v === "string") return regexOrFail(v.replace(/\\\//g, "/"), mode) ?? fail();
      return fail();
    default:
      return fail();
  }
}

function checkLength(items: Value[], type: TypeKind & { kind: "Array" | "Set" }, opts: CompatOpts): void {
  if (type.max !== undefined && items.length > type.max) {
    throw new TooLong(`Expected a ${formatKind(type, opts)} but the array had ${items.length} items`);
  }
}

function convert(v: Value, type: TypeKind, mode: Mode, compat: Compat): Value {
  const opts = { compat };
  switch (type.kind) {
    case "Basic":
      return basic(v, type.name, mode, compat);
    case "Option":
      return v === undefined ? v : convert(v, type.inner, mode, compat);
    case "Array":
    case "Set": {
      // `<array> 1..5`: an int range casts to its ints
      const list = mode === "cast" && v instanceof Range ? rangeToArray(v) : v;
      if (!Array.isArray(list)) throw new Mismatch(v);
      let items = type.inner === undefined ? list.slice() : list.map((x) => convert(x, type.inner!, mode, compat));
      if (type.kind === "Set") {
        const unique: Value[] = [];
        for (const x of items) if (!unique.some((u) => valueEquals(u, x, opts))) unique.push(x);
        items = unique;
      }
      checkLength(items, type, opts);
      return items;
    }
    case "Record": {
      let rid: RecordId | undefined;
      if (v instanceof RecordId) rid = v;
      else if (typeof v === "string" && (mode === "cast" || compat === 1)) rid = parseRecordIdText(v, opts);
      if (rid === undefined) throw new Mismatch(v);
      if (type.tables.length && !type.tables.includes(rid.table)) throw new Mismatch(compat === 1 ? rid : v);
      return rid;
    }
    case "Geometry": {
      if (!(v instanceof Geometry)) throw new Mismatch(v);
      if (type.types.length && !type.types.some((t) => t.toLowerCase() === geometryKindName(v))) throw new Mismatch(v);
      return v;
    }
    case "Either": {
      for (const t of type.types) {
        try {
          return convert(v, t, mode, compat);
        } catch (e) {
          if (!(e instanceof Mismatch)) throw e;
        }
      }
      throw new Mismatch(v);
    }
    case "Literal": {
      if (type.value.kind === "Literal" && valueEquals(v, type.value.value, opts)) return v;
      throw new Mismatch(v);
    }
  }
}

function geometryKindName(g: Geometry): string {
  const names: Record<Geometry["type"], string> = {
    Point: "point",
    LineString: "line",
    Polygon: "polygon",
    MultiPoint: "multipoint",
    MultiLineString: "multiline",
    MultiPolygon: "multipolygon",
    GeometryCollection: "collection",
  };
  return names[g.type];
}

function run(v: Value, type: TypeKind, mode: Mode, opts: CompatOpts | undefined): Value {
  const compat = compatOf(opts);
  try {
    return convert(v, type, mode, compat);
  } catch (e) {
    const expected = formatKind(type, { compat });
    if (e instanceof TooLong) throw new CoerceError(e.message, undefined, expected, e.message);
    if (!(e instanceof Mismatch)) throw e;
    const found = toMessageSql(e.found, { compat });
    const message =
      mode === "cast"
        ? `Expected a ${expected} but cannot convert ${found} into a ${expected}`
        : `Expected a ${expected} but found ${found}`;
    throw new CoerceError(message, e.found, expected);
  }
}

/**
 * `<type> value`: SurrealDB's conversion rules (strings parse into numbers, bools, durations,
 * datetimes, uuids, record ids; anything but NONE/NULL becomes a string). Throws a CoerceError
 * "Expected a int but cannot convert 'abc' into a int".
 */
export function cast(v: Value, type: TypeKind, opts?: CompatOpts): Value {
  return run(v, type, "cast", opts);
}

/**
 * Field TYPE / typed parameter check: only lossless number conversions (int ↔ float ↔ decimal
 * when exact), `option<T>` accepts NONE, sets dedup, arrays check their length. 1.x also turns
 * strings into datetimes, uuids and record ids. Throws a CoerceError; the engine builds the field
 * message with `err.fieldMessage(field, recordText)`.
 */
export function coerce(v: Value, type: TypeKind, opts?: CompatOpts): Value {
  return run(v, type, "coerce", opts);
}
