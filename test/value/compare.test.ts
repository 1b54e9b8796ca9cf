import { describe, expect, it } from "vitest";
import { compareValues, sortValues, valueEquals, valueExact } from "../../src/value/compare.js";
import { parseDatetime } from "../../src/value/datetime.js";
import { parseDuration } from "../../src/value/duration.js";
import { toSql } from "../../src/value/display.js";
import { Decimal, Geometry, RecordId, Table, Uuid, type Value } from "../../src/value/types.js";

const v1 = { compat: 1 as const };
const sorted = (xs: Value[], opts?: { compat?: 1 | 2 }) => sortValues(xs, opts);
const bytes = (s: string) => new Uint8Array(Buffer.from(s));
const uuid = (s: string) => new Uuid(s);

// Orders observed with array::sort on SurrealDB 1.5.4 and 2.6.0.
describe("compareValues", () => {
  it("orders types: NONE < NULL < bool < number < string < duration < datetime < uuid < array < object < geometry < bytes < record < table", () => {
    const mixed: Value[] = [
      new RecordId("user", 1n), { a: 1n }, [1n], uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"), parseDatetime("2020-01-01"),
      parseDuration("1s"), "a", 1n, true, null, undefined, bytes("a"), new Table("t"), 1.5, new Decimal("2"), false, 0n,
      new Geometry("Point", [1, 2]),
    ];
    expect(toSql(sorted(mixed))).toBe(
      "[NONE, NULL, false, true, 0, 1, 1.5f, 2dec, 'a', 1s, d'2020-01-01T00:00:00Z', u'018f5b5c-8a3a-7b3c-9d1e-123456789abc', [1], { a: 1 }, (1, 2), encoding::base64::decode(\"YQ\"), user:1, t]",
    );
  });
  it("numbers across int, float and decimal", () => {
    expect(toSql(sorted([3n, 2.5, new Decimal("1"), 2n, -1n, 10n]))).toBe("[-1, 1dec, 2, 2.5f, 3, 10]");
    expect(compareValues(2n, 2.0)).toBe(0);
    expect(compareValues(2n, new Decimal("2.00"))).toBe(0);
    expect(compareValues(new Decimal("2"), 1.5)).toBe(1);
  });
  it("NaN equals NaN and sorts above every number, infinities included", () => {
    expect(sortValues([NaN, 1n, -Infinity, Infinity, 1.5])).toEqual([-Infinity, 1n, 1.5, Infinity, NaN]);
    expect(compareValues(NaN, 1n)).toBe(1);
    expect(compareValues(NaN, NaN)).toBe(0);
  });
  it("int vs float beyond 2^53: exact in 2.x, via f64 in 1.x", () => {
    expect(compareValues(9007199254740993n, 9007199254740992)).toBe(1);
    expect(compareValues(9007199254740993n, 9007199254740992, v1)).toBe(0);
  });
  it("strings by code point", () => {
    expect(sorted(["b", "B", "a", "A", "aa", "", "é", "z", "10", "9", "😀", "\uffff"])).toEqual(["", "10", "9", "A", "B", "a", "aa", "b", "z", "é", "\uffff", "😀"]);
  });
  it("arrays and objects lexicographically", () => {
    expect(toSql(sorted([[1n, 2n], [1n], [2n], [], [1n, "a"], [1n, 1n]]))).toBe("[[], [1], [1, 1], [1, 2], [1, 'a'], [2]]");
    expect(toSql(sorted([{ b: 1n }, { a: 2n }, { a: 1n }, {}, { a: 1n, b: 1n }, { a: 1n, b: 0n }]))).toBe(
      "[{  }, { a: 1 }, { a: 1, b: 0 }, { a: 1, b: 1 }, { a: 2 }, { b: 1 }]",
    );
  });
  it("durations, datetimes, uuids, bytes", () => {
    expect(toSql(sorted([parseDatetime("2020-01-01"), parseDatetime("1960-01-01"), parseDuration("1s"), parseDuration("0ns"), parseDuration("1w")]))).toBe(
      "[0ns, 1s, 1w, d'1960-01-01T00:00:00Z', d'2020-01-01T00:00:00Z']",
    );
    expect(compareValues(uuid("ffffffff-8a3a-7b3c-9d1e-123456789abc"), uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"))).toBe(1);
    expect(toSql(sorted([bytes("b"), bytes("ab"), bytes("a"), bytes("")]))).toBe(
      '[encoding::base64::decode(""), encoding::base64::decode("YQ"), encoding::base64::decode("YWI"), encoding::base64::decode("Yg")]',
    );
  });
  it("record ids: table, then key (numbers < strings < arrays < objects)", () => {
    const r = (t: string, k: RecordId["id"]) => new RecordId(t, k);
    expect(toSql(sorted([r("user", 2n), r("user", 10n), r("user", "a"), r("post", 1n), r("user", [1n]), r("user", { a: 1n }), r("user", "10"), r("user", "zz"), r("user", -1n)]))).toBe(
      "[post:1, user:-1, user:2, user:10, user:`10`, user:a, user:zz, user:[1], user:{ a: 1 }]",
    );
  });
});

describe("valueEquals / valueExact", () => {
  it("numbers are equal across types, recursively", () => {
    expect(valueEquals(1n, 1.0)).toBe(true);
    expect(valueEquals(1n, new Decimal("1"))).toBe(true);
    expect(valueEquals(1.0, new Decimal("1.00"))).toBe(true);
    expect(valueExact(1n, 1.0)).toBe(true);
    expect(valueEquals([1n], [1.0])).toBe(true);
    expect(valueEquals({ a: 1n }, { a: 1.0 })).toBe(true);
    expect(valueEquals(NaN, NaN)).toBe(true);
  });
  it("different types differ", () => {
    expect(valueEquals(undefined, null)).toBe(false);
    expect(valueExact(undefined, null)).toBe(false);
    expect(valueEquals(1n, "1")).toBe(false);
    expect(valueEquals(0n, false)).toBe(false);
    expect(valueEquals({ a: 1n }, { a: 1n, b: undefined })).toBe(false);
  });
  it("a string never equals the record id of its text (1.x reads a literal 'user:1' as a record id when it parses)", () => {
    expect(valueEquals(new RecordId("user", 1n), "user:1")).toBe(false);
    expect(valueEquals("user:1", new RecordId("user", 1n), v1)).toBe(false);
    expect(valueExact("user:1", new RecordId("user", 1n), v1)).toBe(false);
  });
});

describe("sortValues", () => {
  it("keeps NONE first, unlike Array.prototype.sort", () => {
    expect(sortValues([1n, undefined, null])).toEqual([undefined, null, 1n]);
  });
});
