import { describe, expect, it } from "vitest";
import { cast, compareValues, isTruthy, MAX_RANGE_ITEMS, rangeHas, rangeToArray, toJson, toSql, typeName, valueEquals } from "../../src/value/index.js";
import { Range, type Value } from "../../src/value/types.js";

const r = (b: Value | undefined, e: Value | undefined, endIncl = false, beginIncl = true): Range =>
  new Range(b === undefined ? undefined : { value: b, inclusive: beginIncl }, e === undefined ? undefined : { value: e, inclusive: endIncl });

describe("range values (2.x)", () => {
  it("print as SurrealDB prints them", () => {
    expect(toSql(r(1n, 5n))).toBe("1..5");
    expect(toSql(r(1n, 5n, true))).toBe("1..=5");
    expect(toSql(r(undefined, 5n))).toBe("..5");
    expect(toSql(r(1n, undefined))).toBe("1..");
    expect(toSql(r(undefined, undefined))).toBe("..");
    expect(toSql(r(1n, 5n, false, false))).toBe("1>..5");
    expect(toSql(r("a", "c"))).toBe("'a'..'c'");
    expect(toJson(r(1n, 5n))).toBe("1..5");
    expect(typeName(r(1n, 5n))).toBe("range");
  });

  it("are falsy and compare by the positions their bounds mark", () => {
    expect(isTruthy(r(1n, 5n))).toBe(false);
    expect(valueEquals(r(1n, 5n), r(1n, 5n))).toBe(true);
    expect(valueEquals(r(1n, 5n), r(1n, 4n, true))).toBe(false);
    expect(compareValues(r(1n, 5n), r(2n, 3n))).toBe(-1);
    expect(compareValues(r(1n, 5n), r(1n, 5n, true))).toBe(-1);
    expect(compareValues(r(undefined, 5n), r(1n, 5n))).toBe(-1);
    expect(compareValues(r(1n, undefined), r(1n, 5n))).toBe(1);
  });

  it("hold values between their bounds", () => {
    expect(rangeHas(r(1n, 5n), 3n)).toBe(true);
    expect(rangeHas(r(1n, 5n), 5n)).toBe(false);
    expect(rangeHas(r(1n, 5n, true), 5n)).toBe(true);
    expect(rangeHas(r(1n, undefined), 0n)).toBe(false);
    expect(rangeHas(r("a", "c"), "b")).toBe(true);
  });

  it("cast to their ints, bounded in size", () => {
    expect(rangeToArray(r(1n, 5n))).toEqual([1n, 2n, 3n, 4n]);
    expect(rangeToArray(r(1n, 5n, true))).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(rangeToArray(r(5n, 1n))).toEqual([]);
    expect(cast(r(-2n, 2n), { kind: "Array", inner: undefined } as never)).toEqual([-2n, -1n, 0n, 1n]);
    expect(() => rangeToArray(r(0n, BigInt(MAX_RANGE_ITEMS) + 1n))).toThrow("The range cannot exceed a size of 1048576 for this operation");
    expect(() => rangeToArray(r(1n, 1_000_000_000_000n))).toThrow("cannot exceed");
    expect(() => rangeToArray(r(undefined, 5n))).toThrow("cannot exceed");
    expect(() => rangeToArray(r(1n, undefined))).toThrow("cannot exceed");
    expect(() => rangeToArray(r("a", "c"))).toThrow("Expected a range value of 'int', but found 'string'");
  });
});
