// store/kv/: value arbitraries for the key and document codec properties (every value kind, record-id keys).

import fc from "fast-check";
import { decimalFromScaled } from "../../../src/value/decimal.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Table, Uuid, isValueObject, type RecordIdKey, type Value } from "../../../src/value/types.js";

const I64 = { min: -(1n << 63n), max: (1n << 63n) - 1n };
const int = fc.oneof(fc.bigInt({ min: -3n, max: 3n }), fc.bigInt(I64));
const float = fc.oneof(fc.constantFrom(0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, Number.MIN_VALUE), fc.double());
const decimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 28n), max: 10n ** 28n }), fc.integer({ min: 0, max: 28 }))
  .map(([unscaled, scale]) => decimalFromScaled({ unscaled, scale }));
const text = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 4 }), fc.constantFrom("", "a", "a\u0000b", "\u0001", "é", "\uffff", "😀"));
const uuid = fc.uuid().map((u) => new Uuid(u));
const scalar: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>(undefined, null, true, false),
  int,
  float,
  decimal,
  text,
  fc.bigInt({ min: 0n, max: 1n << 70n }).map((n) => new Duration(n)),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map((n) => new Datetime(n)),
  uuid,
  fc.uint8Array({ maxLength: 4 }),
  fc.string({ maxLength: 3 }).map((t) => new Table(t)),
);

export const keyLike: fc.Arbitrary<RecordIdKey> = fc.letrec<{ id: RecordIdKey; v: Value }>((tie) => ({
  id: fc.oneof(
    { depthSize: "small" },
    int,
    text,
    uuid,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(text, tie("v"), { maxKeys: 3 }),
  ),
  v: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.tuple(fc.string({ maxLength: 3 }), tie("id")).map(([t, id]) => new RecordId(t, id)),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(text, tie("v"), { maxKeys: 3 }),
  ),
})).id;

/** Any value the engine can store (keys cannot hold geometries or id ranges; documents can). */
export const keyValue: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.tuple(fc.string({ maxLength: 3 }), keyLike).map(([t, id]) => new RecordId(t, id)),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(text, tie("v"), { maxKeys: 3 }),
  ),
})).v;

export const documentValue: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    keyValue,
    fc.constantFrom(
      new Geometry("Point", [1.5, 2]),
      new RecordId("t", new RecordIdRange({ value: 1n, inclusive: true }, { value: "z", inclusive: false })),
      new RecordId("t", new RecordIdRange(undefined, undefined)),
      JSON.parse('{"__proto__": 1, "a": [2]}') as Value,
    ),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(text, tie("v"), { maxKeys: 3 }),
  ),
})).v;

/** A canonical text with kinds, for exact equality (-0, NaN, bigint vs float, key order of objects). */
export function show(v: Value | RecordIdKey): string {
  if (v === undefined) return "NONE";
  if (typeof v === "number") return Object.is(v, -0) ? "f-0" : `f${v}`;
  if (typeof v === "bigint") return `i${v}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Decimal) return `d${v.text}`;
  if (v instanceof Duration) return `D${v.nanos}`;
  if (v instanceof Datetime) return `T${v.nanos}`;
  if (v instanceof Uuid) return `u${v.text}`;
  if (v instanceof Table) return `tb${JSON.stringify(v.name)}`;
  if (v instanceof RecordId) return `r${JSON.stringify(v.table)}:${show(v.id)}`;
  if (v instanceof Uint8Array) return `b${Array.from(v).join(",")}${v.constructor === Uint8Array ? "" : "!"}`;
  if (Array.isArray(v)) return `[${v.map(show).join(",")}]`;
  if (isValueObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${show(v[k])}`).join(",")}}`;
  if (v instanceof RecordIdRange) return `${v.begin ? `${v.begin.inclusive ? "[" : "("}${show(v.begin.value)}` : ""}..${v.end ? `${show(v.end.value)}${v.end.inclusive ? "]" : ")"}` : ""}`;
  if (v instanceof Geometry) return `g${JSON.stringify([v.type, v.coordinates])}`;
  return `?${String(v)}`;
}
