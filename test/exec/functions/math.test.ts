import { describe, expect, it } from "vitest";
import { Decimal, Duration, type Value } from "../../../src/value/types.js";
import { call, errorOf } from "./helpers.js";

// From SurrealDB 1.5.4 and 2.6.0 (identical unless noted); int vs float checked with type::is::int/float.
const TABLE: [string, Value[], Value][] = [
  ["math::abs", [-5n], 5n],
  ["math::abs", [-5.5], 5.5],
  ["math::abs", [new Decimal("-5")], new Decimal("5")],
  ["math::ceil", [1.2], 2],
  ["math::ceil", [1n], 1n],
  ["math::ceil", [new Decimal("1.2")], new Decimal("2")],
  ["math::floor", [-1.2], -2],
  ["math::floor", [5n], 5n],
  ["math::round", [2.5], 3],
  ["math::round", [-2.5], -3],
  ["math::round", [1.5], 2],
  ["math::round", [new Decimal("1.4")], new Decimal("1")],
  ["math::max", [[1n, 2.5, 2n]], 2.5],
  ["math::max", [[]], undefined],
  ["math::max", [[1n, 1]], 1],
  ["math::max", [[1, 1n]], 1n],
  ["math::min", [[1n, 2.5, 0n]], 0n],
  ["math::min", [[]], undefined],
  ["math::sum", [[1n, 2.5, 2n]], 5.5],
  ["math::sum", [[1n, 2n]], 3n],
  ["math::sum", [[]], 0n],
  ["math::sum", [[9223372036854775807n, 1n]], -9223372036854775808n],
  ["math::sum", [[new Decimal("1"), 2n]], new Decimal("3")],
  ["math::mean", [[1n, 2n]], 1.5],
  ["math::mean", [[1n, 2n, 4n]], 2.3333333333333335],
  ["math::mean", [[2n, 2n]], 2],
  ["math::mean", [[]], NaN],
  ["math::sqrt", [16n], 4],
  ["math::sqrt", [2n], 1.4142135623730951],
  ["math::sqrt", [-1n], undefined],
  ["math::pow", [2n, 10n], 1024n],
  ["math::pow", [2n, 0.5], 1.4142135623730951],
  ["math::pow", [2, 3n], 8],
  ["math::pow", [0n, 0n], 1n],
  ["math::fixed", [1.23456, 2n], 1.23],
  ["math::fixed", [1n, 2n], 1n],
  ["math::fixed", [1.255, 2n], 1.25],
  ["math::median", [[3n, 1n, 2n]], 2],
  ["math::median", [[1n, 2n]], 1.5],
  ["math::median", [[]], undefined],
  ["math::product", [[2n, 3n]], 6n],
  ["math::product", [[]], 1n],
];

describe("math:: (oracle, both versions)", () => {
  it.each(TABLE)("%s #%#", async (name, args, expected) => {
    for (const compat of [1, 2] as const) {
      const got = await call(name, args, compat);
      expect(got).toEqual(expected);
      expect(typeof got).toBe(typeof expected);
    }
  });
  it("keeps decimal sums and products in rust_decimal's range: the operator's error where SurrealDB 2.6.0 panics (attack pass 9, G3)", async () => {
    const max = new Decimal("79228162514264337593543950335");
    for (const compat of [1, 2] as const) {
      expect(await errorOf("math::sum", [[max, new Decimal("1")]], compat)).toBe("Cannot perform addition with '79228162514264337593543950335' and '1'");
      expect(await errorOf("math::product", [[new Decimal("1e20"), new Decimal("1e20")]], compat)).toMatch(/^Cannot perform multiplication with /);
      expect(await errorOf("math::spread", [[max, new Decimal("-1")]], compat)).toMatch(/^Cannot perform subtraction with /);
      expect(await call("math::sqrt", [new Decimal("1e28")], compat)).toEqual(new Decimal("100000000000000"));
      expect(await call("math::fixed", [new Decimal("1.5"), 100n], compat)).toEqual(new Decimal("1.5"));
    }
  });
  it("errors (oracle)", async () => {
    expect(await errorOf("math::max", [[1n, "a"]])).toBe(
      "Incorrect arguments for function math::max(). Argument 1 was the wrong type. Expected a array<number> but found 'a'",
    );
    expect(await errorOf("math::sum", [[1n, "a"]])).toBe(
      "Incorrect arguments for function math::sum(). Argument 1 was the wrong type. Expected a array<number> but found 'a'",
    );
    expect(await errorOf("math::max", [1n])).toBe(
      "Incorrect arguments for function math::max(). Argument 1 was the wrong type. Expected a array but found 1",
    );
    expect(await errorOf("math::abs", ["x"])).toBe(
      "Incorrect arguments for function math::abs(). Argument 1 was the wrong type. Expected a number but found 'x'",
    );
    expect(await errorOf("math::pow", [2n, -1n])).toBe("Cannot raise the value '2' with '-1'");
    expect(await errorOf("math::pow", [2n, 63n])).toBe("Cannot raise the value '2' with '63'");
    for (const p of [0n, -1n]) {
      expect(await errorOf("math::fixed", [1.5, p])).toBe(
        "Incorrect arguments for function math::fixed(). The second argument must be an integer greater than 0.",
      );
    }
  });
  it("math::abs(i64::MIN): wraps in v1, overflows in v2 (oracle)", async () => {
    const min = -9223372036854775808n;
    expect(await call("math::abs", [min], 1)).toBe(min);
    expect(await errorOf("math::abs", [min], 2)).toBe(
      'Failed to compute: "math::abs(-9223372036854775808)", as the operation results in an arithmetic overflow.',
    );
  });
});

describe.each([1, 2] as const)("math::top / bottom keep SurrealDB's heap order (compat %i)", (compat) => {
  it.each([
    ["math::top", [1n, 5n, 3n, 5n, 2n], 3n, [3n, 5n, 5n]],
    ["math::bottom", [1n, 5n, 3n, 5n, 2n], 3n, [3n, 2n, 1n]],
    ["math::top", [3n, 1n, 2n], 5n, [1n, 3n, 2n]],
    ["math::bottom", [3n, 1n, 2n], 5n, [3n, 1n, 2n]],
    ["math::top", [], 2n, []],
  ] as const)("%s #%#", async (name, xs, k, want) => {
    expect(await call(name, [[...xs], k], compat)).toEqual(want);
  });
});

describe.each([1, 2] as const)("duration:: whole units as i64 (compat %i)", (compat) => {
  const DAY = 86_400_000_000_000n;
  it("wrap past i64::MAX as SurrealDB's `as i64`", async () => {
    expect(await call("duration::nanos", [new Duration(600_000n * DAY)], compat)).toBe(-3500232221128654848n);
    expect(await call("duration::secs", [new Duration(((1n << 64n) - 1n) * 1_000_000_000n)], compat)).toBe(-1n);
    expect(await call("duration::millis", [new Duration(1_000_000_000n)], compat)).toBe(1000n);
  });
});
