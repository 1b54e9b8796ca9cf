import { describe, expect, it } from "vitest";
import { parseDatetime } from "../../src/value/datetime.js";
import { parseDuration } from "../../src/value/duration.js";
import { typeName } from "../../src/value/kind.js";
import { Decimal, Geometry, RecordId, Table, Uuid } from "../../src/value/types.js";

describe("typeName", () => {
  it("names every value type as SurrealDB's messages do", () => {
    expect(
      [
        undefined, null, true, 1n, 1.5, new Decimal("1"), "a", parseDuration("1s"), parseDatetime("2024-01-01"),
        new Uuid("018f5b5c-8a3a-7b3c-9d1e-123456789abc"), [1n], { a: 1n }, new Geometry("Point", [1, 2]),
        new Uint8Array(), new RecordId("user", 1n), new Table("t"),
      ].map(typeName),
    ).toEqual(["none", "null", "bool", "int", "float", "decimal", "string", "duration", "datetime", "uuid", "array", "object", "geometry", "bytes", "record", "table"]);
  });
  it("a plain object without prototype is an object", () => {
    expect(typeName(Object.create(null) as Record<string, never>)).toBe("object");
  });
});
