// value/size.ts: values are measured as trees (a shared sub-value counts every time it occurs), remembered per array and
// object so a check costs the new entries only, and refused past the depth and size limits.

import { describe, expect, it } from "vitest";
import { checkStringLength, checkValue, MAX_STRING_LENGTH, MAX_VALUE_DEPTH, MAX_VALUE_SIZE, sizeWithin, wireLength } from "../../src/value/size.js";
import { Closure, RecordId, Regex, Table, type Value } from "../../src/value/types.js";

const TOO_LARGE = `The value is too large: a value must not exceed ${MAX_VALUE_SIZE} bytes`;
const TOO_DEEP = "Reached excessive computation depth due to functions, subqueries, or futures";

/** `{a: x, b: x}` nested `n` times over `{}`: n + 1 objects in memory, 2ⁿ⁺¹ − 1 as a tree. */
function doubled(n: number): Value {
  let x: Value = {};
  for (let i = 0; i < n; i++) x = { a: x, b: x };
  return x;
}

/** `[…[leaf]…]` nested `n` deep, each level a fresh array. */
function nested(n: number, leaf: Value = 1): Value {
  let x: Value = leaf;
  for (let i = 0; i < n; i++) x = [x];
  return x;
}

describe("value size", () => {
  it("counts a shared sub-value every time it occurs", () => {
    const x = { s: "a".repeat(100) };
    // 16 per object, a string its length, a key its length
    expect(sizeWithin(x, MAX_VALUE_SIZE)).toBe(16 + 1 + 100);
    expect(sizeWithin({ a: x, b: x }, MAX_VALUE_SIZE)).toBe(16 + 2 * (1 + 117));
    expect(sizeWithin([x, x, x], MAX_VALUE_SIZE)).toBe(16 + 3 * 117);
    // a record id: its frame, its table (a string), its key
    expect(sizeWithin(new RecordId("t", [x, x]), MAX_VALUE_SIZE)).toBe(16 + 16 + 16 + 2 * 117);
  });

  it("a table name and a record id's table count like strings, a bytes value 4 a byte (attack pass 13, K2 / K3 / K4)", () => {
    const long = "T".repeat(60_000);
    expect(sizeWithin(new Table(long), MAX_VALUE_SIZE)).toBe(60_000);
    expect(sizeWithin(new RecordId(long, 1n), MAX_VALUE_SIZE)).toBe(16 + 60_000 + 16);
    expect(sizeWithin(Array(300).fill(new Table(long)), MAX_VALUE_SIZE)).toBeUndefined();
    expect(sizeWithin(new Uint8Array(1000), MAX_VALUE_SIZE)).toBe(4000);
    expect(() => sizeWithin(new Table("T".repeat(MAX_STRING_LENGTH + 1)), MAX_VALUE_SIZE)).toThrow("The string is too long");
  });

  it("a regex counts its pattern, a closure its text (attack pass 14, L2)", () => {
    const pattern = "a".repeat(3950);
    expect(sizeWithin(new Regex(pattern), MAX_VALUE_SIZE)).toBe(3950);
    expect(sizeWithin(Array(5000).fill(new Regex(pattern)), MAX_VALUE_SIZE)).toBeUndefined();
    const closure = new (class extends Closure {
      get text() {
        return `|$x| ${"1 + ".repeat(7000)}1`;
      }
    })();
    expect(sizeWithin(closure, MAX_VALUE_SIZE)).toBe(28_006);
    expect(sizeWithin(Array(3000).fill(closure), MAX_VALUE_SIZE)).toBeUndefined();
  });

  it("answers at once for a value shared 2⁶⁰ times over, which has no end as a tree walk", () => {
    expect(sizeWithin(doubled(60), MAX_VALUE_SIZE)).toBeUndefined();
    expect(() => checkValue(doubled(60))).toThrow(TOO_LARGE);
    // under the limit it is exact: 17 bytes per entry (key "a" or "b" and the frame of the object it holds) plus the root
    expect(sizeWithin(doubled(10), MAX_VALUE_SIZE)).toBe(16 + 17 * (2 ** 11 - 2));
  });

  it("refuses a string or a tree of fresh values one past the limit", () => {
    const quarter = "a".repeat(MAX_STRING_LENGTH);
    expect(() => checkValue([quarter, quarter, quarter, quarter.slice(32)])).not.toThrow();
    expect(() => checkValue([quarter, quarter, quarter, quarter])).toThrow(TOO_LARGE);
    expect(() => checkValue(Array.from({ length: MAX_VALUE_SIZE / 16 }, () => 1))).toThrow(TOO_LARGE);
    expect(() => checkValue(Array.from({ length: MAX_VALUE_SIZE / 16 - 1 }, () => 1))).not.toThrow();
  });

  it("refuses a string past MAX_STRING_LENGTH units wherever it is met, before or after it is built (attack pass 11, I5)", () => {
    const TOO_LONG = `The string is too long: a string must not exceed ${MAX_STRING_LENGTH} characters`;
    expect(MAX_STRING_LENGTH).toBe(4 * 1024 * 1024);
    expect(() => checkValue("a".repeat(MAX_STRING_LENGTH))).not.toThrow();
    expect(() => checkValue("a".repeat(MAX_STRING_LENGTH + 1))).toThrow(TOO_LONG);
    expect(() => checkValue({ x: ["a".repeat(MAX_STRING_LENGTH + 1)] })).toThrow(TOO_LONG);
    expect(() => checkStringLength(MAX_STRING_LENGTH + 1)).toThrow(TOO_LONG);
  });

  it("counts a string as the bytes a JSON answer sends: UTF-8, a control character 6, a quote or backslash 2 (attack pass 11, I5)", () => {
    expect(wireLength("abc")).toBe(3);
    expect(wireLength("é€😀")).toBe(2 + 3 + 4);
    expect(wireLength("\0\u0001")).toBe(12);
    expect(wireLength('\n"\\')).toBe(6);
    expect(wireLength("\ud800x")).toBe(7);
    for (const s of ["abc", "é€😀", "\0\u0001", '\n"\\', "a\u001fb\tc\b\f\r", "\udc00\ud800", "x".repeat(40) + "\u2028"]) {
      expect(wireLength(s)).toBe(Buffer.byteLength(JSON.stringify(s)) - 2);
    }
    // 16 Mi NULs were 16 MiB of value and 96 MiB of JSON: now counted as sent
    const nuls = "\0".repeat(1024 * 1024);
    expect(sizeWithin(nuls, MAX_VALUE_SIZE)).toBe(6 * 1024 * 1024);
    expect(sizeWithin([nuls, nuls, nuls], MAX_VALUE_SIZE)).toBeUndefined();
  });

  it("takes a limit: a value within one is refused by a smaller one", () => {
    const x = Array.from({ length: 100 }, () => 1);
    expect(() => checkValue(x, 16 * 101)).not.toThrow();
    expect(() => checkValue(x, 16 * 100)).toThrow("a value must not exceed 1600 bytes");
  });

  it("refuses nesting deeper than MAX_VALUE_DEPTH, as the depth check did, also when the deep part is shared", () => {
    expect(() => checkValue(nested(MAX_VALUE_DEPTH))).not.toThrow();
    expect(() => checkValue(nested(MAX_VALUE_DEPTH + 1))).toThrow(TOO_DEEP);
    // a value measured before, nested one level further
    const deep = nested(MAX_VALUE_DEPTH);
    checkValue(deep);
    expect(() => checkValue({ a: deep })).toThrow(TOO_DEEP);
    expect(() => checkValue([1, { b: [deep] }])).toThrow(TOO_DEEP);
  });

  it("stops a fresh value nested 100,000 deep with the depth error, not a stack overflow", () => {
    expect(() => checkValue(nested(100_000))).toThrow(TOO_DEEP);
  });
});
