// grammar/to-ast/selection: a SPLIT, GROUP BY or ORDER BY path must be selected, in each version's words (texts
// recorded from the oracle: 2.6.0 "Missing … idiom", 1.5.4 "Found '…' in … clause at line L column C, …").

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";

const error = (text: string, compat: 1 | 2): string => {
  try {
    parse(text, { compat });
  } catch (e) {
    return (e as Error).message.split("\n")[0]!;
  }
  return "parsed";
};

describe("GROUP BY / ORDER BY paths the selection does not output", () => {
  it.each([
    ["SELECT name FROM t GROUP BY age", "Missing group idiom `age` in statement selection", "Found 'age' in GROUP BY clause at line 1 column 32, but field is is not present in SELECT expression"],
    ["SELECT count() FROM t GROUP BY age", "Missing group idiom `age` in statement selection", "Found 'age' in GROUP BY clause at line 1 column 35, but field is is not present in SELECT expression"],
    ["SELECT name FROM t ORDER BY age", "Missing order idiom `age` in statement selection", "Found 'age' in ORDER BY clause at line 1 column 32, but field is is not present in SELECT expression"],
    ["SELECT name FROM t ORDER BY name.first", "Missing order idiom `name.first` in statement selection", "Found 'name.first' in ORDER BY clause at line 1 column 39, but field is is not present in SELECT expression"],
    ["SELECT VALUE name FROM t ORDER BY age", "Missing order idiom `age` in statement selection", "Found 'age' in ORDER BY clause at line 1 column 38, but field is is not present in SELECT expression"],
    ["SELECT name FROM t ORDER BY id", "Missing order idiom `id` in statement selection", "Found 'id' in ORDER BY clause at line 1 column 31, but field is is not present in SELECT expression"],
  ])("%s", (text, v2, v1) => {
    expect(error(text, 2)).toBe(`Parse error: ${v2}`);
    expect(error(text, 1)).toBe(`Parse error: ${v1}`);
  });

  it.each(["SELECT VALUE name FROM t ORDER BY name", "SELECT name AS n FROM t ORDER BY n", "SELECT name FROM t ORDER BY rand()", "SELECT * FROM t ORDER BY age", "SELECT `na me` FROM t ORDER BY `na me`"])(
    "%s parses (selected, aliased, random or *)",
    (text) => {
      expect(error(text, 2)).toBe("parsed");
      expect(error(text, 1)).toBe("parsed");
    },
  );

  it("a non-aggregate field beside GROUP BY parses (2.6.0; 1.5.4 refuses it: not reproduced)", () => {
    expect(error("SELECT name, age FROM t GROUP BY age", 2)).toBe("parsed");
  });
});
