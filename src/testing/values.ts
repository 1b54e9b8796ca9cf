// fast-check arbitraries for SurrealQL values: any value, or a value of a field's TYPE. Values are the engine's own
// (src/value/types.ts: int is a bigint, datetime a Datetime, a record id a RecordId …), ready for query variables or
// for `toSql` to print them as SurrealQL.

import fc from "fast-check";
import type { TypeKind } from "../ast/nodes.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, Uuid, type Value, type ValueObject } from "../value/types.js";

export interface ValueOptions {
  /** Strings to use (default: printable text of 8–16 characters, long enough to be found again in an answer). */
  readonly strings?: fc.Arbitrary<string>;
  /** Tables for `record` (any table) values (default `["thing"]`). */
  readonly tables?: readonly string[];
  /** Nesting depth of arrays and objects (default 2). */
  readonly depth?: number;
}

const DEFAULT_STRINGS = fc.string({ minLength: 8, maxLength: 16, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.") });
const NS_PER_MS = 1_000_000n;
const key = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_") });

const scalars = (o: ValueOptions) => ({
  none: fc.constant<Value>(undefined),
  null: fc.constant<Value>(null),
  bool: fc.boolean(),
  int: fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
  // hundredths, as people write them (and as they print back)
  float: fc.integer({ min: -1e8, max: 1e8 }).map((n) => n / 100),
  decimal: fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => new Decimal(`${n / 100}`)),
  string: o.strings ?? DEFAULT_STRINGS,
  // 1970 … 2100, millisecond precision
  datetime: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Datetime(BigInt(ms) * NS_PER_MS)),
  duration: fc.integer({ min: 0, max: 10 ** 9 }).map((ms) => new Duration(BigInt(ms) * NS_PER_MS)),
  uuid: fc.uuid().map((u) => new Uuid(u)),
  bytes: fc.uint8Array({ maxLength: 16 }),
  point: fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })).map(([x, y]) => new Geometry("Point", [x, y])),
  record: fc.tuple(fc.constantFrom(...(o.tables ?? ["thing"])), key).map(([t, k]) => new RecordId(t, k)),
});

/** Any SurrealQL value: scalars, record ids, and arrays and objects of them. */
export function surqlValue(o: ValueOptions = {}): fc.Arbitrary<Value> {
  const s = scalars(o);
  const leaf = fc.oneof(s.none, s.null, s.bool, s.int, s.float, s.decimal, s.string, s.datetime, s.duration, s.uuid, s.record);
  const { value } = fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: o.depth ?? 2 },
      { weight: 4, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(key, tie("value"), { maxKeys: 3 }).map((d): Value => d as ValueObject) },
    ),
  }));
  return value;
}

type Basic = Extract<TypeKind, { kind: "Basic" }>["name"];

/** A value of a basic type; `regex`, `range` and `function` values are left out (any value instead). */
function basic(name: Basic, o: ValueOptions): fc.Arbitrary<Value> {
  const s = scalars(o);
  const byName: Record<Basic, fc.Arbitrary<Value>> = {
    any: surqlValue(o),
    null: s.null,
    bool: s.bool,
    bytes: s.bytes,
    datetime: s.datetime,
    decimal: s.decimal,
    duration: s.duration,
    float: s.float,
    int: s.int,
    number: fc.oneof(s.int, s.float),
    object: fc.dictionary(key, surqlValue({ ...o, depth: 1 }), { maxKeys: 3 }).map((d): Value => d as ValueObject),
    point: s.point,
    string: s.string,
    uuid: s.uuid,
    regex: surqlValue(o),
    range: surqlValue(o),
    function: surqlValue(o),
    future: surqlValue(o),
  };
  return byName[name];
}

/** A value of a TYPE (`string`, `option<int>`, `array<record<user>, 3>`, `'a' | 'b'` …). */
export function valueOfType(t: TypeKind, o: ValueOptions = {}): fc.Arbitrary<Value> {
  const handlers: { [K in TypeKind["kind"]]: (t: Extract<TypeKind, { kind: K }>) => fc.Arbitrary<Value> } = {
    Basic: (b) => basic(b.name, o),
    Option: (x) => fc.option(valueOfType(x.inner, o), { nil: undefined, freq: 4 }),
    Array: (x) => fc.array(x.inner ? valueOfType(x.inner, o) : surqlValue(o), { maxLength: Math.min(x.max ?? 3, 3) }),
    Set: (x) => fc.uniqueArray(x.inner ? valueOfType(x.inner, o) : surqlValue(o), { maxLength: Math.min(x.max ?? 3, 3), selector: (v) => JSON.stringify(v, (_, y) => (typeof y === "bigint" ? `${y}n` : y)) }),
    Record: (x) => fc.tuple(fc.constantFrom(...(x.tables.length ? x.tables : (o.tables ?? ["thing"]))), key).map(([tb, k]) => new RecordId(tb, k)),
    Geometry: () => scalars(o).point,
    Either: (x) => fc.oneof(...x.types.map((u) => valueOfType(u, o))),
    // a scalar literal is that value; an object or array literal type, any value (the engine's check filters it)
    Literal: (x) => (x.value.kind === "Literal" ? fc.constant(x.value.value) : surqlValue(o)),
  };
  return (handlers[t.kind] as (t: TypeKind) => fc.Arbitrary<Value>)(t);
}
