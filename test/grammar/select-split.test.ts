// grammar/to-ast/selection: a SPLIT path must be selected — by path, alias, a function's name or `*` — in each version's words.

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";

describe("SPLIT paths", () => {
  it("accepts a path the selection outputs", () => {
    for (const text of ["SELECT name, tags FROM t SPLIT tags", "SELECT * FROM t SPLIT nope", "SELECT tags AS x FROM t SPLIT ON x", "SELECT count() FROM t SPLIT count", "SELECT a.b FROM t SPLIT a.b, a.b"]) {
      expect(parse(text)[0]).toMatchObject({ kind: "Select", split: expect.any(Array) });
    }
  });
  it("refuses one it does not (a prefix, an element, the aliased expression's path), 2.x words", () => {
    expect(() => parse("SELECT name FROM person SPLIT tags")).toThrow("Missing split idiom `tags` in statement selection");
    for (const text of ["SELECT addr FROM t SPLIT addr.cities", "SELECT addr.cities[0] FROM t SPLIT addr.cities", "SELECT tags AS t FROM t SPLIT t.x", "SELECT a, tags[0] FROM t SPLIT tags"]) {
      expect(() => parse(text), text).toThrow("Missing split idiom");
    }
  });
  it("1.x words, pointing after the path", () => {
    expect(() => parse("SELECT name FROM person SPLIT tags;", { compat: 1 })).toThrow("Found 'tags' in SPLIT ON clause at line 1 column 35, but field is is not present in SELECT expression");
  });
});
