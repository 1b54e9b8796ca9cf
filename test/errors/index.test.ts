import { describe, expect, it } from "vitest";
import { InvalidAuth, INVALID_AUTH, ParseError, SurrealError, ThrownError } from "../../src/errors/index.js";

describe("errors", () => {
  it("InvalidAuth shows only the generic text and keeps the reason apart", () => {
    const e = new InvalidAuth("user not found: bob");
    expect(e.message).toBe(INVALID_AUTH);
    expect(e.message).not.toContain("bob");
    expect(e.reason).toBe("user not found: bob");
    expect(e).toBeInstanceOf(SurrealError);
    expect(e.code).toBe("InvalidAuth");
  });
  it("THROW text is wrapped as SurrealDB does", () => {
    expect(new ThrownError("nope").message).toBe("An error occurred: nope");
  });
  it("ParseError carries its position", () => {
    const e = new ParseError("Unexpected token", { line: 2, column: 5, offset: 9 }, ["FROM"]);
    expect([e.line, e.column, e.offset, e.expected]).toEqual([2, 5, 9, ["FROM"]]);
  });
});
