import { describe, expect, it } from "vitest";
import { parseDatetime } from "../../src/value/datetime.js";
import { parseDuration } from "../../src/value/duration.js";
import { isTruthy } from "../../src/value/truthy.js";
import { Decimal, Geometry, RecordId, Table, Uuid, type Value } from "../../src/value/types.js";

// `!!value` on SurrealDB 1.5.4 and 2.6.0.
describe("isTruthy", () => {
  const cases: [string, Value, boolean][] = [
    ["''", "", false],
    ["'a'", "a", true],
    ["0", 0n, false],
    ["1", 1n, true],
    ["0.0", 0, false],
    ["0.5", 0.5, true],
    ["0dec", new Decimal("0"), false],
    ["0.00dec", new Decimal("0.00"), false],
    ["2dec", new Decimal("2"), true],
    ["[]", [], false],
    ["[0]", [0n], true],
    ["{}", {}, false],
    ["{a:1}", { a: 1n }, true],
    ["NONE", undefined, false],
    ["NULL", null, false],
    ["user:1", new RecordId("user", 1n), true],
    ["0s", parseDuration("0s"), false],
    ["1s", parseDuration("1s"), true],
    ["nil uuid", new Uuid("00000000-0000-0000-0000-000000000000"), true],
    ["false", false, false],
    ["true", true, true],
    ["table", new Table("t"), false],
    ["empty bytes", new Uint8Array(), false],
    ["bytes", new Uint8Array([97]), false],
    ["point", new Geometry("Point", [1, 2]), true],
  ];
  for (const [name, v, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      expect(isTruthy(v)).toBe(expected);
      expect(isTruthy(v, { compat: 1 })).toBe(expected);
    });
  }
  it("the epoch datetime is falsy only in 1.x", () => {
    const epoch = parseDatetime("1970-01-01");
    expect(isTruthy(epoch)).toBe(true);
    expect(isTruthy(epoch, { compat: 1 })).toBe(false);
    expect(isTruthy(parseDatetime("2024-01-01"), { compat: 1 })).toBe(true);
  });
});
