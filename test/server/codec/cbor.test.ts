// CBOR codec: round trips, SurrealDB tag layout byte for byte, and agreement with the official SDK's codec.

import { describe, expect, it } from "vitest";
import * as sdk from "surrealdb";
import { CBOR_REFUSED, CborError, CborValueError, decodeCbor, encodeCbor, salvageCbor } from "../../../src/server/codec/cbor.js";
import { Closure, Datetime, Decimal, Duration, Geometry, Range, RecordId, RecordIdRange, Regex, Table, Uuid, type Value } from "../../../src/value/types.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
const sdkCodec = sdk.CborCodec.DEFAULT;

/** A closure as data sees it: only its text. */
class TextClosure extends Closure {
  get text(): string {
    return "|$x: any| 1";
  }
}

describe("encodeCbor", () => {
  it("refuses a closure anywhere in a value with SurrealDB's words (it has no CBOR form; attack pass 9, G3)", () => {
    for (const v of [new TextClosure(), [1n, new TextClosure()], { a: { f: new TextClosure() } }] as Value[]) {
      expect(() => encodeCbor(v)).toThrow("Found unsupported SurrealQL value being encoded into a CBOR value");
    }
  });

  it("writes a range value as tag 49 with 50 / 51 bounds (2.x `1..=5`, `..5`)", () => {
    expect(hex(encodeCbor(new Range({ value: 1n, inclusive: true }, { value: 5n, inclusive: true })))).toBe("d83182d83201d83205");
    expect(hex(encodeCbor(new Range(undefined, { value: 5n, inclusive: false })))).toBe("d83182f6d83305");
  });

  it.each<[string, Value, string]>([
    ["NONE as tag 6(null)", undefined, "c6f6"],
    ["NULL", null, "f6"],
    ["small int minimal", 1n, "01"],
    ["negative int", -500n, "3901f3"],
    ["i64 max", (1n << 63n) - 1n, "1b7fffffffffffffff"],
    ["float as float64", 1, "fb3ff0000000000000"],
    ["table", new Table("user"), "c76475736572"],
    ["record id [tb, int]", new RecordId("person", 1n), "c88266706572736f6e01"],
    ["record id [tb, text]", new RecordId("a", "b"), "c882616161 62".replace(/ /g, "")],
    ["decimal", new Decimal("1.50"), "ca64312e3530"],
    ["uuid as 16 bytes", new Uuid("0191e3b2-6c1a-7000-8000-000000000001"), "d825500191e3b26c1a70008000000000000001"],
    ["datetime [s, ns]", new Datetime(1704164645123456789n), "cc821a65937d251a075bcd15"],
    ["zero duration", new Duration(0n), "ce80"],
    ["duration seconds only", new Duration(5400n * 1_000_000_000n), "ce81191518"],
    ["duration with nanos", new Duration(1_000_000_001n), "ce820101"],
    ["bytes", new Uint8Array([1, 2]), "420102"],
    ["object keys sorted", { b: 2n, a: true }, "a2616af5616202".replace("616a", "6161")],
  ])("%s", (_name, value, expected) => {
    expect(hex(encodeCbor(value))).toBe(expected);
  });

  it("writes a record id range key as tag 49 with 50/51 bounds", () => {
    const rid = new RecordId("t", new RecordIdRange({ value: 1n, inclusive: true }, { value: 5n, inclusive: false }));
    expect(hex(encodeCbor(rid))).toBe("c8826174d83182d83201d83305");
  });

  it("writes an unbounded range end as null", () => {
    const rid = new RecordId("t", new RecordIdRange({ value: 1n, inclusive: true }, undefined));
    expect(hex(encodeCbor(rid))).toBe("c8826174d83182d83201f6");
  });

  it("writes point coordinates as floats in v2 and decimal strings in v1", () => {
    const p = new Geometry("Point", [1, 2.5]);
    expect(hex(encodeCbor(p, { compat: 2 }))).toBe("d85882fb3ff0000000000000fb4004000000000000");
    expect(hex(encodeCbor(p, { compat: 1 }))).toBe("d85882ca6131ca63322e35");
  });

  it("writes a regex as its pattern's text, as JSON does (SurrealDB fails the whole answer: stricter, attack pass 10, H5)", () => {
    const out = sdkCodec.decode(encodeCbor([new Regex("a/b+"), { r: new Regex("^x$") }]));
    expect(out).toEqual(["a/b+", { r: "^x$" }]);
  });
  it("refuses a value outside the value model", () => {
    expect(() => encodeCbor(new Map() as unknown as Value)).toThrow(CborError);
  });
});

describe("decodeCbor", () => {
  it("counts items (map keys too) against maxItems before building more", () => {
    // {a: [1, 2]}: the map, its key, the array and two ints
    const bytes = encodeCbor({ a: [1n, 2n] });
    expect(decodeCbor(bytes, { maxItems: 5 })).toEqual({ a: [1n, 2n] });
    expect(() => decodeCbor(bytes, { maxItems: 4 })).toThrow("Too many items in one message");
    expect(() => decodeCbor(encodeCbor(Array.from({ length: 300_000 }, () => 0n)))).toThrow("Too many items in one message");
  });

  it("keeps ints and floats apart", () => {
    expect(decodeCbor(bytes("01"))).toBe(1n);
    expect(decodeCbor(bytes("fb3ff0000000000000"))).toBe(1);
    expect(decodeCbor(bytes("f93e00"))).toBe(1.5); // float16
    expect(decodeCbor(bytes("fa3fc00000"))).toBe(1.5); // float32
    expect(decodeCbor(bytes("fa3dcccccd"))).toBe(Math.fround(0.1)); // no decimal rounding of float32
    expect(decodeCbor(bytes("3b7fffffffffffffff"))).toBe(-(1n << 63n));
  });

  it("rejects integers beyond i64", () => {
    expect(() => decodeCbor(bytes("1bffffffffffffffff"))).toThrow(CborError);
  });

  it("reads a decimal (tag 10) as rust_decimal reads it, and refuses one it cannot hold before expanding its digits (attack pass 7, E3)", () => {
    const tag10 = (text: string): Uint8Array => encodeCbor(new Decimal(text));
    expect(decodeCbor(tag10("1.50"))).toEqual(new Decimal("1.50"));
    expect(decodeCbor(tag10("-2.5e3"))).toEqual(new Decimal("-2500"));
    expect(decodeCbor(tag10("1e28"))).toEqual(new Decimal("10000000000000000000000000000"));
    for (const text of ["1e30000000", "1e-29", "1e29", "79228162514264337593543950336", "abc", "", "."]) {
      expect(() => decodeCbor(tag10(text)), text).toThrow("Expected a valid Decimal value");
    }
  });

  it("decodes NONE from tag 6 with any payload, and undefined", () => {
    expect(decodeCbor(bytes("c6f6"))).toBeUndefined();
    expect(decodeCbor(bytes("c601"))).toBeUndefined();
    expect(decodeCbor(bytes("f7"))).toBeUndefined();
    expect(decodeCbor(bytes("f6"))).toBeNull();
  });

  it("accepts a table inside a record id and uuid keys in v2", () => {
    expect(decodeCbor(bytes("c882c7617401"))).toEqual(new RecordId("t", 1n));
    const u = "d825500191e3b26c1a70008000000000000001";
    expect(decodeCbor(bytes(`c8826174${u}`))).toEqual(new RecordId("t", new Uuid("0191e3b2-6c1a-7000-8000-000000000001")));
    expect(() => decodeCbor(bytes(`c8826174${u}`), { compat: 1 })).toThrow(CborError);
  });

  it("decodes string uuids (tag 9), durations of 0–2 ints and datetimes", () => {
    expect(decodeCbor(bytes("c9" + "78" + "24" + Buffer.from("0191E3B2-6C1A-7000-8000-000000000001").toString("hex")))).toEqual(
      new Uuid("0191e3b2-6c1a-7000-8000-000000000001"),
    );
    expect(decodeCbor(bytes("ce80"))).toEqual(new Duration(0n));
    expect(decodeCbor(bytes("ce8101"))).toEqual(new Duration(1_000_000_000n));
    expect(decodeCbor(bytes("cc82200a"))).toEqual(new Datetime(-1_000_000_000n + 10n));
  });

  it("decodes geometries into GeoJSON-shaped coordinates", () => {
    const line = "d85982d85882fb3ff0000000000000fb4000000000000000d8588203ca6134";
    expect(decodeCbor(bytes(line))).toEqual(new Geometry("LineString", [[1, 2], [3, 4]]));
    const coll = `d85e81${line}`;
    expect(decodeCbor(bytes(coll))).toEqual(new Geometry("GeometryCollection", [new Geometry("LineString", [[1, 2], [3, 4]])]));
  });

  it("handles indefinite-length arrays, maps and strings", () => {
    expect(decodeCbor(bytes("9f0102ff"))).toEqual([1n, 2n]);
    expect(decodeCbor(bytes("bf6161f5ff"))).toEqual({ a: true });
    expect(decodeCbor(bytes("7f61616162ff"))).toBe("ab");
  });

  it("turns integer map keys into strings and keeps __proto__ as a plain key", () => {
    const v = decodeCbor(bytes("a201f5695f5f70726f746f5f5fa0")) as Record<string, Value>;
    expect(Object.keys(v)).toEqual(["1", "__proto__"]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it.each([
    ["unknown tag", "d90100f6"],
    ["tag 11", "cbf6"],
    ["set tag 56", "d83880"],
    ["truncated", "82 01".replace(" ", "")],
    ["trailing bytes", "0101"],
    ["bad utf-8", "62c328"],
    ["bad uuid length", "d8254101"],
    ["bad datetime payload", "cc8101"],
    ["negative duration part", "ce8120"],
    ["bound outside a range", "d83201"],
    ["record id of a float", "c8826174f93c00"],
    ["map key of an array", "a180f5"],
    ["huge declared length", "5bffffffffffffffff"],
    ["lone break", "ff"],
    ["empty input", ""],
  ])("rejects %s", (_name, h) => {
    expect(() => decodeCbor(bytes(h))).toThrow(CborError);
  });

  it("rejects nesting beyond the depth limit instead of overflowing the stack", () => {
    expect(() => decodeCbor(bytes("81".repeat(100_000) + "01"))).toThrow(CborError);
  });
});

describe("round trips", () => {
  it.each<[string, Value]>([
    ["nested object", { a: [1n, 2.5, "x", null, undefined, true], b: { c: new Table("t") } }],
    ["record id with array key", new RecordId("t", [1n, "a", { x: 1n }])],
    ["record id with object key", new RecordId("t", { a: 1n })],
    ["record id range", new RecordId("t", new RecordIdRange(undefined, { value: "z", inclusive: true }))],
    ["negative datetime", new Datetime(-1_500_000_000n)],
    ["long duration", new Duration(123_456_789_123_456_789n)],
    ["polygon", new Geometry("Polygon", [[[0, 0], [1, 0], [1, 1], [0, 0]]])],
    ["multipolygon", new Geometry("MultiPolygon", [[[[0, 0], [1, 1], [0, 0]]]])],
    ["multipoint", new Geometry("MultiPoint", [[0, 0], [1, 1]])],
    ["multiline", new Geometry("MultiLineString", [[[0, 0], [1, 1]]])],
  ])("%s", (_name, v) => {
    expect(decodeCbor(encodeCbor(v))).toEqual(v);
  });
});

describe("agreement with the official SDK codec (surrealdb 2.0.8)", () => {
  const P = (x: number, y: number) => new sdk.GeometryPoint([x, y]);
  const cases: [string, unknown, Value][] = [
    ["record id", new sdk.RecordId("person", 1), new RecordId("person", 1n)],
    ["record id with text key", new sdk.RecordId("person", "tobie"), new RecordId("person", "tobie")],
    ["table", new sdk.Table("user"), new Table("user")],
    ["uuid", new sdk.Uuid("0191e3b2-6c1a-7000-8000-000000000001"), new Uuid("0191e3b2-6c1a-7000-8000-000000000001")],
    ["decimal", new sdk.Decimal("12.5"), new Decimal("12.5")],
    ["duration", new sdk.Duration("1h30m"), new Duration(5400n * 1_000_000_000n)],
    ["duration with nanos", new sdk.Duration("1s5ns"), new Duration(1_000_000_005n)],
    ["datetime", new sdk.DateTime("2024-01-02T03:04:05.123456789Z"), new Datetime(1704164645123456789n)],
    ["NONE", undefined, undefined],
    ["int and float", { i: 7, f: 0.5, b: 9007199254740993n }, { i: 7n, f: 0.5, b: 9007199254740993n }],
    ["point", new sdk.GeometryPoint([1, 2.5]), new Geometry("Point", [1, 2.5])],
    ["line", new sdk.GeometryLine([P(1, 2), P(3, 4)]), new Geometry("LineString", [[1, 2], [3, 4]])],
    ["polygon", new sdk.GeometryPolygon([new sdk.GeometryLine([P(0, 0), P(1, 0), P(1, 1), P(0, 0)])]), new Geometry("Polygon", [[[0, 0], [1, 0], [1, 1], [0, 0]]])],
    ["multipoint", new sdk.GeometryMultiPoint([P(0, 0), P(1, 1)]), new Geometry("MultiPoint", [[0, 0], [1, 1]])],
    ["multiline", new sdk.GeometryMultiLine([new sdk.GeometryLine([P(1, 2), P(3, 4)])]), new Geometry("MultiLineString", [[[1, 2], [3, 4]]])],
    [
      "multipolygon",
      new sdk.GeometryMultiPolygon([new sdk.GeometryPolygon([new sdk.GeometryLine([P(0, 0), P(1, 0), P(1, 1), P(0, 0)])])]),
      new Geometry("MultiPolygon", [[[[0, 0], [1, 0], [1, 1], [0, 0]]]]),
    ],
    [
      "collection",
      new sdk.GeometryCollection([P(1, 2), new sdk.GeometryLine([P(1, 2), P(3, 4)])]),
      new Geometry("GeometryCollection", [new Geometry("Point", [1, 2]), new Geometry("LineString", [[1, 2], [3, 4]])]),
    ],
    [
      "record id range",
      new sdk.RecordIdRange("t", new sdk.BoundIncluded(1), new sdk.BoundExcluded(5)),
      new RecordId("t", new RecordIdRange({ value: 1n, inclusive: true }, { value: 5n, inclusive: false })),
    ],
  ];

  it.each(cases)("decodes the SDK's %s", (_name, sdkValue, ours) => {
    expect(decodeCbor(sdkCodec.encode(sdkValue))).toEqual(ours);
  });

  it.each(cases)("the SDK decodes our %s to the same value", (_name, sdkValue, ours) => {
    const back = sdkCodec.decode(encodeCbor(ours));
    expect(sdk.equals(back, sdkValue) || String(back) === String(sdkValue)).toBe(true);
    if (sdkValue !== undefined && sdkValue !== null && typeof sdkValue === "object") expect(back?.constructor).toBe((sdkValue as object).constructor);
  });

  it("the SDK reads our bytes as Uint8Array-compatible bytes and our zero duration", () => {
    const back = sdkCodec.decode(encodeCbor(new Duration(0n))) as sdk.Duration;
    expect(back).toBeInstanceOf(sdk.Duration);
    expect(back.toString()).toBe(new sdk.Duration("0ns").toString());
  });

  it("an RPC request as the SDK sends it", () => {
    const frame = sdkCodec.encode({ id: "1", method: "select", params: [new sdk.RecordId("a", "b")], session: undefined });
    expect(decodeCbor(frame)).toEqual({ id: "1", method: "select", params: [new RecordId("a", "b")], session: undefined });
  });
});

describe("text-form tags (through the value layer)", () => {
  const text = (tag: string, s: string) => {
    const b = Buffer.from(s);
    return bytes(tag + (b.length < 24 ? (0x60 + b.length).toString(16) : "78" + b.length.toString(16).padStart(2, "0")) + b.toString("hex"));
  };
  it("tag 0 RFC 3339 datetime", () => {
    expect(decodeCbor(text("c0", "2024-01-02T03:04:05.123456789Z"))).toEqual(new Datetime(1704164645123456789n));
  });
  it("tag 13 duration text", () => {
    expect(decodeCbor(text("cd", "1h30m"))).toEqual(new Duration(5400n * 1_000_000_000n));
  });
  it("tag 8 record id text", () => {
    expect(decodeCbor(text("c8", "person:tobie"))).toEqual(new RecordId("person", "tobie"));
    expect(decodeCbor(sdkCodec.encode(new sdk.StringRecordId("person:1")))).toEqual(new RecordId("person", 1n));
  });
  it.each([
    ["c0", "yesterday"],
    ["cd", "1 hour"],
    ["c8", "no colon"],
  ])("rejects tag %s with %j", (tag, s) => {
    expect(() => decodeCbor(text(tag, s))).toThrow(CborError);
  });
});

describe("well-formed CBOR according to an independent decoder (cbor-x)", () => {
  it("reads our tags and minimal integers", async () => {
    const { Decoder, Tag } = await import("cbor-x");
    const d = new Decoder({ mapsAsObjects: true, useRecords: false, int64AsType: "bigint" } as never);
    const v = d.decode(encodeCbor({ a: new RecordId("t", 1n), b: 300n, c: undefined, d: new Table("x") })) as Record<string, InstanceType<typeof Tag>>;
    expect(v.a).toBeInstanceOf(Tag);
    expect([v.a.tag, v.a.value]).toEqual([8, ["t", 1]]);
    expect(v.b).toBe(300);
    expect([v.c.tag, v.c.value]).toEqual([6, null]);
    expect([v.d.tag, v.d.value]).toEqual([7, "x"]);
  });
});

describe("CBOR frames with __proto__ keys", () => {
  it("round-trip __proto__ as an own key at any depth, in a record id's key too, leaving Object.prototype alone", () => {
    const key = JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, Value>;
    const frame = { method: "query", params: ["RETURN $v", { v: { nested: [key], id: new RecordId("t", key) } }] };
    const back = decodeCbor(encodeCbor(frame)) as { params: [string, { v: { nested: Record<string, Value>[]; id: RecordId } }] };
    const { nested, id } = back.params[1].v;
    for (const o of [nested[0]!, id.id as Record<string, Value>]) {
      expect(Object.keys(o)).toEqual(["__proto__"]);
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("values SurrealDB refuses (attack pass 10: frames with unknown tags got no answer)", () => {
  const hex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));
  it.each([
    ["tag 35 (regex) of text", "d82362612b", CBOR_REFUSED.unknownTag],
    ["tag 21065 (I-Regexp)", "d9524962612b", CBOR_REFUSED.unknownTag],
    ["tag 44", "d82c01", CBOR_REFUSED.unknownTag],
    ["tag 57", "d83901", CBOR_REFUSED.unknownTag],
    ["tag 11", "cbf6", CBOR_REFUSED.unknownTag],
    ["tag 15 (a future)", "cf6131", CBOR_REFUSED.unknownTag],
    ["a bound outside a range", "d83201", CBOR_REFUSED.unknownTag],
    ["tag 9 of a number", "c901", CBOR_REFUSED.text],
    ["tag 9 not a uuid", "c96161", CBOR_REFUSED.uuid],
    ["tag 37 of 1 byte", "d8254101", CBOR_REFUSED.uuidBytes],
    ["tag 12 of one number", "cc8101", CBOR_REFUSED.pair],
    // past SurrealDB's datetime range (attack pass 10, H3): +262143-01-01 and -262144-12-31T23:59:59
    ["tag 12 one second past the range", "cc821b000007779a0a6b8000", CBOR_REFUSED.datetime],
    ["tag 12 one second before the range", "cc823b000007948cf2120000", CBOR_REFUSED.datetime],
    ["tag 14 with a negative part", "ce8120", CBOR_REFUSED.integer],
    ["tag 0 not a datetime", "c06161", CBOR_REFUSED.datetime],
    ["tag 8 of a number", "c801", CBOR_REFUSED.recordIdShape],
    ["tag 8 with a float key", "c8826174f93c00", CBOR_REFUSED.recordKey],
    ["tag 8 text without a colon", "c86161", CBOR_REFUSED.recordId],
    ["tag 49 of one item", "d83181f6", CBOR_REFUSED.bounds],
    ["tag 88 of three numbers", "d85883010203", CBOR_REFUSED.point],
    ["tag 89 of numbers", "d8598101", CBOR_REFUSED.points],
  ])("%s: SurrealDB's words, as a refused value (not a parse error)", (_name, h, words) => {
    expect(() => decodeCbor(hex(h))).toThrow(CborValueError);
    expect(() => decodeCbor(hex(h))).toThrow(words);
  });

  it("tag 12 takes the range's last nanosecond (+262142-12-31T23:59:59.999999999Z)", () => {
    expect(decodeCbor(hex("cc821b000007779a0a6b7f1a3b9ac9ff"))).toEqual(new Datetime(8210266876799999999999n));
  });

  it("a range value (tag 49) outside a record id is read in 2.x; 1.x knows no tag 49", () => {
    expect(decodeCbor(hex("d83182d83201f6"))).toEqual(new Range({ value: 1n, inclusive: true }, undefined));
    expect(() => decodeCbor(hex("d83182d83201f6"), { compat: 1 })).toThrow(CBOR_REFUSED.unknownTag);
  });

  it("malformed bytes stay a plain decoding error", () => {
    for (const h of ["8201", "62c328", "ff", "0101"]) {
      expect(() => decodeCbor(hex(h)), h).toThrow(CborError);
      expect(() => decodeCbor(hex(h)), h).not.toThrow(CborValueError);
    }
  });

  it("salvage reads on past refused values (NONE in their place) to find a request's id; undecodable bytes give nothing", () => {
    // { id: 7, method: "query", params: ["RETURN $x", { x: 35("a+"), y: 8(1), z: 49([]) }] }
    const frame = hex("a362696407666d6574686f6465717565727966706172616d73826952455455524e202478a36178d82362612b6179c801617ad83180");
    expect(() => decodeCbor(frame)).toThrow(CborValueError);
    expect(salvageCbor(frame)).toEqual({ id: 7n, method: "query", params: ["RETURN $x", { x: undefined, y: undefined, z: undefined }] });
    // a uuid id survives next to a refused value
    const u = "d825500191e3b26c1a70008000000000000001";
    expect(salvageCbor(hex(`a2626964${u}6178d82c01`))).toEqual({ id: new Uuid("0191e3b2-6c1a-7000-8000-000000000001"), x: undefined });
    expect(salvageCbor(hex("a26269640761"))).toBeUndefined();
  });
});

