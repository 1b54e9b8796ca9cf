// Unknown builtin paths are parse errors, as in SurrealDB, with 2.x's suggestion; the engine implements nothing the
// parser would refuse. Texts recorded from the oracle (2.6.0; 1.5.4 refuses the same paths with its own parse error).

import { describe, expect, it } from "vitest";
import { builtinPaths, unknownPathMessage } from "../../grammar/builtin-paths.js";
import { parse } from "../../grammar/index.js";
import { builtinNames } from "../../src/exec/functions/index.js";

const parseError = (text: string, compat: 1 | 2): string => {
  try {
    parse(text, { compat });
  } catch (e) {
    return (e as Error).message;
  }
  return "parsed";
};

describe("unknown builtin paths", () => {
  it("answer 2.6.0's parse error over the whole path, with its suggestion when one is fewer than 4 edits away", () => {
    expect(parseError("RETURN uuid();", 2)).toBe(
      "Parse error: Invalid function/constant path, did you maybe mean `rand`\n --> [1:8]\n  |\n1 | RETURN uuid();\n  |        ^^^^ \n",
    );
    expect(parseError("RETURN is::email('a@b.c');", 2)).toBe(
      "Parse error: Invalid function/constant path\n --> [1:8]\n  |\n1 | RETURN is::email('a@b.c');\n  |        ^^^^^^^^^ \n",
    );
    expect(unknownPathMessage("session::sc", 2)).toBe("Invalid function/constant path, did you maybe mean `session::ac`");
    expect(unknownPathMessage("string::endsWith", 2)).toBe("Invalid function/constant path, did you maybe mean `string::ends_with`");
    expect(unknownPathMessage("type::file", 2)).toBe("Invalid function/constant path, did you maybe mean `type::field`");
    expect(unknownPathMessage("api::timeout", 2)).toBe("Invalid function/constant path");
  });

  it("are refused in compat 1 too (1.5.4 parses none of them), with the paths 1.5.4 knows and 2.6.0 does not", () => {
    for (const text of ["RETURN uuid();", "RETURN is::email('a');", "RETURN array::fill([1], 0);", "RETURN string::html::encode('a');", "RETURN math::NEG_INF;"]) {
      expect(parseError(text, 1)).toMatch(/^Parse error: Invalid function\/constant path\n/);
    }
    expect(parseError("RETURN string::endsWith('ab', 'b');", 1)).toBe("parsed");
    expect(parseError("RETURN session::sc();", 1)).toBe("parsed");
    expect(parseError("RETURN string::endsWith('ab', 'b');", 2)).toMatch(/did you maybe mean `string::ends_with`/);
  });

  it("match case-insensitively; constants and fn:: paths are not builtin calls", () => {
    expect(parseError("RETURN [MATH::pi, math::FRAC_PI_3, String::Len('a'), COUNT()];", 2)).toBe("parsed");
    expect(parseError("RETURN fn::anything(1);", 2)).toBe("parsed");
    expect(parseError("RETURN [time::EPOCH, time::MINIMUM, duration::MAX];", 2)).toBe("parsed");
    expect(parseError("RETURN time::EPOCH;", 1)).toMatch(/Invalid function\/constant path/);
  });

  it("the engine implements nothing the parser refuses, in either compat", () => {
    for (const compat of [1, 2] as const) {
      const known = new Set(builtinPaths(compat).map((p) => p.toLowerCase()));
      expect(builtinNames(compat).filter((n) => !known.has(n.toLowerCase()))).toEqual([]);
    }
  });
});
