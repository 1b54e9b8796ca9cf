import { describe, expect, it } from "vitest";
import { parseDatetime } from "../../src/value/datetime.js";
import { parseDuration } from "../../src/value/duration.js";
import { fromJson, legacyStrand, toJson, toJsonText } from "../../src/value/json.js";
import { Datetime, Decimal, Geometry, RecordId, Table, Uuid } from "../../src/value/types.js";

describe("toJson", () => {
  it("scalars as SurrealDB's JSON RPC sends them", () => {
    expect(
      toJson([
        undefined, null, true, 5n, 1.5, NaN, Infinity, new Decimal("1.50"), "s", parseDuration("90m"),
        parseDatetime("2024-01-02T03:04:05.123Z"), new Uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"),
        new RecordId("user", "abc"), new Table("t"), new Uint8Array([1, 2]),
      ]),
    ).toEqual([
      null, null, true, 5, 1.5, null, null, "1.50", "s", "1h30m", "2024-01-02T03:04:05.123Z",
      "018f5b5c-8a3a-7b3c-9d1e-123456789abc", "user:abc", "t", [1, 2],
    ]);
  });
  it("record ids as their SurrealQL text per version", () => {
    expect(toJson(new RecordId("user", "a-b"))).toBe("user:`a-b`");
    expect(toJson(new RecordId("user", "a-b"), { compat: 1 })).toBe("user:⟨a-b⟩");
    expect(toJson(new RecordId("user", [1n, "x"]))).toBe("user:[1, 'x']");
  });
  it("objects with sorted keys, nested", () => {
    const out = toJson({ b: 1n, a: { d: [new Datetime(0n)], c: undefined } });
    expect(JSON.stringify(out)).toBe('{"a":{"c":null,"d":["1970-01-01T00:00:00Z"]},"b":1}');
  });
  it("geometry as GeoJSON", () => {
    expect(toJson(new Geometry("Point", [1, 2]))).toEqual({ type: "Point", coordinates: [1, 2] });
    expect(toJson(new Geometry("GeometryCollection", [new Geometry("Point", [1, 2])]))).toEqual({
      type: "GeometryCollection",
      geometries: [{ type: "Point", coordinates: [1, 2] }],
    });
  });
  it("toJsonText keeps big ints exact", () => {
    expect(toJsonText({ n: 9223372036854775807n, l: [1n, "x"] })).toBe('{"l":[1,"x"],"n":9223372036854775807}');
    expect(toJson(9223372036854775807n)).toBe(9223372036854775807);
  });
});

describe("fromJson", () => {
  it("numbers: integers → int, others → float", () => {
    expect(fromJson({ a: 1, b: 1.5, c: -3, d: 1e300 })).toEqual({ a: 1n, b: 1.5, c: -3n, d: 1e300 });
    expect(fromJson(null)).toBe(null);
    expect(fromJson([true, "x"])).toEqual([true, "x"]);
  });
  it("plain strings stay strings without legacyStrings", () => {
    expect(fromJson("user:1")).toBe("user:1");
  });
  it("legacy strands: whole-string record ids, datetimes, uuids", () => {
    const opts = { legacyStrings: true };
    expect(fromJson("user:42", opts)).toEqual(new RecordId("user", 42n));
    expect(fromJson("user:⟨a-b⟩", opts)).toEqual(new RecordId("user", "a-b"));
    expect(fromJson("user:alice", opts)).toEqual(new RecordId("user", "alice"));
    expect(fromJson("2024-01-01T00:00:00Z", opts)).toEqual(parseDatetime("2024-01-01"));
    expect(fromJson("018F5B5C-8A3A-7B3C-9D1E-123456789ABC", opts)).toEqual(new Uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"));
    expect(fromJson({ x: ["user:1"] }, opts)).toEqual({ x: [new RecordId("user", 1n)] });
    for (const s of ["hello", "a b:c", "2024-01-01", "user:a-b", "12:30", "mailto:x@y"]) {
      expect(fromJson(s, opts), s).toBe(s === "mailto:x@y" ? s : s);
    }
  });
  it("version differences in legacy strands", () => {
    expect(legacyStrand("123:1")).toBe("123:1");
    expect(legacyStrand("123:1", { compat: 1 })).toEqual(new RecordId("123", 1n));
    expect(legacyStrand("user:1abc")).toEqual(new RecordId("user", "1abc"));
    expect(legacyStrand("user:1abc", { compat: 1 })).toBe("user:1abc");
    // 1.x: its string literals' rules (datetime-strings-v1.surql): signed 4-digit years, uuid versions 1–8 only
    expect(legacyStrand("+2024-01-02T03:04:05Z", { compat: 1 })).toEqual(parseDatetime("2024-01-02T03:04:05Z"));
    expect(legacyStrand("+2024-01-02T03:04:05Z")).toBe("+2024-01-02T03:04:05Z");
    expect(legacyStrand("2f1e0c2a-8b8d-9a7e-9a3e-0f6d2b1c3a4e", { compat: 1 })).toBe("2f1e0c2a-8b8d-9a7e-9a3e-0f6d2b1c3a4e");
    expect(legacyStrand("2f1e0c2a-8b8d-4a7e-9a3e-0f6d2b1c3a4e", { compat: 1 })).toEqual(new Uuid("2f1e0c2a-8b8d-4a7e-9a3e-0f6d2b1c3a4e"));
  });
});
