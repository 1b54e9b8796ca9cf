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

  it("an aliased field is selected by its alias only in 1.x (2.6.0: by its path too)", () => {
    expect(error("SELECT a AS x FROM t GROUP BY a", 1)).toBe("Parse error: Found 'a' in GROUP BY clause at line 1 column 32, but field is is not present in SELECT expression");
    expect(error("SELECT a AS x FROM t ORDER BY a", 1)).toBe("Parse error: Found 'a' in ORDER BY clause at line 1 column 32, but field is is not present in SELECT expression");
    expect(error("SELECT a AS x FROM t SPLIT a", 1)).toBe("Parse error: Found 'a' in SPLIT ON clause at line 1 column 29, but field is is not present in SELECT expression");
    for (const text of ["SELECT a AS x FROM t GROUP BY a", "SELECT a AS x FROM t ORDER BY a", "SELECT a AS x FROM t SPLIT a"]) expect(error(text, 2)).toBe("parsed");
  });
});

describe("1.x: a field beside GROUP BY that is not grouped, an aggregate or static (texts from 1.5.4; 2.6.0 parses each)", () => {
  const refused = (field: string, column: number) => `Parse error: Found '${field}' in SELECT clause at line 1 column ${column}, but field is not an aggregate function, and is not present in GROUP BY expression`;
  it.each([
    ["SELECT a, b FROM t GROUP BY a", refused("b", 30)],
    ["SELECT * FROM t GROUP BY a", refused("*", 27)],
    ["SELECT a, b + 1 AS x FROM t GROUP BY a", refused("b + 1 AS x", 39)],
    ["SELECT a, math::sum(b) + 1 AS s FROM t GROUP BY a", refused("math::sum(b) + 1 AS s", 50)],
    ["SELECT a, string::len(b) AS g FROM t GROUP BY a", refused("string::len(b) AS g", 48)],
    ["SELECT a, c, b FROM t GROUP BY a, b", refused("c", 36)],
    ["SELECT a, $x AS v FROM t GROUP BY a", refused("$x AS v", 36)],
    ["SELECT a, id FROM t GROUP BY a", refused("id", 31)],
    ["SELECT a, (SELECT * FROM t) AS q FROM t GROUP BY a", refused("(SELECT * FROM t) AS q", 51)],
    ["SELECT a.b, c FROM t GROUP BY a.b", refused("c", 34)],
    ["SELECT a, b FROM t WHERE a = 5 GROUP BY a", refused("b", 42)],
    ["SELECT a, (1) AS z FROM t GROUP BY a", refused("(1) AS z", 37)],
    ["SELECT a, <int> 1 AS z FROM t GROUP BY a", refused("<int> 1 AS z", 41)],
    ["SELECT a, fn::f() AS z FROM t GROUP BY a", refused("fn::f() AS z", 41)],
    ["SELECT a, a.b AS z FROM t GROUP BY a", refused("a.b AS z", 37)],
    ["SELECT a, [b] AS z FROM t GROUP BY a", refused("[b] AS z", 37)],
    ["SELECT *, count() AS n FROM t GROUP BY a", refused("*", 41)],
  ])("%s", (text, v1) => {
    expect(error(text, 1)).toBe(v1);
    expect(error(text, 2)).toBe("parsed");
  });

  it("points after the last GROUP BY path, on its line", () => {
    expect(error("SELECT a\n, b FROM t\nGROUP BY\n  a", 1)).toBe("Parse error: Found 'b' in SELECT clause at line 4 column 4, but field is not an aggregate function, and is not present in GROUP BY expression");
  });

  it.each([
    "SELECT a, count() AS n, array::first(b) AS f, math::top(b, 1) AS t, COUNT() AS c FROM t GROUP BY a",
    "SELECT a, 'x' AS k, [1, 2] AS l, { x: 1 } AS o, 1 + 1 AS two, -1 AS m, count() + 1 AS n, NONE AS z, 1d AS d FROM t GROUP BY a",
    "SELECT b AS a FROM t GROUP BY a",
    "SELECT a AS x, a FROM t GROUP BY a",
    "SELECT a, b FROM t GROUP ALL",
    "SELECT a, count() AS n OMIT x FROM t GROUP BY a",
  ])("%s parses in both", (text) => {
    expect(error(text, 1)).toBe("parsed");
    expect(error(text, 2)).toBe("parsed");
  });
});
