// The SurrealQL value model: the data every layer passes around (literals, records, results).
//
// Representation (a contract for every module):
//   NONE            → undefined            NULL      → null
//   bool            → boolean              int (i64) → bigint
//   float (f64)     → number               decimal   → Decimal
//   string          → string               duration  → Duration
//   datetime        → Datetime             uuid      → Uuid
//   record id       → RecordId             table     → Table
//   bytes           → Uint8Array           array     → Value[]
//   object          → ValueObject (a plain JS object; key order is irrelevant, printing sorts keys as SurrealDB's BTreeMap does)
//   geometry        → Geometry             range     → Range (2.x `1..5`)
//   regex           → Regex
//   closure         → Closure (2.x `|$x| $x * 2`: a value a query may hold and pass, never store or send as CBOR)
// Operations (compare, cast, display, JSON) live beside this file; these classes carry data only
// plus the few helpers that are intrinsic to their type.

export type Value =
  | undefined
  | null
  | boolean
  | bigint
  | number
  | string
  | Decimal
  | Duration
  | Datetime
  | Uuid
  | RecordId
  | Table
  | Uint8Array
  | Geometry
  | Range
  | Regex
  | Closure
  | Value[]
  | ValueObject;

export interface ValueObject {
  [key: string]: Value;
}

/** SurrealQL NONE. */
export const NONE = undefined;

/** Arbitrary-precision decimal (SurrealDB: rust_decimal). Stored as its canonical text. */
export class Decimal {
  constructor(readonly text: string) {}
}

/** Non-negative span of time with nanosecond precision (SurrealDB: std::time::Duration). */
export class Duration {
  constructor(readonly nanos: bigint) {}
}

/** Instant in UTC with nanosecond precision, as nanoseconds since the Unix epoch (may be negative). */
export class Datetime {
  constructor(readonly nanos: bigint) {}
}

/** A UUID; `text` is the lowercase hyphenated form. */
export class Uuid {
  constructor(readonly text: string) {}
}

/** The key part of a record id: `user:1`, `user:abc`, `user:[1, 2]`, `user:{a: 1}`, `user:u"…"`. */
export type RecordIdKey = bigint | string | Uuid | Value[] | ValueObject | RecordIdRange;

/** `user:1..5`, `user:..=9` — a range of keys (SurrealDB 2). */
export class RecordIdRange {
  constructor(
    readonly begin: { value: RecordIdKey; inclusive: boolean } | undefined,
    readonly end: { value: RecordIdKey; inclusive: boolean } | undefined,
  ) {}
}

export class RecordId {
  constructor(
    readonly table: string,
    readonly id: RecordIdKey,
  ) {}
}

/** One end of a range: its value and whether the range holds it. */
export interface RangeBound {
  readonly value: Value;
  readonly inclusive: boolean;
}

/** A range value (2.x): `1..5`, `1..=5`, `..5`, `1>..`; an unbounded end is undefined. */
export class Range {
  constructor(
    readonly begin: RangeBound | undefined,
    readonly end: RangeBound | undefined,
  ) {}
}

/** A regular expression (`/a.c/`): its pattern in Rust regex syntax, `\/` read as `/` (value/regex.ts compiles it). */
export class Regex {
  constructor(readonly source: string) {}
}

/** A table name as a value (e.g. the result of `type::table("user")`). */
export class Table {
  constructor(readonly name: string) {}
}

/** GeoJSON-shaped geometry; kept minimal (point and collections of points) until needed. */
export class Geometry {
  constructor(
    readonly type: "Point" | "LineString" | "Polygon" | "MultiPoint" | "MultiLineString" | "MultiPolygon" | "GeometryCollection",
    readonly coordinates: unknown,
  ) {}
}

/** A closure (`|$x: int| $x * 2`) as data sees it: opaque, printed as SurrealDB prints it. exec/ holds what runs it. */
export abstract class Closure {
  /** Its SurrealQL text, as `<string>` and INFO print it: `|$x: any| $x * 2`. */
  abstract get text(): string;
}

export function isValueObject(v: unknown): v is ValueObject {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
