import { describe, expect, it } from "vitest";
import type { BasicTypeName, TypeKind } from "../../src/ast/nodes.js";
import { CastError } from "../../src/errors/index.js";
import { CoerceError, cast, coerce, formatKind } from "../../src/value/cast.js";
import { parseDatetime } from "../../src/value/datetime.js";
import { parseDuration } from "../../src/value/duration.js";
import { toSql } from "../../src/value/display.js";
import { Decimal, Geometry, RecordId, Uuid, type Value } from "../../src/value/types.js";

const T = (name: BasicTypeName): TypeKind => ({ kind: "Basic", name });
const opt = (inner: TypeKind): TypeKind => ({ kind: "Option", inner });
const arr = (inner?: TypeKind, max?: number): TypeKind => ({ kind: "Array", inner, max });
const set = (inner?: TypeKind, max?: number): TypeKind => ({ kind: "Set", inner, max });
const rec = (...tables: string[]): TypeKind => ({ kind: "Record", tables });
const either = (...types: TypeKind[]): TypeKind => ({ kind: "Either", types });
const v1 = { compat: 1 as const };
const d2 = () => new Decimal("2");

function castErr(v: Value, t: TypeKind, opts?: { compat?: 1 | 2 }): string {
  try {
    cast(v, t, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(CastError);
    return (e as Error).message;
  }
  throw new Error("cast succeeded");
}

describe("formatKind", () => {
  it("prints types as SurrealDB does", () => {
    expect(formatKind(opt(rec("user", "post")))).toBe("option<record<user | post>>");
    expect(formatKind(set(T("int"), 2))).toBe("set<int, 2>");
    expect(formatKind(arr())).toBe("array");
    expect(formatKind(rec())).toBe("record");
    expect(formatKind(arr(opt(T("int"))))).toBe("array<option<int>>");
    expect(formatKind(opt(either(T("int"), T("string"))))).toBe("option<int | string>");
    expect(formatKind({ kind: "Geometry", types: ["point", "polygon"] })).toBe("geometry<point | polygon>");
    expect(formatKind(either({ kind: "Literal", value: { kind: "Literal", value: "a" } }, { kind: "Literal", value: { kind: "Literal", value: 2.5 } }))).toBe("'a' | 2.5f");
  });
});

// `RETURN <type> value` on SurrealDB 1.5.4 and 2.6.0 (same in both unless noted).
describe("cast", () => {
  const ok: [string, Value, TypeKind, string][] = [
    ['<int>"12"', "12", T("int"), "12"],
    ['<int>"-5"', "-5", T("int"), "-5"],
    ['<int>"+5"', "+5", T("int"), "5"],
    ["<int>1.0", 1.0, T("int"), "1"],
    ["<int>1.0dec", new Decimal("1.0"), T("int"), "1"],
    ["<int>1e30", 1e30, T("int"), "9223372036854775807"],
    ['<float>"1.5"', "1.5", T("float"), "1.5f"],
    ["<float>1", 1n, T("float"), "1f"],
    ['<float>"1e3"', "1e3", T("float"), "1000f"],
    ['<float>".5"', ".5", T("float"), "0.5f"],
    ['<float>"inf"', "inf", T("float"), "math::inf"],
    ['<float>"NaN"', "NaN", T("float"), "NaN"],
    ["<float>1dec", new Decimal("1"), T("float"), "1f"],
    ['<decimal>"1.50"', "1.50", T("decimal"), "1.50dec"],
    ["<decimal>1.5", 1.5, T("decimal"), "1.5dec"],
    ['<decimal>".5"', ".5", T("decimal"), "0.5dec"],
    ['<decimal>"+1.5"', "+1.5", T("decimal"), "1.5dec"],
    ['<number>"12"', "12", T("number"), "12"],
    ['<number>"1e3"', "1e3", T("number"), "1000f"],
    ['<int>"007"', "007", T("int"), "7"],
    ['<float>"1."', "1.", T("float"), "1f"],
    ['<float>"-inf"', "-inf", T("float"), "-math::inf"],
    ['<decimal>"1_000"', "1_000", T("decimal"), "1000dec"],
    ["<array<int>>[1.0, 2dec]", [1.0, d2()], arr(T("int")), "[1, 2]"],
    ["<set<string>>['a', 'a', 1]", ["a", "a", 1n], set(T("string")), "['a', '1']"],
    ["<string>true", true, T("string"), "'true'"],
    ["<string>(1, 2)", new Geometry("Point", [1, 2]), T("string"), "'(1, 2)'"],
    ['<number>"1.5"', "1.5", T("number"), "1.5f"],
    ['<number>"99999999999999999999"', "99999999999999999999", T("number"), "100000000000000000000f"],
    ['<bool>"true"', "true", T("bool"), "true"],
    ['<bool>"false"', "false", T("bool"), "false"],
    ["<string>1", 1n, T("string"), "'1'"],
    ["<string>1.5", 1.5, T("string"), "'1.5f'"],
    ["<string>user:1", new RecordId("user", 1n), T("string"), "'user:1'"],
    ["<string>{a: 'x'}", { a: "x" }, T("string"), `"{ a: 'x' }"`],
    ["<string>[1, 'a']", [1n, "a"], T("string"), `"[1, 'a']"`],
    ["<string>1s", parseDuration("1s"), T("string"), "'1s'"],
    ['<record<user>>"user:1"', "user:1", rec("user"), "user:1"],
    ['<record>"user:1"', "user:1", rec(), "user:1"],
    ['<record<user>>"user:⟨a-b⟩"', "user:⟨a-b⟩", rec("user"), "user:`a-b`"],
    ['<record<user|post>>"post:1"', "post:1", rec("user", "post"), "post:1"],
    ['<array<int>>["1", "2"]', ["1", "2"], arr(T("int")), "[1, 2]"],
    ["<array<string>>[1, 2]", [1n, 2n], arr(T("string")), "['1', '2']"],
    ["<set<int>>[1, 1, 2]", [1n, 1n, 2n], set(T("int")), "[1, 2]"],
    ["<set>[2, 1, 1]", [2n, 1n, 1n], set(), "[2, 1]"],
    ["<option<int>>NONE", undefined, opt(T("int")), "NONE"],
    ['<option<int>>"5"', "5", opt(T("int")), "5"],
    ['<int|string>"5"', "5", either(T("int"), T("string")), "5"],
    ['<string|int>"5"', "5", either(T("string"), T("int")), "'5'"],
    ["<int|string>[1]", [1n], either(T("int"), T("string")), "'[1]'"],
    ['<uuid>"018f…"', "018f5b5c-8a3a-7b3c-9d1e-123456789abc", T("uuid"), "u'018f5b5c-8a3a-7b3c-9d1e-123456789abc'"],
    ["<object>{a:1}", { a: 1n }, T("object"), "{ a: 1 }"],
    ['<bytes>"x"', "x", T("bytes"), 'encoding::base64::decode("eA")'],
    ["<null>NULL", null, T("null"), "NULL"],
    ['<any>"x"', "x", T("any"), "'x'"],
    ['<uuid>"018f…" (simple)', "018F5B5C8A3A7B3C9D1E123456789ABC", T("uuid"), "u'018f5b5c-8a3a-7b3c-9d1e-123456789abc'"],
    ['<uuid>"{…}"', "{018f5b5c-8a3a-7b3c-9d1e-123456789abc}", T("uuid"), "u'018f5b5c-8a3a-7b3c-9d1e-123456789abc'"],
    ['<uuid>"urn:uuid:…"', "urn:uuid:018f5b5c-8a3a-7b3c-9d1e-123456789abc", T("uuid"), "u'018f5b5c-8a3a-7b3c-9d1e-123456789abc'"],
    ['<record>"user:99999999999999999999"', "user:99999999999999999999", rec(), "user:`99999999999999999999`"],
    ['<record>"user:1abc"', "user:1abc", rec(), "user:1abc"],
    ['<record>"user:`a b`"', "user:`a b`", rec(), "user:`a b`"],
    ["<point>[1, 2]", [1n, 2n], T("point"), "(1, 2)"],
    ['<datetime>"2024-01-01"', "2024-01-01", T("datetime"), "d'2024-01-01T00:00:00Z'"],
    ['<duration>"1y2w"', "1y2w", T("duration"), "1y2w"],
  ];
  for (const [name, v, t, out] of ok) it(name, () => expect(toSql(cast(v, t))).toBe(out));

  const bad: [string, Value, TypeKind, string][] = [
    ['<int>"abc"', "abc", T("int"), "Expected a int but cannot convert 'abc' into a int"],
    ['<int>" 12 "', " 12 ", T("int"), "Expected a int but cannot convert ' 12 ' into a int"],
    ['<int>"1.5"', "1.5", T("int"), "Expected a int but cannot convert '1.5' into a int"],
    ["<int>1.5", 1.5, T("int"), "Expected a int but cannot convert 1.5f into a int"],
    ["<int>1.7dec", new Decimal("1.7"), T("int"), "Expected a int but cannot convert 1.7dec into a int"],
    ['<int>"1e3"', "1e3", T("int"), "Expected a int but cannot convert '1e3' into a int"],
    ['<int>"1_000"', "1_000", T("int"), "Expected a int but cannot convert '1_000' into a int"],
    ['<int>"9223372036854775808"', "9223372036854775808", T("int"), "Expected a int but cannot convert '9223372036854775808' into a int"],
    ["<int>true", true, T("int"), "Expected a int but cannot convert true into a int"],
    ["<int>NONE", undefined, T("int"), "Expected a int but cannot convert NONE into a int"],
    ["<int>NULL", null, T("int"), "Expected a int but cannot convert NULL into a int"],
    ["<int>[1]", [1n], T("int"), "Expected a int but cannot convert [1] into a int"],
    ['<float>" 1.5"', " 1.5", T("float"), "Expected a float but cannot convert ' 1.5' into a float"],
    ['<decimal>"1e3"', "1e3", T("decimal"), "Expected a decimal but cannot convert '1e3' into a decimal"],
    ["<decimal>NONE", undefined, T("decimal"), "Expected a decimal but cannot convert NONE into a decimal"],
    ['<number>"1.5dec"', "1.5dec", T("number"), "Expected a number but cannot convert '1.5dec' into a number"],
    ['<bool>"TRUE"', "TRUE", T("bool"), "Expected a bool but cannot convert 'TRUE' into a bool"],
    ["<bool>1", 1n, T("bool"), "Expected a bool but cannot convert 1 into a bool"],
    ["<string>NONE", undefined, T("string"), "Expected a string but cannot convert NONE into a string"],
    ["<string>NULL", null, T("string"), "Expected a string but cannot convert NULL into a string"],
    ['<record<user>>"nope"', "nope", rec("user"), "Expected a record<user> but cannot convert 'nope' into a record<user>"],
    ["<record<post>>user:1", new RecordId("user", 1n), rec("post"), "Expected a record<post> but cannot convert user:1 into a record<post>"],
    ['<array<int>>[1, "x"]', [1n, "x"], arr(T("int")), "Expected a array<int> but cannot convert 'x' into a array<int>"],
    ['<array<int>>"x"', "x", arr(T("int")), "Expected a array<int> but cannot convert 'x' into a array<int>"],
    ["<array<int, 1>>[1, 2]", [1n, 2n], arr(T("int"), 1), "Expected a array<int, 1> but the array had 2 items"],
    ["<set<int, 1>>[1, 2]", [1n, 2n], set(T("int"), 1), "Expected a set<int, 1> but the array had 2 items"],
    ["<option<int>>NULL", null, opt(T("int")), "Expected a option<int> but cannot convert NULL into a option<int>"],
    ["<option<array<int>>>[1, 'x']", [1n, "x"], opt(arr(T("int"))), "Expected a option<array<int>> but cannot convert 'x' into a option<array<int>>"],
    ['<int|bool>"x"', "x", either(T("int"), T("bool")), "Expected a int | bool but cannot convert 'x' into a int | bool"],
    ['<record>"user:1.5"', "user:1.5", rec(), "Expected a record but cannot convert 'user:1.5' into a record"],
    ['<record>"user:a-b"', "user:a-b", rec(), "Expected a record but cannot convert 'user:a-b' into a record"],
    ['<record>"123:1"', "123:1", rec(), "Expected a record but cannot convert '123:1' into a record"],
    ['<uuid>"nope"', "nope", T("uuid"), "Expected a uuid but cannot convert 'nope' into a uuid"],
    ['<object>"x"', "x", T("object"), "Expected a object but cannot convert 'x' into a object"],
    ["<duration>1", 1n, T("duration"), "Expected a duration but cannot convert 1 into a duration"],
    ['<duration>"1.5h"', "1.5h", T("duration"), "Expected a duration but cannot convert '1.5h' into a duration"],
    ["<datetime>1s", parseDuration("1s"), T("datetime"), "Expected a datetime but cannot convert 1s into a datetime"],
    ["<datetime>1700000000.5", 1700000000.5, T("datetime"), "Expected a datetime but cannot convert 1700000000.5f into a datetime"],
    ['<datetime>"nope"', "nope", T("datetime"), "Expected a datetime but cannot convert 'nope' into a datetime"],
    ["<bytes>[1, 2]", [1n, 2n], T("bytes"), "Expected a bytes but cannot convert [1, 2] into a bytes"],
    ['<string><bytes>"abc"', new Uint8Array(Buffer.from("abc")), T("string"), 'Expected a string but cannot convert encoding::base64::decode("YWJj") into a string'],
    ['<array><bytes>"ab"', new Uint8Array(Buffer.from("ab")), arr(), 'Expected a array but cannot convert encoding::base64::decode("YWI") into a array'],
    ["<int>1.5dec", new Decimal("1.5"), T("int"), "Expected a int but cannot convert 1.5dec into a int"],
    ['<float>"0x10"', "0x10", T("float"), "Expected a float but cannot convert '0x10' into a float"],
    ["<option<string>>NULL", null, opt(T("string")), "Expected a option<string> but cannot convert NULL into a option<string>"],
    ["<int>d'2024-01-01'", parseDatetime("2024-01-01"), T("int"), "Expected a int but cannot convert d'2024-01-01T00:00:00Z' into a int"],
    ["<null>1", 1n, T("null"), "Expected a null but cannot convert 1 into a null"],
  ];
  for (const [name, v, t, msg] of bad) it(`${name} fails`, () => expect(castErr(v, t)).toBe(msg));

  it("a record of the wrong table: 2.x shows the string, 1.x the parsed id", () => {
    expect(castErr("user:1", rec("post"))).toBe("Expected a record<post> but cannot convert 'user:1' into a record<post>");
    expect(castErr("user:1", rec("post"), v1)).toBe("Expected a record<post> but cannot convert user:1 into a record<post>");
  });
});

// `DEFINE FIELD … TYPE …` then CREATE, on SurrealDB 1.5.4 and 2.6.0.
describe("coerce", () => {
  function fieldErr(v: Value, t: TypeKind, field: string, record: string, opts?: { compat?: 1 | 2 }): string {
    try {
      coerce(v, t, opts);
    } catch (e) {
      expect(e).toBeInstanceOf(CoerceError);
      return (e as CoerceError).fieldMessage(field, record, opts);
    }
    throw new Error("coerce succeeded");
  }
  it("accepts lossless conversions", () => {
    expect(coerce(1.0, T("int"))).toBe(1n);
    expect(coerce(new Decimal("1"), T("int"))).toBe(1n);
    expect(coerce(1n, opt(T("float")))).toBe(1);
    expect(coerce(new Decimal("1"), opt(T("float")))).toBe(1);
    expect(coerce(1n, opt(T("decimal")))).toEqual(new Decimal("1"));
    expect(coerce(new Decimal("1.5"), opt(T("number")))).toEqual(new Decimal("1.5"));
    expect(coerce(undefined, opt(T("string")))).toBeUndefined();
    expect(coerce([1n, 1n, 2n], opt(set(T("int"))))).toEqual([1n, 2n]);
    expect(coerce([3n, 1n, 3n], opt(set(T("int"))))).toEqual([3n, 1n]);
    expect(coerce("x", opt(either(T("int"), T("string"))))).toBe("x");
    expect(coerce(new RecordId("post", 1n), opt(rec("post")))).toEqual(new RecordId("post", 1n));
  });
  it("field messages", () => {
    expect(fieldErr("x", T("int"), "age", "user:1")).toBe("Found 'x' for field `age`, with record `user:1`, but expected a int");
    expect(fieldErr("5", T("int"), "age", "user:2")).toBe("Found '5' for field `age`, with record `user:2`, but expected a int");
    expect(fieldErr(1.5, T("int"), "age", "user:4")).toBe("Found 1.5f for field `age`, with record `user:4`, but expected a int");
    expect(fieldErr(undefined, T("int"), "age", "user:5")).toBe("Found NONE for field `age`, with record `user:5`, but expected a int");
    expect(fieldErr(null, T("int"), "age", "user:6")).toBe("Found NULL for field `age`, with record `user:6`, but expected a int");
    expect(fieldErr("x", opt(T("float")), "f", "user:8")).toBe("Found 'x' for field `f`, with record `user:8`, but expected a option<float>");
    expect(fieldErr(new RecordId("user", 1n), opt(rec("post")), "r", "user:9")).toBe(
      "Found user:1 for field `r`, with record `user:9`, but expected a option<record<post>>",
    );
    expect(fieldErr([1n, 2n, 3n], opt(arr(T("int"), 2)), "a", "user:11")).toBe("Expected a array<int, 2> but the array had 3 items");
    expect(fieldErr([1n, "x"], opt(arr(T("int"), 2)), "a", "user:12")).toBe(
      "Found 'x' for field `a`, with record `user:12`, but expected a option<array<int, 2>>",
    );
    expect(fieldErr(true, opt(either(T("int"), T("string"))), "e", "user:14")).toBe(
      "Found true for field `e`, with record `user:14`, but expected a option<int | string>",
    );
    expect(fieldErr("1", opt(T("number")), "n", "user:16")).toBe("Found '1' for field `n`, with record `user:16`, but expected a option<number>");
    expect(fieldErr(1n, opt(T("string")), "st", "user:17")).toBe("Found 1 for field `st`, with record `user:17`, but expected a option<string>");
    expect(fieldErr("true", opt(T("bool")), "b", "user:20")).toBe("Found 'true' for field `b`, with record `user:20`, but expected a option<bool>");
    expect(fieldErr(null, opt(T("string")), "st", "user:25")).toBe("Found NULL for field `st`, with record `user:25`, but expected a option<string>");
  });
  it("1.x still turns strings into record ids, datetimes and uuids", () => {
    const u = "018f5b5c-8a3a-7b3c-9d1e-123456789abc";
    expect(coerce(u, opt(T("uuid")), v1)).toEqual(new Uuid(u));
    expect(fieldErr(u, opt(T("uuid")), "u", "t:1")).toBe(`Found '${u}' for field \`u\`, with record \`t:1\`, but expected a option<uuid>`);
    expect(coerce(["user:1"], opt(arr(rec("user"))), v1)).toEqual([new RecordId("user", 1n)]);
    expect(fieldErr(["user:1"], opt(arr(rec("user"))), "ar", "t:3")).toBe("Found 'user:1' for field `ar`, with record `t:3`, but expected a option<array<record<user>>>");
    expect(coerce("user:1", opt(either(rec("user"), T("string"))), v1)).toEqual(new RecordId("user", 1n));
    expect(coerce("user:1", opt(either(rec("user"), T("string"))))).toBe("user:1");
    expect(fieldErr("1h", opt(T("duration")), "du", "t:2", v1)).toBe("Found '1h' for field `du`, with record `t:2`, but expected a option<duration>");
    expect(fieldErr([new RecordId("user", 1n), new RecordId("post", 1n)], opt(arr(rec("user"))), "ar", "t:8", v1)).toBe(
      "Found post:1 for field `ar`, with record `t:8`, but expected a option<array<record<user>>>",
    );
    expect(coerce(null, opt(T("null")))).toBe(null);
    expect(coerce("post:1", opt(rec("post")), v1)).toEqual(new RecordId("post", 1n));
    expect(coerce("2024-01-01T00:00:00Z", opt(T("datetime")), v1)).toEqual(parseDatetime("2024-01-01"));
    expect(fieldErr("post:1", opt(rec("post")), "r", "user:10")).toBe(
      "Found 'post:1' for field `r`, with record `user:10`, but expected a option<record<post>>",
    );
    expect(fieldErr("2024-01-01T00:00:00Z", opt(T("datetime")), "d", "user:18")).toBe(
      "Found '2024-01-01T00:00:00Z' for field `d`, with record `user:18`, but expected a option<datetime>",
    );
  });
  it("typed parameters: the plain message", () => {
    expect(() => coerce("x", T("int"))).toThrow("Expected a int but found 'x'");
    expect(() => coerce([1n], T("int"))).toThrow("Expected a int but found [1]");
  });
  it("geometry kinds and uuids", () => {
    expect(coerce(new Geometry("Point", [1, 2]), { kind: "Geometry", types: ["point"] })).toBeInstanceOf(Geometry);
    expect(() => coerce(new Geometry("Point", [1, 2]), { kind: "Geometry", types: ["polygon"] })).toThrow(CoerceError);
    expect(() => coerce("018f5b5c-8a3a-7b3c-9d1e-123456789abc", T("uuid"))).toThrow(CoerceError);
    expect(coerce(new Uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"), T("uuid"))).toBeInstanceOf(Uuid);
  });
});
