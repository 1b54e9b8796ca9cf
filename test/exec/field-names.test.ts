import { describe, expect, it } from "vitest";
import { fieldIdiom, namedFieldPlace } from "../../src/exec/field-names.js";

describe("type::field names", () => {
  it("a field path places its value at that path, indexes as object keys (oracle: tags[0] → { tags: { 0: … } })", () => {
    expect(namedFieldPlace(fieldIdiom("address.city"), "London", 2)).toEqual({ path: ["address", "city"], value: "London" });
    expect(namedFieldPlace(fieldIdiom("tags[0]"), "a", 2)).toEqual({ path: ["tags", "0"], value: "a" });
    expect(namedFieldPlace(fieldIdiom("`a b`"), 1n, 2)).toEqual({ path: ["a b"], value: 1n });
  });
  it("another part ends the path: NULL in 2.6.0, an empty object in 1.5.4 (oracle)", () => {
    expect(namedFieldPlace(fieldIdiom("tags[*]"), ["a"], 2)).toEqual({ path: ["tags"], value: null });
    expect(namedFieldPlace(fieldIdiom("address.*"), ["x"], 1)).toEqual({ path: ["address"], value: {} });
  });
  it("a string that is not an idiom is a parse error", () => {
    expect(() => fieldIdiom("1")).toThrow(/Parse error: Unexpected token `1`, expected an identifier/);
    expect(() => fieldIdiom("a b")).toThrow(/Parse error/);
  });
});
