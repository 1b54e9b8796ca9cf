import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toJson } from "../../../src/value/index.js";
import { isBuiltin } from "../../../src/exec/functions/index.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, Table, Uuid, type Value } from "../../../src/value/types.js";
import { call, errorOf } from "./helpers.js";

const U = "0190d8d4-2d4f-7a5c-b000-000000000000";

// Expected values from SurrealDB 1.5.4 and 2.6.0 (identical).
const TABLE: [string, Value[], Value][] = [
  ["type::thing", ["user", 1n], new RecordId("user", 1n)],
  ["type::thing", ["user", "a b"], new RecordId("user", "a b")],
  ["type::thing", ["user", [1n, "a"]], new RecordId("user", [1n, "a"])],
  ["type::thing", ["user", { a: 1n }], new RecordId("user", { a: 1n })],
  ["type::thing", ["user:1"], new RecordId("user", 1n)],
  ["type::thing", [new RecordId("user", 1n)], new RecordId("user", 1n)],
  ["type::thing", ["user", new RecordId("user", 1n)], new RecordId("user", 1n)],
  ["type::thing", [1n, 1n], new RecordId("1", 1n)],
  ["type::thing", ["user", undefined], new RecordId("user", "NONE")],
  ["type::thing", ["user", null], new RecordId("user", "NULL")],
  ["type::thing", ["user", true], new RecordId("user", "true")],
  ["type::thing", ["user", "1"], new RecordId("user", "1")],
  ["type::thing", ["user", -5n], new RecordId("user", -5n)],
  ["type::thing", ["user", new Uuid(U)], new RecordId("user", U)],
  ["type::thing", ["user", 1.5], new RecordId("user", "1.5")],
  ["type::table", ["user"], new Table("user")],
  ["type::table", [new RecordId("user", 1n)], new Table("user")],
  ["type::table", [1n], new Table("1")],
  ["type::table", [undefined], new Table("NONE")],
  ["type::table", [new Uuid(U)], new Table(U)],
  ["type::string", [1n], "1"],
  ["type::string", [1.5], "1.5f"],
  ["type::string", [new RecordId("user", 1n)], "user:1"],
  ["type::string", [[1n, "a"]], "[1, 'a']"],
  ["type::string", [new Decimal("1")], "1dec"],
  ["type::string", [new Duration(3_600_000_000_000n)], "1h"],
  ["type::string", [new Datetime(1704067200000000000n)], "2024-01-01T00:00:00Z"],
  ["type::int", ["12"], 12n],
  ["type::int", ["+12"], 12n],
  ["type::int", [2], 2n],
  ["type::int", [new Decimal("1")], 1n],
  ["type::float", ["1.5"], 1.5],
  ["type::float", [2n], 2],
  ["type::float", ["1e3"], 1000],
  ["type::number", ["1.5"], 1.5],
  ["type::number", ["12"], 12n],
  ["type::number", ["1e3"], 1000],
  ["type::bool", ["true"], true],
  ["type::bool", [true], true],
  ["type::datetime", ["2024-01-02T03:04:05Z"], new Datetime(1704164645000000000n)],
  ["type::datetime", ["2024-01-02"], new Datetime(1704153600000000000n)],
  ["type::duration", ["1h30m"], new Duration(5_400_000_000_000n)],
  ["type::decimal", ["1.5"], new Decimal("1.5")],
  ["type::decimal", [1.5], new Decimal("1.5")],
  ["type::is::string", ["a"], true],
  ["type::is::int", [1n], true],
  ["type::is::int", [1], false],
  ["type::is::float", [1], true],
  ["type::is::number", [new Decimal("1")], true],
  ["type::is::decimal", [new Decimal("1")], true],
  ["type::is::bool", [false], true],
  ["type::is::array", [[]], true],
  ["type::is::object", [{}], true],
  ["type::is::record", [new RecordId("user", 1n)], true],
  ["type::is::record", [new RecordId("user", 1n), "user"], true],
  ["type::is::record", [new RecordId("user", 1n), "post"], false],
  ["type::is::record", ["user:1"], false],
  ["type::is::none", [undefined], true],
  ["type::is::null", [null], true],
  ["type::is::null", [undefined], false],
  ["type::is::datetime", [new Datetime(0n)], true],
  ["type::is::duration", [new Duration(1n)], true],
  ["type::is::uuid", [new Uuid(U)], true],
  ["type::is::bytes", [new Uint8Array([97])], true],
  ["type::is::geometry", [new Geometry("Point", [1, 2])], true],
  ["type::is::point", [new Geometry("Point", [1, 2])], true],
  ["type::is::collection", [1n], false],
];

const ERRORS: [string, Value[], string][] = [
  ["type::thing", ["user"], "Expected a record but cannot convert 'user' into a record"],
  ["type::string", [undefined], "Expected a string but cannot convert NONE into a string"],
  ["type::string", [null], "Expected a string but cannot convert NULL into a string"],
  ["type::int", ["1.5"], "Expected a int but cannot convert '1.5' into a int"],
  ["type::int", [1.7], "Expected a int but cannot convert 1.7f into a int"],
  ["type::int", ["abc"], "Expected a int but cannot convert 'abc' into a int"],
  ["type::int", [true], "Expected a int but cannot convert true into a int"],
  ["type::int", [" 12"], "Expected a int but cannot convert ' 12' into a int"],
  ["type::int", ["9223372036854775808"], "Expected a int but cannot convert '9223372036854775808' into a int"],
  ["type::int", [undefined], "Expected a int but cannot convert NONE into a int"],
  ["type::float", ["x"], "Expected a float but cannot convert 'x' into a float"],
  ["type::float", [true], "Expected a float but cannot convert true into a float"],
  ["type::float", [" 1.5"], "Expected a float but cannot convert ' 1.5' into a float"],
  ["type::number", ["x"], "Expected a number but cannot convert 'x' into a number"],
  ["type::number", [true], "Expected a number but cannot convert true into a number"],
  ["type::bool", ["yes"], "Expected a bool but cannot convert 'yes' into a bool"],
  ["type::bool", ["TRUE"], "Expected a bool but cannot convert 'TRUE' into a bool"],
  ["type::bool", [1n], "Expected a bool but cannot convert 1 into a bool"],
  ["type::datetime", ["x"], "Expected a datetime but cannot convert 'x' into a datetime"],
  ["type::datetime", [5n], "Expected a datetime but cannot convert 5 into a datetime"],
  ["type::duration", ["x"], "Expected a duration but cannot convert 'x' into a duration"],
  ["type::duration", [5n], "Expected a duration but cannot convert 5 into a duration"],
  ["type::decimal", ["x"], "Expected a decimal but cannot convert 'x' into a decimal"],
  ["type::is::string", [], "Incorrect arguments for function type::is::string(). Expected 1 argument."],
  ["type::is::record", [new RecordId("user", 1n), 1n], "Expected a string but found 1"],
  ["type::thing", [], "Incorrect arguments for function type::thing(). Expected 1 or 2 arguments."],
];

describe("type:: (oracle, both versions)", () => {
  it.each(TABLE)("%s #%#", async (name, args, expected) => {
    expect(await call(name, args, 2)).toEqual(expected);
    expect(await call(name, args, 1)).toEqual(expected);
  });
  it.each(ERRORS)("%s error #%#", async (name, args, message) => {
    expect(await errorOf(name, args, 2)).toBe(message);
    expect(await errorOf(name, args, 1)).toBe(message);
  });
  it("v2 only: type::record, type::uuid, type::array", async () => {
    expect(await call("type::record", ["user:1"])).toEqual(new RecordId("user", 1n));
    expect(await call("type::record", [new RecordId("user", 1n), "user"])).toEqual(new RecordId("user", 1n));
    expect(await errorOf("type::record", ["user:1", "post"])).toBe("Expected a record<post> but cannot convert 'user:1' into a record<post>");
    expect(await errorOf("type::record", [new RecordId("user", 1n), "post"])).toBe(
      "Expected a record<post> but cannot convert user:1 into a record<post>",
    );
    expect(await errorOf("type::record", ["x"])).toBe("Expected a record but cannot convert 'x' into a record");
    expect(await errorOf("type::record", ["user", 1n])).toBe(
      "Incorrect arguments for function type::record(). The second argument must be a table name or a string.",
    );
    expect(await call("type::uuid", [U])).toEqual(new Uuid(U));
    expect(await errorOf("type::array", [1n])).toBe("Expected a array but cannot convert 1 into a array");
    for (const n of ["type::record", "type::uuid", "type::array", "type::is::range"]) expect(isBuiltin(n, 1)).toBe(false);
  });
});

describe("type:: conversions on generated text (fixtures/conversions.json, SurrealDB 2.6.0)", () => {
  // Compared through the JSON shape the oracle printed (ints and floats both as JSON numbers).
  const rows: [string, string, { ok?: unknown; error?: string }][] = JSON.parse(
    readFileSync(new URL("./fixtures/conversions.json", import.meta.url), "utf8"),
  );
  it(`${rows.length} calls`, async () => {
    const wrong: unknown[] = [];
    for (const [name, text, expected] of rows) {
      let got: { ok?: unknown; error?: string };
      try {
        got = { ok: toJson(await call(name, [text], 2), { compat: 2 }) };
      } catch (e) {
        got = { error: (e as Error).message };
      }
      if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push([name, text, expected, got]);
    }
    expect(wrong).toEqual([]);
  });
});
