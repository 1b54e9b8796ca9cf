import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBuiltin } from "../../../src/exec/functions/index.js";
import { Datetime, Table, Uuid, type Value } from "../../../src/value/types.js";
import { call, errorOf } from "./helpers.js";

// Expected values copied from SurrealDB 1.5.4 and 2.6.0 (identical unless noted).
const EMAIL: [string, boolean][] = [
  ["a@b.c", true], ["a@b", true], ["a.b@c.d", true], ["a..b@c.d", false], [".a@c.d", false], ["a.@c.d", false],
  ["a+b@c.d", true], ["user@[127.0.0.1]", true], ['"a b"@c.d', true], ["a b@c.d", false], ["@c.d", false], ["a@", false],
  ["a@-b.c", false], ["a@b-.c", false], ["a@b_c.d", false], ["a@b..c", false], ["üser@b.c", true], ["a@bü.c", true],
  ["a@localhost", true], ["a!#$%&'*+/=?^_`{|}~-@b.c", true], ["a@b.c ", false], [" a@b.c", false], ["A@B.COM", true],
  ["a@b.c.", true], ["a@1.2.3.4", false], ["a@b.123", false], ["", false], ["a".repeat(67) + "@b.c", false],
  ["a@" + "a".repeat(73) + ".c", false], ["a@b@c.d", false], ["a(comment)@b.c", false], ["a\\b@c.d", false],
  ["a@[IPv6:::1]", false], ["a@b.c\n", false], ["(a@b.c", true], ["\\a@b.c", true], ["a@b.nan", false], ["a@b.NaN", false],
  ["a@b.inf", false], ["a@b.1e5", false], ["a@b.e5", true], ["a@1.b", true], ["a@b.1a", true], ["a@b.+1", false],
  ["a".repeat(65) + "@b.c", true], ["a".repeat(66) + "@b.c", false], ["a@" + "b".repeat(63) + ".c", true],
  ["a@" + "b".repeat(64) + ".c", false], ["a@" + Array(4).fill("b".repeat(60)).join(".") + ".com", true], ["a@b.c-", false],
  ["a@ü-.c", false], ["a@b.c..", false], ['""@b.c', false], ['"a"@b.c', true], ['"a@b"@b.c', true], ['"a"b"@b.c', true],
  ['"ab@b.c', false], ["a@[::1]", true], ["a@[1.2.3.4]", true], ["a@[01.2.3.4]", false], ["a@[::1%eth0]", false],
  ["a@[1.2.3]", false], ["a@[]", false], ["a@[a]", false], ["a@b.c\t", false], ["a\u3000b@c.d", true], ["a@b\u3000c.d", true],
  ["-a@b.c", true], ["a-@b.c", true], ["a@1", false], ["a@B-C.d", true], ["a@xn--p1ai", true], ["a@.b", false], ["a@b.-c", false],
  ["a@@b.c", false], ["ab.@b.c", false], ["a.b.@c.d", false], ["'@b.c", true], ["a.b@c", true], ["a@_b.c", false], ["a@b.c_", false],
];

describe("string::is::email (oracle, both versions)", () => {
  it.each(EMAIL)("%j → %s", async (text, expected) => {
    expect(await call("string::is::email", [text], 2)).toBe(expected);
    expect(await call("string::is::email", [text], 1)).toBe(expected);
  });
  it("agrees with SurrealDB on 579 generated strings (fixtures/emails.json, same answer in 1.5.4 and 2.6.0)", async () => {
    const rows: [string, boolean][] = JSON.parse(readFileSync(new URL("./fixtures/emails.json", import.meta.url), "utf8"));
    const wrong = [];
    for (const [text, expected] of rows) if ((await call("string::is::email", [text])) !== expected) wrong.push(text);
    expect(wrong).toEqual([]);
  });
  it("never throws on random strings", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.emailAddress()), async (s) => {
        expect(typeof (await call("string::is::email", [s]))).toBe("boolean");
      }),
    );
  });
  it("accepts generated RFC addresses the way addr does for simple ones", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[a-z0-9]{1,20}@[a-z]{1,10}\.[a-z]{2,5}$/), async (s) => {
        expect(await call("string::is::email", [s])).toBe(true);
      }),
    );
  });
});

const TABLE: [string, Value[], Value][] = [
  ["string::is::alphanum", [""], true],
  ["string::is::alpha", [""], true],
  ["string::is::ascii", [""], true],
  ["string::is::numeric", [""], true],
  ["string::is::hexadecimal", [""], true],
  ["string::is::alphanum", ["ab1é²"], true],
  ["string::is::numeric", ["12½"], true],
  ["string::is::alpha", ["abc1"], false],
  ["string::is::uuid", ["0190d8d4-2d4f-7a5c-b000-000000000000"], true],
  ["string::is::uuid", ["0190d8d42d4f7a5cb000000000000000"], true],
  ["string::is::uuid", ["{0190d8d4-2d4f-7a5c-b000-000000000000}"], true],
  ["string::is::uuid", ["urn:uuid:0190d8d4-2d4f-7a5c-b000-000000000000"], true],
  ["string::is::uuid", ["0190D8D4-2D4F-7A5C-B000-000000000000"], true],
  ["string::is::url", ["http://a"], true],
  ["string::is::url", ["/x"], false],
  ["string::is::url", ["http://"], false],
  ["string::is::domain", ["a.b"], true],
  ["string::is::domain", ["localhost"], true],
  ["string::is::domain", ["a.1"], false],
  ["string::is::domain", ["a.b."], true],
  ["string::is::domain", ["-a.b"], false],
  ["string::is::datetime", ["2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S"], true],
  ["string::is::datetime", ["x", "%Y"], false],
  ["string::is::semver", ["1.2.3-alpha.1+build.01"], true],
  ["string::is::semver", ["01.2.3"], false],
  ["string::is::semver", ["1.2"], false],
  ["string::is::semver", ["v1.2.3"], false],
  ["string::is::latitude", ["45.5"], true],
  ["string::concat", ["a", 1n, 1.5, 2, true, undefined, null, [1n, "b"], { a: 1n }], "a11.5f2ftrueNONENULL[1, 'b']{ a: 1 }"],
  ["string::concat", [1, 1e10, 0.1, -0, 1e-7, 123456789012345678901], "1f10000000000f0.1f-0f0.0000001f123456789012345680000f"],
  ["string::concat", [], ""],
  ["string::join", [", ", "a", 1n, [2n]], "a, 1, [2]"],
  ["string::join", [","], ""],
  ["string::len", ["héllo😀"], 6n],
  ["string::len", [new Uuid("0190d8d4-2d4f-7a5c-b000-000000000000")], 36n],
  ["string::len", [new Datetime(1704067200000000000n)], 20n],
  ["string::repeat", ["ab", 3n], "ababab"],
  ["string::repeat", ["ab", 2], "abab"],
  ["string::replace", ["aaa", "a", "bb"], "bbbbbb"],
  ["string::reverse", ["abc😀"], "😀cba"],
  ["string::slice", ["abc", 1n], "bc"],
  ["string::slice", ["abcdefg", 2n, 3n], "cde"],
  ["string::slice", ["abcdefg", -4n, -1n], "def"],
  ["string::slice", ["abcdefg", -10n, 2n], "ab"],
  ["string::slice", ["abcdefg", 2n, -10n], ""],
  ["string::slice", ["abcdefg", 10n], ""],
  ["string::slice", ["abcdefg"], "abcdefg"],
  ["string::slice", ["你好世界", -2n, 1n], "世"],
  ["string::slug", ["a--b"], "a-b"],
  ["string::slug", ["-a-"], "a"],
  ["string::slug", ["a_b c.d"], "a_b-c-d"],
  ["string::slug", ["A1 b2"], "a1-b2"],
  ["string::slug", ["ÆØ ß"], "aeo-ss"],
  ["string::slug", ["a'b"], "a-b"],
  ["string::slug", [""], ""],
  ["string::slug", ["日本"], "riben"],
  ["string::slug", ["Hello World! Ünïcode ünd 😀 -- test__x"], "hello-world-unicode-und-grinning-test__x"],
  ["string::slug", ["  a  "], "a"],
  ["string::split", ["a,b,,c", ","], ["a", "b", "", "c"]],
  ["string::split", ["abc", ""], ["", "a", "b", "c", ""]],
  ["string::trim", ["  a b \n"], "a b"],
  ["string::words", [" a  b\tc\n"], ["a", "b", "c"]],
  ["string::uppercase", ["straße"], "STRASSE"],
  ["string::lowercase", ["ÀB"], "àb"],
  ["string::contains", ["abc", ""], true],
];

describe("string:: (oracle, both versions)", () => {
  it.each(TABLE)("%s #%#", async (name, args, expected) => {
    expect(await call(name, args, 2)).toEqual(expected);
    expect(await call(name, args, 1)).toEqual(expected);
  });
});

describe("string:: version differences (oracle)", () => {
  it("starts_with / ends_with only in v2; startsWith / endsWith in v1", async () => {
    expect(await call("string::starts_with", ["abc", "ab"], 2)).toBe(true);
    expect(await call("string::ends_with", ["abc", "bc"], 2)).toBe(true);
    expect(isBuiltin("string::starts_with", 1)).toBe(false);
    expect(await call("string::startsWith", ["abc", "ab"], 1)).toBe(true);
    expect(await call("string::endsWith", ["abc", "bc"], 1)).toBe(true);
  });
  it("string::html::encode / sanitize only in v2 (1.5.4: 'Path is not a member of string')", () => {
    expect(isBuiltin("string::html::encode", 2) && isBuiltin("string::html::sanitize", 2)).toBe(true);
    expect(isBuiltin("string::html::encode", 1) || isBuiltin("string::html::sanitize", 1)).toBe(false);
  });
  it("v2-only validators", async () => {
    expect(await call("string::is::ip", ["127.0.0.1"])).toBe(true);
    expect(await call("string::is::ipv4", ["01.0.0.1"])).toBe(false);
    expect(await call("string::is::ipv6", ["::ffff:1.2.3.4"])).toBe(true);
    expect(await call("string::is::ipv6", ["fe80::1%eth0"])).toBe(false);
    expect(await call("string::is::ulid", ["01ARZ3NDEKTSV4RRFFQ69G5FAV"])).toBe(true);
    expect(await call("string::is::url", ["a:b"])).toBe(true);
    for (const n of ["string::is::ip", "string::is::ipv4", "string::is::ipv6", "string::is::record", "string::is::ulid"]) {
      expect(isBuiltin(n, 1)).toBe(false);
    }
  });
  it("string::is::record (v2)", async () => {
    expect(await call("string::is::record", ["user:1"])).toBe(true);
    expect(await call("string::is::record", ["user:1", "user"])).toBe(true);
    expect(await call("string::is::record", ["user:1", new Table("user")])).toBe(true);
    expect(await call("string::is::record", ["user:1", "post"])).toBe(false);
    expect(await call("string::is::record", ["user"])).toBe(false);
    expect(await call("string::is::record", ["user:⟨a b⟩"])).toBe(true);
    expect(await errorOf("string::is::record", ["user:1", 1n])).toBe(
      "Incorrect arguments for function string::is::record()(). Expected an optional string or table type for the second argument",
    );
  });
  it("string::is::datetime: v2 takes an optional format, v1 requires it", async () => {
    expect(await call("string::is::datetime", ["2024-01-02T03:04:05Z"])).toBe(true);
    expect(await call("string::is::datetime", ["2024-01-02"])).toBe(true);
    expect(await call("string::is::datetime", ["2024-01-02T03:04:05"])).toBe(false);
    expect(await errorOf("string::is::datetime", ["2024-01-02"], 1)).toBe(
      "Incorrect arguments for function string::is::datetime(). Expected 2 arguments.",
    );
  });
});

describe("string:: errors (oracle, both versions)", () => {
  const ERRORS: [string, Value[], string][] = [
    ["string::len", [], "Incorrect arguments for function string::len(). Expected 1 argument."],
    ["string::len", ["a", "b"], "Incorrect arguments for function string::len(). Expected 1 argument."],
    ["string::len", [1n], "Incorrect arguments for function string::len(). Argument 1 was the wrong type. Expected a string but found 1"],
    ["string::len", [undefined], "Incorrect arguments for function string::len(). Argument 1 was the wrong type. Expected a string but found NONE"],
    ["string::len", [null], "Incorrect arguments for function string::len(). Argument 1 was the wrong type. Expected a string but found NULL"],
    ["string::len", [1.5], "Incorrect arguments for function string::len(). Argument 1 was the wrong type. Expected a string but found 1.5f"],
    ["string::len", [[1n]], "Incorrect arguments for function string::len(). Argument 1 was the wrong type. Expected a string but found [1]"],
    ["string::replace", ["a"], "Incorrect arguments for function string::replace(). Expected 3 arguments."],
    ["string::replace", ["aaa", 1n, "bb"], "Incorrect arguments for function string::replace(). Argument 2 was the wrong type. Expected a string but found 1"],
    ["string::repeat", ["a", "b"], "Incorrect arguments for function string::repeat(). Argument 2 was the wrong type. Expected a u64 but found 'b'"],
    ["string::repeat", ["ab", 1.5], "Incorrect arguments for function string::repeat(). Argument 2 was the wrong type. Expected a u64 but found 1.5f"],
    ["string::repeat", ["ab", -1n], "Incorrect arguments for function string::repeat(). Output must not exceed 1048576 bytes."],
    ["string::repeat", ["ab", 10000000n], "Incorrect arguments for function string::repeat(). Output must not exceed 1048576 bytes."],
    ["string::join", [], "Incorrect arguments for function string::join(). Expected at least one argument"],
    ["string::slice", ["abcdefg", undefined, 2n], "Incorrect arguments for function string::slice(). Argument 2 was the wrong type. Expected a i64 but found NONE"],
    ["string::is::email", [1n], "Incorrect arguments for function string::is::email(). Argument 1 was the wrong type. Expected a string but found 1"],
  ];
  it.each(ERRORS)("%s #%#", async (name, args, message) => {
    expect(await errorOf(name, args, 2)).toBe(message);
    expect(await errorOf(name, args, 1)).toBe(message);
  });
});

describe("string:: on generated inputs (fixtures/strings.json: SurrealDB 1.5.4 and 2.6.0 agree on each)", () => {
  const rows: [string, string, unknown][] = JSON.parse(readFileSync(new URL("./fixtures/strings.json", import.meta.url), "utf8"));
  it.each([1, 2] as const)("compat %s", async (compat) => {
    const wrong: unknown[] = [];
    for (const [name, text, json] of rows) {
      const expected = typeof json === "number" ? BigInt(json) : json;
      const got = await call(name, [text], compat);
      if (JSON.stringify(got, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)) !== JSON.stringify(expected, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))) {
        wrong.push([name, text, expected, got]);
      }
    }
    expect(wrong).toEqual([]);
  });
});
