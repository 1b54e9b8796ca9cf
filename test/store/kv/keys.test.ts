// store/kv/keys: bytewise order of the encoding is SurrealDB's key order (facts recorded from the oracle, and a
// reference comparator under fast-check); decoding inverts encoding; the layout's ranges hold exactly their keys.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareKeys, prefixRange } from "../../../src/store/kv/bytes.js";
import {
  decodeEdgeKey,
  decodeIndexEntryKey,
  decodeRecordIdKey,
  decodeRecordKey,
  decodeValue,
  definitionKey,
  definitionsRange,
  edgeKey,
  edgesRange,
  encodeRecordIdKey,
  encodeValue,
  indexEntryKey,
  indexRange,
  indexValuesRange,
  recordKey,
  tableKey,
  tableRecordsRange,
} from "../../../src/store/kv/keys.js";
import type { KeyRange } from "../../../src/store/kv/types.js";
import { compareStrings } from "../../../src/value/compat.js";
import { scaledOf, compareScaled } from "../../../src/value/decimal.js";
import { Datetime, Decimal, Duration, RecordId, Table, Uuid, isValueObject, type RecordIdKey, type Value } from "../../../src/value/types.js";
import { keyLike, keyValue, show } from "./values.js";

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
const cmp = <T>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);
const U = "018f0f4c-0000-7000-8000-000000000000";

/** SurrealDB 2.x's key order, written from the oracle's facts independently of the encoder. */
function rank(v: Value): number {
  if (v === undefined) return 0;
  if (v === null) return 1;
  if (typeof v === "boolean") return 2;
  if (typeof v === "bigint") return 3;
  if (typeof v === "number") return 4;
  if (v instanceof Decimal) return 5;
  if (typeof v === "string") return 6;
  if (v instanceof Duration) return 7;
  if (v instanceof Datetime) return 8;
  if (v instanceof Uuid) return 9;
  if (Array.isArray(v)) return 10;
  if (v instanceof Uint8Array) return 13;
  if (v instanceof RecordId) return 14;
  if (v instanceof Table) return 15;
  return 11;
}
function floatOrder(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
  if (a === 0 && b === 0) return cmp(Object.is(a, 0) ? 1 : 0, Object.is(b, 0) ? 1 : 0); // -0 before 0
  return cmp(a, b);
}
function reference(a: Value, b: Value): number {
  const r = cmp(rank(a), rank(b));
  if (r !== 0) return r;
  if (typeof a === "boolean" || typeof a === "bigint") return cmp(a, b as typeof a);
  if (typeof a === "number") return floatOrder(a, b as number);
  if (a instanceof Decimal) {
    const [x, y] = [scaledOf(a), scaledOf(b as Decimal)];
    return compareScaled(x, y) || cmp(x.scale, y.scale);
  }
  if (typeof a === "string") return sign(compareStrings(a, b as string));
  if (a instanceof Duration || a instanceof Datetime) return cmp(a.nanos, (b as Duration).nanos);
  if (a instanceof Uuid || a instanceof Table) return cmp(a instanceof Uuid ? a.text : a.name, b instanceof Uuid ? b.text : (b as Table).name);
  if (Array.isArray(a)) {
    const y = b as Value[];
    for (let i = 0; i < Math.min(a.length, y.length); i++) {
      const c = reference(a[i], y[i]);
      if (c !== 0) return c;
    }
    return cmp(y.length, a.length); // the array end sorts above every element
  }
  if (a instanceof Uint8Array) {
    const y = b as Uint8Array;
    for (let i = 0; i < Math.min(a.length, y.length); i++) if (a[i] !== y[i]) return cmp(a[i], y[i]);
    return cmp(a.length, y.length);
  }
  if (a instanceof RecordId) return sign(compareStrings(a.table, (b as RecordId).table)) || reference(a.id as Value, (b as RecordId).id as Value);
  if (isValueObject(a) && isValueObject(b)) {
    const [ka, kb] = [Object.keys(a).sort(compareStrings), Object.keys(b).sort(compareStrings)];
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const c = sign(compareStrings(ka[i]!, kb[i]!)) || reference(a[ka[i]!], b[kb[i]!]);
      if (c !== 0) return c;
    }
    return cmp(ka.length, kb.length); // the object end sorts below every entry
  }
  return 0;
}


const inRange = (key: Uint8Array, r: KeyRange): boolean => compareKeys(key, r.start) >= 0 && compareKeys(key, r.end) < 0;

describe("record-id keys sort as SurrealDB 2.6 scans a table (oracle)", () => {
  // `CREATE t:…; SELECT VALUE id FROM t` on SurrealDB 2.6.0, in its answer's order
  const facts: RecordIdKey[][] = [
    [-5n, 1n, "B", "a", "a b", new Uuid(U), [undefined], [null], [true], [-1n], [1n, "a"], [1n], [2n], [(1n << 63n) - 1n], [0.5], [1], [1.0000000000000002], [1.5], [new Decimal("1")], [new Decimal("1.00000000000000000001")], [], {}, { a: 1n }],
    [-(1n << 63n), 0n, (1n << 63n) - 1n, "", "z", "é", "\uffff", "😀", [false], [-2n], [-1.5], [-0.5], [new Decimal("-1")], [""], ["a", "b"], ["a"], ["ab"], [new Duration(1_000_000_000n)], [new Datetime(1577836800n * 1_000_000_000n)], [new Uuid(U)], [[1n]], [[]], [{ a: 1n }], [new Uint8Array([97, 98])], [new RecordId("x", 1n)], {}, { a: undefined }, { a: 1n }, { a: 1n, b: 1n }, { a: 2n }, { a: "x" }, { aa: 0n }, { b: 0n }],
  ];
  it.each(facts.map((f, i) => [i, f] as const))("table %i", (_, ids) => {
    const shuffled = [...ids].reverse();
    const sorted = shuffled.map((id) => [encodeRecordIdKey(id), id] as const).sort(([a], [b]) => compareKeys(a, b));
    expect(sorted.map(([, id]) => show(id))).toEqual(ids.map(show));
  });
});

describe("value encoding", () => {
  it("bytewise order equals the reference key order", () => {
    fc.assert(
      fc.property(keyValue, keyValue, (a, b) => {
        expect(sign(compareKeys(encodeValue(a), encodeValue(b)))).toBe(reference(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it("decode ∘ encode is the identity, for values and record-id keys", () => {
    fc.assert(
      fc.property(keyValue, keyLike, (v, id) => {
        expect(show(decodeValue(encodeValue(v)))).toBe(show(v));
        expect(show(decodeRecordIdKey(encodeRecordIdKey(id)))).toBe(show(id));
      }),
      { numRuns: 2000 },
    );
  });

  it("decodes keys handed out as Buffer views (file: and postgres:// rows) without changing them", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), keyLike, (tb, id) => {
        const plain = recordKey("n", "d", tb, id);
        // a view at an odd offset of a larger pool, as Node hands out small Buffers
        const pool = Buffer.alloc(plain.length + 7, 0xee);
        pool.set(plain, 5);
        const view = pool.subarray(5, 5 + plain.length);
        expect(show(decodeRecordKey(view).id)).toBe(show(id));
        expect(Buffer.compare(view, plain)).toBe(0);
        const range = prefixRange(view);
        expect(Buffer.compare(view, plain)).toBe(0);
        expect(compareKeys(range.end, plain)).toBeGreaterThan(0);
      }),
    );
  });

  it("keeps a decimal's scale and its sign at zero-adjacent values", () => {
    for (const t of ["1.50", "-0.001", "0.00", "123456789012345678901234567.8", "-99"]) {
      expect((decodeValue(encodeValue(new Decimal(t))) as Decimal).text).toBe(t);
    }
  });

  it("refuses integers outside i64", () => {
    expect(() => encodeValue(1n << 63n)).toThrow(RangeError);
  });
});

describe("key layout", () => {
  it("a record key decodes to its parts and lies in its table's range only", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), keyLike, (ns, db, tb, id) => {
        const key = recordKey(ns, db, tb, id);
        const parts = decodeRecordKey(key);
        expect([parts.ns, parts.db, parts.tb, show(parts.id)]).toEqual([ns, db, tb, show(id)]);
        expect(inRange(key, tableRecordsRange(ns, db, tb))).toBe(true);
        expect(inRange(key, tableRecordsRange(ns, db, `${tb}x`))).toBe(false);
        expect(inRange(key, prefixRange(tableKey(ns, db, tb)))).toBe(true);
        expect(inRange(key, indexRange(ns, db, tb, "ix"))).toBe(false);
      }),
    );
  });

  it("a table name that extends another's is not in its range", () => {
    expect(inRange(recordKey("n", "d", "ab", 1n), tableRecordsRange("n", "d", "a"))).toBe(false);
    expect(inRange(recordKey("n", "d", "a", 1n), tableRecordsRange("n", "d", "a"))).toBe(true);
  });

  it("index entries: unique keys hold the values, non-unique ones append the record id", () => {
    const unique = indexEntryKey("n", "d", "user", "email", ["a@b.c"]);
    expect(decodeIndexEntryKey(unique, 1)).toEqual({ values: ["a@b.c"] });
    const one = indexEntryKey("n", "d", "user", "age", [30n], "bob");
    const two = indexEntryKey("n", "d", "user", "age", [30n], "alice");
    const other = indexEntryKey("n", "d", "user", "age", [31n], "aaron");
    expect(decodeIndexEntryKey(one, 1)).toEqual({ values: [30n], id: "bob" });
    expect(compareKeys(two, one)).toBeLessThan(0);
    expect(compareKeys(one, other)).toBeLessThan(0);
    const thirty = indexValuesRange("n", "d", "user", "age", [30n]);
    expect([one, two, other].map((k) => inRange(k, thirty))).toEqual([true, true, false]);
    expect([unique, one].map((k) => inRange(k, indexRange("n", "d", "user", "age")))).toEqual([false, true]);
  });

  it("graph edges of a record are one range, narrowed by direction and foreign table", () => {
    const out = edgeKey("n", "d", "person", "tobie", "out", new RecordId("likes", 1n));
    const inn = edgeKey("n", "d", "person", "tobie", "in", new RecordId("likes", 2n));
    const elsewhere = edgeKey("n", "d", "person", "jaime", "out", new RecordId("likes", 3n));
    expect(decodeEdgeKey(out)).toMatchObject({ tb: "person", id: "tobie", dir: "out", other: new RecordId("likes", 1n) });
    const all = edgesRange("n", "d", "person", "tobie");
    expect([out, inn, elsewhere].map((k) => inRange(k, all))).toEqual([true, true, false]);
    expect([out, inn].map((k) => inRange(k, edgesRange("n", "d", "person", "tobie", "out", "likes")))).toEqual([true, false]);
    expect(inRange(out, edgesRange("n", "d", "person", "tobie", "out", "like"))).toBe(false);
    expect(inRange(out, tableRecordsRange("n", "d", "person"))).toBe(false);
  });

  it("definitions of one kind under a base are one range", () => {
    const base = tableKey("n", "d", "user");
    const fd = definitionKey(base, "fd", "email");
    expect(inRange(fd, definitionsRange(base, "fd"))).toBe(true);
    expect(inRange(fd, definitionsRange(base, "ix"))).toBe(false);
    expect(inRange(fd, tableRecordsRange("n", "d", "user"))).toBe(false);
  });
});
