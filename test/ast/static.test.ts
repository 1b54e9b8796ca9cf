// ast/static: which VALUE expressions let a field left NONE skip the TYPE check before VALUE (2.6.0 / 1.5.4 facts).

import { describe, expect, it } from "vitest";
import { parseExpr } from "../../grammar/index.js";
import { isStaticExpr } from "../../src/ast/static.js";

describe("isStaticExpr", () => {
  it.each([
    ["'a'", true, true],
    ["time::now()", true, true],
    ["[1, time::now()]", true, true],
    ["{ a: 1 }", true, true],
    ["math::pi", true, true],
    ["<string> 1", true, false],
    ["1 + 1", false, false],
    ["$value OR 'd'", false, false],
    ["[1][0]", false, false],
    ["fn::x()", false, false],
    ["{ RETURN 'q' }", false, false],
    ["(SELECT * FROM [1])", false, false],
  ] as const)("%s: 2.x %s, 1.x %s", (text, v2, v1) => {
    expect(isStaticExpr(parseExpr(text), 2)).toBe(v2);
    expect(isStaticExpr(parseExpr(text), 1)).toBe(v1);
  });
});
