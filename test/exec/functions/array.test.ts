import { describe, expect, it } from "vitest";
import { isBuiltin } from "../../../src/exec/functions/index.js";
import { Decimal, type Value } from "../../../src/value/types.js";
import { call, errorOf, makeCtx } from "./helpers.js";

// Expected values from SurrealDB 1.5.4 and 2.6.0 (identical unless noted). NONE prints as null in the oracle's JSON.
const TABLE: [string, Value[], Value][] = [
  ["array::len", [[1n, 2n, undefined]], 3n],
  ["array::add", [[1n, 2n], 2n], [1n, 2n]],
  ["array::add", [[1n, 2n], [2n, 3n]], [1n, 2n, 3n]],
  ["array::add", [[1n], 1], [1n]],
  ["array::append", [[1n], [2n]], [1n, [2n]]],
  ["array::push", [[1n], 2n], [1n, 2n]],
  ["array::prepend", [[1n], 0n], [0n, 1n]],
  ["array::concat", [[1n], [2n], [3n]], [1n, 2n, 3n]],
  ["array::concat", [[1n]], [1n]],
  ["array::distinct", [[new Decimal("1"), 1, 1n]], [new Decimal("1"), 1, 1n]],
  ["array::distinct", [[1n, new Decimal("1"), "a", "a"]], [1n, new Decimal("1"), "a"]],
  ["array::first", [[]], undefined],
  ["array::first", [[1n, 2n]], 1n],
  ["array::last", [[1n, 2n]], 2n],
  ["array::flatten", [[[1n, [2n]], 3n, [4n]]], [1n, [2n], 3n, 4n]],
  ["array::group", [[1n, [2n, 3n], [1n]]], [1n, 2n, 3n]],
  ["array::insert", [[1n, 2n], 9n, 1n], [1n, 9n, 2n]],
  ["array::insert", [[1n, 2n], 9n], [1n, 2n, 9n]],
  ["array::insert", [[1n, 2n], 9n, -1n], [1n, 9n, 2n]],
  ["array::insert", [[1n, 2n], 9n, 5n], [1n, 2n]],
  ["array::intersect", [[1n, 2n, 2n, 3n], [2n, 3n, 4n]], [2n, 3n]],
  ["array::intersect", [[1n], [1]], [1n]],
  ["array::join", [["a", 1n, undefined], ", "], "a, 1, NONE"],
  ["array::max", [[1n, "a", 3n]], "a"],
  ["array::max", [[]], undefined],
  ["array::min", [[1n, "a", 3n]], 1n],
  ["array::pop", [[1n, 2n]], 2n],
  ["array::pop", [[]], undefined],
  ["array::remove", [[1n, 2n, 3n], 1n], [1n, 3n]],
  ["array::remove", [[1n, 2n, 3n], -1n], [1n, 2n]],
  ["array::remove", [[1n, 2n, 3n], 9n], [1n, 2n, 3n]],
  ["array::reverse", [[1n, 2n, 3n]], [3n, 2n, 1n]],
  ["array::slice", [[1n, 2n, 3n, 4n, 5n], 1n, 2n], [2n, 3n]],
  ["array::slice", [[1n, 2n, 3n, 4n, 5n], -2n], [4n, 5n]],
  ["array::slice", [[1n, 2n, 3n, 4n, 5n], 1n, -1n], [2n, 3n, 4n]],
  ["array::sort", [[3n, 1n, "a", undefined, null, true, 2.5]], [undefined, null, true, 1n, 2.5, 3n, "a"]],
  ["array::sort", [[3n, 1n, 2n], false], [3n, 2n, 1n]],
  ["array::sort", [[3n, 1n, 2n], "desc"], [3n, 2n, 1n]],
  ["array::sort", [[3n, 1n, 2n], "asc"], [1n, 2n, 3n]],
  ["array::sort::asc", [[3n, 1n, 2n]], [1n, 2n, 3n]],
  ["array::sort::desc", [[3n, 1n, 2n]], [3n, 2n, 1n]],
  ["array::union", [[1n, 2n], [2n, 3n]], [1n, 2n, 3n]],
  ["array::union", [[1n], [1]], [1n, 1]],
  ["array::complement", [[1n, 2n, 3n], [2n]], [1n, 3n]],
  ["array::complement", [[1n, 2n], [1]], [2n]],
  ["array::difference", [[1n, 2n, 3n], [2n, 4n]], [1n, 3n, 4n]],
  ["array::at", [[1n, 2n, 3n], -1n], 3n],
  ["array::at", [[1n, 2n, 3n], 5n], undefined],
  ["array::combine", [[1n, 2n], [3n]], [[1n, 3n], [2n, 3n]]],
  ["array::all", [[1n, 0n]], false],
  ["array::any", [[1n, 0n]], true],
  ["array::clump", [[1n, 2n, 3n], 2n], [[1n, 2n], [3n]]],
  ["array::boolean_and", [[true, false], [true, true]], [true, false]],
  ["array::find_index", [[1n, 2n], 2n], 1n],
  ["array::find_index", [[1], 1n], 0n],
  ["array::filter_index", [[1n, 2n, 1n], 1n], [0n, 2n]],
  ["array::matches", [[1n, 2n, 1n], 1n], [true, false, true]],
  ["array::logical_and", [[1n, 0n], [1n, 1n]], [1n, 0n]],
  ["array::transpose", [[[1n, 2n], [3n, 4n]]], [[1n, 3n], [2n, 4n]]],
  ["array::flatten", [[1n]], [1n]],
];

describe("array:: (oracle, both versions)", () => {
  it.each(TABLE)("%s #%#", async (name, args, expected) => {
    expect(await call(name, args, 2)).toEqual(expected);
    expect(await call(name, args, 1)).toEqual(expected);
  });
  it("errors", async () => {
    expect(await errorOf("array::concat", [[1n], 2n])).toBe(
      "Incorrect arguments for function array::concat(). Argument 2 was the wrong type. Expected a array but found 2",
    );
    expect(await errorOf("array::join", [[1n], 1n])).toBe(
      "Incorrect arguments for function array::join(). Argument 2 was the wrong type. Expected a string but found 1",
    );
    expect(await errorOf("array::insert", [[1n], 2n, 1.5])).toBe(
      "Incorrect arguments for function array::insert(). Argument 3 was the wrong type. Expected a i64 but found 1.5f",
    );
    expect(await errorOf("array::at", [[1n], "a"])).toBe(
      "Incorrect arguments for function array::at(). Argument 2 was the wrong type. Expected a i64 but found 'a'",
    );
  });
});

describe("array:: SurrealDB 2 additions (oracle)", () => {
  // A stand-in closure: the engine supplies isClosure/invoke; here a closure is a JS function.
  type Fn = (...a: Value[]) => Value;
  const ctx = makeCtx(2, {}, {
    isClosure: (v) => typeof v === "function",
    invoke: async (f, args) => (f as Fn)(...args),
  });
  const c = (f: Fn) => f as unknown as Value;
  it.each([
    ["array::includes", [[1n, 2n], 2n], true],
    ["array::includes", [[1n], 1], true],
    ["array::includes", [[1n]], true],
    ["array::windows", [[1n, 2n, 3n], 2n], [[1n, 2n], [2n, 3n]]],
    ["array::range", [1n, 3n], [1n, 2n, 3n]],
    ["array::repeat", [1n, 3n], [1n, 1n, 1n]],
    ["array::shuffle", [[1n]], [1n]],
    ["array::swap", [[1n, 2n, 3n], 0n, 2n], [3n, 2n, 1n]],
    ["array::map", [[1n, 2n], c((x) => (x as bigint) * 2n)], [2n, 4n]],
    ["array::filter", [[1n, 2n, 3n], c((x) => (x as bigint) > 1n)], [2n, 3n]],
    ["array::filter", [[1n, 2n, 3n], 2n], [2n]],
    ["array::find", [[1n, 2n, 3n], 2n], 2n],
    ["array::fold", [[1n, 2n, 3n], 0n, c((a, b) => (a as bigint) + (b as bigint))], 6n],
    ["array::is_empty", [[]], true],
  ] as [string, Value[], Value][])("%s #%#", async (name, args, expected) => {
    expect(await call(name, args, 2, ctx)).toEqual(expected);
  });
  it("are unknown in SurrealDB 1", () => {
    for (const n of ["array::includes", "array::windows", "array::range", "array::map", "array::filter", "array::fold"]) {
      expect(isBuiltin(n, 1)).toBe(false);
    }
  });
  it("a closure argument must be a closure", async () => {
    expect(await errorOf("array::fold", [[], "x", "y"], 2, ctx)).toBe(
      "Incorrect arguments for function array::fold(). Argument 3 was the wrong type. Expected a function but found 'y'",
    );
  });
});

describe("array::swap index range (2.6.0)", () => {
  it.each([
    [[1n, 2n, 3n], 0n, 5n, "Argument 2 is out of range. Expected a number between -3 and 3"],
    [[1n, 2n, 3n], -4n, 0n, "Argument 1 is out of range. Expected a number between -3 and 3"],
    [[], 0n, 0n, "Argument 1 is out of range. Expected a number between 0 and 0"],
  ] as [Value[], bigint, bigint, string][])("#%#", async (a, i, j, detail) => {
    expect(await errorOf("array::swap", [a, i, j])).toBe(`Incorrect arguments for function array::swap(). ${detail}`);
  });
});

describe.each([1, 2] as const)("array::logical_* answer an operand (compat %i)", (compat) => {
  it.each([
    ["array::logical_and", [1n, 0n, "a"], [2n, 3n], [1n, 0n, undefined]],
    ["array::logical_or", [false, 0n], [null, ""], [false, 0n]],
    ["array::logical_xor", [1n, 0n, "a", 0n], [0n, 2n, "b"], [1n, 2n, false, 0n]],
    ["array::logical_xor", [null], [0n], [null]],
  ] as [string, Value[], Value[], Value[]][])("%s #%#", async (name, a, b, want) => {
    expect(await call(name, [a, b], compat)).toEqual(want);
  });
});
