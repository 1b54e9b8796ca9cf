// JSON codec: SurrealDB number kinds on input, serde_json-like output, legacy string coercion never failing.

import { describe, expect, it } from "vitest";
import { JsonError, coerceLegacyStrings, decodeJsonRpc, parseJsonText, stringifyJson } from "../../../src/server/codec/json.js";
import { Closure, type Value } from "../../../src/value/types.js";

describe("parseJsonText", () => {
  it("reads integers as bigint and fractions or exponents as float", () => {
    expect(parseJsonText("[1, -2, 1.0, 1e3, 0.5]")).toEqual([1n, -2n, 1, 1000, 0.5]);
  });

  it("reads integers beyond i64 as float", () => {
    expect(parseJsonText("99999999999999999999")).toBe(1e20);
  });

  it("reads strings with every escape", () => {
    expect(parseJsonText(String.raw`"a\"b\\c\/d\b\f\n\r\t\u00e9"`)).toBe('a"b\\c/d\b\f\n\r\té');
  });

  it("keeps __proto__ as an own key", () => {
    const v = parseJsonText('{"__proto__": {"x": 1}}') as Record<string, Value>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it.each(["", "{", "[1,]", '{"a" 1}', "01", "nul", '"\\x"', '"a\nb"', "1 2", "{'a': 1}", "NaN"])("rejects %j", (text) => {
    expect(() => parseJsonText(text)).toThrow(JsonError);
  });

  it("rejects nesting beyond the depth limit", () => {
    expect(() => parseJsonText("[".repeat(10_000) + "]".repeat(10_000))).toThrow(JsonError);
  });

  it("reads integers at every length the fast path and the exact path meet", () => {
    const texts = ["0", "-0", "7", "-7", "999999999999999", "9007199254740993", "-123456789012345678", "9223372036854775807", "-9223372036854775808"];
    expect(parseJsonText(`[${texts.join(",")}]`)).toEqual(texts.map((t) => BigInt(t)));
    expect(parseJsonText("[9223372036854775808, 1.5, 12e1, 0.0]")).toEqual([9223372036854775808, 1.5, 120, 0]);
    expect(() => parseJsonText("[00]")).toThrow(JsonError);
    expect(() => parseJsonText("-")).toThrow(JsonError);
  });

  it("counts values and object keys against maxValues before building more", () => {
    // [ {a: 1}, 2 ]: the array, the object, its key, 1 and 2
    expect(parseJsonText('[{"a":1},2]', { maxValues: 5 })).toEqual([{ a: 1n }, 2n]);
    expect(() => parseJsonText('[{"a":1},2]', { maxValues: 4 })).toThrow("Too many values in one message");
    expect(() => parseJsonText(`[${"1,".repeat(300_000)}1]`)).toThrow("Too many values in one message");
  });
});

describe("stringifyJson", () => {
  it("writes ints exactly, floats with a fraction, NONE and NULL as null, keys sorted", () => {
    expect(stringifyJson({ b: 9007199254740993n, a: 1, c: undefined, d: null, e: 0.25, f: [true, "x"] })).toBe(
      '{"a":1.0,"b":9007199254740993,"c":null,"d":null,"e":0.25,"f":[true,"x"]}',
    );
  });

  it("keeps the sign of negative zero", () => {
    expect(stringifyJson(-0)).toBe("-0.0");
    expect(Object.is(parseJsonText(stringifyJson(-0)), -0)).toBe(true);
  });

  it("writes bytes as an array and non-finite floats as null", () => {
    expect(stringifyJson([new Uint8Array([1, 2]), NaN, Infinity])).toBe("[[1,2],null,null]");
  });
});

describe("coerceLegacyStrings", () => {
  it("leaves ordinary strings and object keys alone", () => {
    expect(coerceLegacyStrings({ "a:b": ["hello", "no colon here"] })).toEqual({ "a:b": ["hello", "no colon here"] });
  });
});

describe("legacy string coercion (value layer's legacyStrand)", () => {
  it("turns record ids, datetimes and uuids into typed values", async () => {
    const { RecordId, Uuid, Datetime } = await import("../../../src/value/types.js");
    const v = coerceLegacyStrings(["person:1", "2024-01-02T03:04:05Z", "0191e3b2-6c1a-7000-8000-000000000001"]) as Value[];
    expect(v[0]).toEqual(new RecordId("person", 1n));
    expect(v[1]).toBeInstanceOf(Datetime);
    expect(v[2]).toEqual(new Uuid("0191e3b2-6c1a-7000-8000-000000000001"));
  });

  it("writes typed leaves through toJson", async () => {
    const { RecordId, Duration } = await import("../../../src/value/types.js");
    expect(stringifyJson({ a: new RecordId("person", 1n), d: new Duration(5400n * 1_000_000_000n) })).toBe('{"a":"person:1","d":"1h30m"}');
  });
});

describe("RPC frames with __proto__ keys", () => {
  it("decode __proto__ as an own key at any depth, leaving Object.prototype alone", () => {
    const frame = '{"id": 1, "method": "query", "params": ["RETURN $v", {"v": {"__proto__": {"polluted": 1}, "a": [{"__proto__": 2}]}}]}';
    const v = decodeJsonRpc(frame) as { params: [string, { v: Record<string, Value> }] };
    const inner = v.params[1].v;
    expect(Object.keys(inner).sort()).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.keys((inner.a as Record<string, Value>[])[0]!)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("stringifyJson of a closure", () => {
  it("prints its SurrealQL text, never the engine's insides (attack pass 9, G3)", () => {
    const f = new (class extends Closure {
      get text(): string {
        return "|$x: any| 1";
      }
    })();
    expect(stringifyJson({ f, l: [f] } as Value)).toBe('{"f":"|$x: any| 1","l":["|$x: any| 1"]}');
  });
});
