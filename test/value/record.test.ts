import { describe, expect, it } from "vitest";
import {
  escapeIdent,
  escapeKey,
  formatRecordId,
  parseRecordIdText,
  randomRecordKey,
} from "../../src/value/record.js";
import { RecordId, RecordIdRange, Uuid } from "../../src/value/types.js";

const v1 = { compat: 1 as const };

// `<string>type::table(…)` on SurrealDB 1.5.4 / 2.6.0.
describe("escapeIdent (tables)", () => {
  const cases: [string, string, string][] = [
    // name, 1.x, 2.x
    ["user", "user", "user"],
    ["user-x", "`user-x`", "`user-x`"],
    ["select", "select", "`select`"],
    ["123", "`123`", "`123`"],
    ["1abc", "1abc", "`1abc`"],
    ["1e5", "1e5", "`1e5`"],
    ["NONE", "NONE", "`NONE`"],
    ["null", "null", "`null`"],
    ["true", "true", "`true`"],
    ["a`b", "`a\\`b`", "`a\\`b`"],
    ["a⟩b", "`a⟩b`", "`a⟩b`"],
    ["ü", "`ü`", "`ü`"],
    ["a\\b", "`a\\b`", "`a\\\\b`"],
    ["delete", "delete", "delete"],
    ["from", "from", "from"],
    ["tb", "tb", "tb"],
    ["function", "function", "function"],
    ["_a", "_a", "_a"],
  ];
  for (const [name, e1, e2] of cases) {
    it(`${name}`, () => {
      expect(escapeIdent(name, v1)).toBe(e1);
      expect(escapeIdent(name)).toBe(e2);
    });
  }
  it("2.x escapes each reserved keyword, case-insensitively", () => {
    for (const w of ["alter", "BEGIN", "Return", "value", "where", "table", "by", "all", "rand", "diff", "option"]) {
      expect(escapeIdent(w)).toBe(`\`${w}\``);
    }
  });
});

// `<string>{ … }` on both versions.
describe("escapeKey (object keys)", () => {
  const cases: [string, string, string][] = [
    ["a", "a", "a"],
    ["with space", '"with space"', '"with space"'],
    ["1abc", "1abc", '"1abc"'],
    ["123", "123", '"123"'],
    ["1_000", "1_000", '"1_000"'],
    ["a-b", '"a-b"', '"a-b"'],
    ["select", "select", "select"],
    ["_", "_", "_"],
    ["ü", '"ü"', '"ü"'],
    ["", '""', '""'],
    ["it's", '"it\'s"', '"it\'s"'],
    // 2.6.0 prints '"a"b"' (the quote ends the key early: attack pass 9, G6); we escape it, as 1.5.4 does
    ['a"b', '"a\\"b"', '"a\\"b"'],
    ["a`b", '"a`b"', '"a\\`b"'],
    ["a\\b", '"a\\\\b"', '"a\\\\b"'],
    ["a\nb", '"a\\nb"', '"a\\nb"'],
    ["a\tb", '"a\\tb"', '"a\\tb"'],
    ["c\rd", '"c\\rd"', '"c\\rd"'],
    ["e\u0001f", '"e\\u{1}f"', '"e\u0001f"'],
    ["i\u007fj", '"i\\u{7f}j"', '"i\u007fj"'],
    ["k\u200bl", '"k\\u{200b}l"', '"k\u200bl"'],
  ];
  for (const [k, e1, e2] of cases) {
    it(JSON.stringify(k), () => {
      expect(escapeKey(k, v1)).toBe(e1);
      expect(escapeKey(k)).toBe(e2);
    });
  }
});

// `<string>type::thing("user", …)` on both versions.
describe("record ids", () => {
  const keys: [string, string, string][] = [
    ["a-b", "user:⟨a-b⟩", "user:`a-b`"],
    ["123", "user:⟨123⟩", "user:`123`"],
    ["select", "user:select", "user:select"],
    ["1abc", "user:1abc", "user:1abc"],
    ["abc_1", "user:abc_1", "user:abc_1"],
    ["a`b", "user:⟨a`b⟩", "user:`a\\`b`"],
    ["a⟩b", "user:⟨a\\⟩b⟩", "user:`a⟩b`"],
    ["1e5", "user:1e5", "user:1e5"],
    ["NONE", "user:NONE", "user:NONE"],
    ["-1", "user:⟨-1⟩", "user:`-1`"],
    ["9223372036854775808", "user:⟨9223372036854775808⟩", "user:`9223372036854775808`"],
    ["ü", "user:⟨ü⟩", "user:`ü`"],
    ["_", "user:_", "user:`_`"],
    ["1_000", "user:1_000", "user:`1_000`"],
    ["1.5", "user:⟨1.5⟩", "user:`1.5`"],
    ["a b", "user:⟨a b⟩", "user:`a b`"],
    ["it's", "user:⟨it's⟩", "user:`it's`"],
    ['a"b', 'user:⟨a"b⟩', 'user:`a"b`'],
    ["a\\b", "user:⟨a\\b⟩", "user:`a\\\\b`"],
    // 1.x doubles only a backslash our parser would read as an escape (before `\`, `⟩`, or the end)
    ["\\\\ ", "user:⟨\\\\\\ ⟩", "user:`\\\\\\\\ `"],
    ["a\\", "user:⟨a\\\\⟩", "user:`a\\\\`"],
    ["\\⟩", "user:⟨\\\\\\⟩⟩", "user:`\\\\⟩`"],
    ["0", "user:⟨0⟩", "user:`0`"],
    ["0x10", "user:0x10", "user:0x10"],
    ["", "user:⟨⟩", "user:``"],
  ];
  for (const [k, e1, e2] of keys) {
    it(`key ${JSON.stringify(k)}`, () => {
      expect(formatRecordId(new RecordId("user", k), v1)).toBe(e1);
      expect(formatRecordId(new RecordId("user", k))).toBe(e2);
    });
  }
  it("tables in record ids", () => {
    expect(formatRecordId(new RecordId("user-x", 1n), v1)).toBe("⟨user-x⟩:1");
    expect(formatRecordId(new RecordId("user-x", 1n))).toBe("`user-x`:1");
    expect(formatRecordId(new RecordId("select", 1n), v1)).toBe("select:1");
    expect(formatRecordId(new RecordId("select", 1n))).toBe("`select`:1");
    expect(formatRecordId(new RecordId("123", 1n), v1)).toBe("⟨123⟩:1");
    expect(formatRecordId(new RecordId("1abc", 1n))).toBe("`1abc`:1");
    expect(formatRecordId(new RecordId("a\\b", "x"), v1)).toBe("⟨a\\b⟩:x");
    expect(formatRecordId(new RecordId("a\\b", "x"))).toBe("`a\\\\b`:x");
  });
  it("other key kinds", () => {
    expect(formatRecordId(new RecordId("user", 123n))).toBe("user:123");
    expect(formatRecordId(new RecordId("user", -5n))).toBe("user:-5");
    expect(formatRecordId(new RecordId("user", [1n, "a"]))).toBe("user:[1, 'a']");
    expect(formatRecordId(new RecordId("user", { b: "x", a: 1n }))).toBe("user:{ a: 1, b: 'x' }");
    expect(formatRecordId(new RecordId("user", {}))).toBe("user:{  }");
    expect(formatRecordId(new RecordId("user", []))).toBe("user:[]");
    const u = new Uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc");
    expect(formatRecordId(new RecordId("user", u))).toBe("user:u'018f5b5c-8a3a-7b3c-9d1e-123456789abc'");
    expect(formatRecordId(new RecordId("user", [1n, "a", new RecordId("user", 1n), { b: 2n, a: [] }, 1.5]))).toBe(
      "user:[1, 'a', user:1, { a: [], b: 2 }, 1.5f]",
    );
  });
  it("ranges", () => {
    const r = (b?: [bigint, boolean], e?: [bigint, boolean]) =>
      new RecordId(
        "user",
        new RecordIdRange(b && { value: b[0], inclusive: b[1] }, e && { value: e[0], inclusive: e[1] }),
      );
    expect(formatRecordId(r([1n, true], [5n, false]))).toBe("user:1..5");
    expect(formatRecordId(r([1n, false], [5n, true]))).toBe("user:1>..=5");
    expect(formatRecordId(r())).toBe("user:..");
  });
});

describe("parseRecordIdText", () => {
  it("simple forms", () => {
    expect(parseRecordIdText("user:abc")).toEqual(new RecordId("user", "abc"));
    expect(parseRecordIdText("user:123")).toEqual(new RecordId("user", 123n));
    expect(parseRecordIdText("user:-5")).toEqual(new RecordId("user", -5n));
    expect(parseRecordIdText("user:⟨a-b⟩")).toEqual(new RecordId("user", "a-b"));
    expect(parseRecordIdText("user:`a-b`")).toEqual(new RecordId("user", "a-b"));
    expect(parseRecordIdText("user:⟨a\\⟩b⟩")).toEqual(new RecordId("user", "a⟩b"));
    expect(parseRecordIdText("`user-x`:1")).toEqual(new RecordId("user-x", 1n));
    expect(parseRecordIdText("⟨user-x⟩:1")).toEqual(new RecordId("user-x", 1n));
    expect(parseRecordIdText("user:1abc")).toEqual(new RecordId("user", "1abc"));
    expect(parseRecordIdText("user:⟨⟩")).toEqual(new RecordId("user", ""));
  });
  it("version differences, as `<record>\"…\"` shows them", () => {
    expect(parseRecordIdText("user:99999999999999999999")).toEqual(new RecordId("user", "99999999999999999999"));
    expect(parseRecordIdText("123:1")).toBeUndefined();
    expect(parseRecordIdText("123:1", { compat: 1 })).toEqual(new RecordId("123", 1n));
    expect(parseRecordIdText("`123`:1")).toEqual(new RecordId("123", 1n));
    expect(parseRecordIdText("user:+1")).toBeUndefined();
    expect(parseRecordIdText("user:+1", { compat: 1 })).toEqual(new RecordId("user", 1n));
    expect(parseRecordIdText("user:`a b`")).toEqual(new RecordId("user", "a b"));
    expect(parseRecordIdText("select:1")).toEqual(new RecordId("select", 1n));
  });
  it("rejects what is not a simple record id", () => {
    for (const bad of ["user", "user:", ":1", "user:a-b", "user:a b", "a b:c", "user:[1]", "user:1.5", "user: 1", "user:-", "2024-01-01T00:00:00Z"]) {
      expect(parseRecordIdText(bad), bad).toBeUndefined();
    }
  });
});

describe("randomRecordKey", () => {
  it("20 characters of [a-z0-9]", () => {
    const keys = new Set(Array.from({ length: 50 }, randomRecordKey));
    for (const k of keys) expect(k).toMatch(/^[a-z0-9]{20}$/);
    expect(keys.size).toBe(50);
  });
});

describe("String(recordId)", () => {
  it("prints table:id as SurrealQL does, from the package entry too", async () => {
    const { RecordId: Rid, Uuid: U } = await import("../../src/index.js");
    expect(String(new Rid("user", 1n))).toBe("user:1");
    expect(`${new Rid("user", "ann")}`).toBe("user:ann");
    expect(String(new Rid("user", "a-b"))).toBe("user:`a-b`");
    expect(String(new Rid("log", [1n, "x"]))).toBe("log:[1, 'x']");
    expect(String(new Rid("u", new U("0190f3c6-8c2a-7b3e-9a1d-5f2c3b4a5d6e")))).toBe("u:u'0190f3c6-8c2a-7b3e-9a1d-5f2c3b4a5d6e'");
  });
});
