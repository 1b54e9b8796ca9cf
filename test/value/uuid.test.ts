import { describe, expect, it } from "vitest";
import { parseUuid, tryParseUuid, uuidFromBytes, uuidToBytes, uuidV4, uuidV7 } from "../../src/value/uuid.js";

describe("uuid", () => {
  it("parses the hyphenated form, lower-casing it", () => {
    expect(parseUuid("018F5B5C-8A3A-7B3C-9D1E-123456789ABC").text).toBe("018f5b5c-8a3a-7b3c-9d1e-123456789abc");
    expect(tryParseUuid("nope")).toBeUndefined();
    expect(tryParseUuid("018f5b5c8a3a7b3c9d1e123456789abc")).toBeUndefined();
    expect(() => parseUuid("x")).toThrow();
  });
  it("generates v4 and v7 with the right version and variant", () => {
    expect(uuidV4().text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const v7 = uuidV7(0x018f5b5c8a3a);
    expect(v7.text).toMatch(/^018f5b5c-8a3a-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidV7().text < uuidV7(Date.now() + 10_000).text).toBe(true);
  });
  it("round-trips through bytes", () => {
    const u = uuidV4();
    expect(uuidToBytes(u)).toHaveLength(16);
    expect(uuidFromBytes(uuidToBytes(u)).text).toBe(u.text);
  });
});
