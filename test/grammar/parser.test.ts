// grammar/parser.ts: the CST it builds (its own node children objects, chevrotain's hooks overridden).
import { describe, expect, it } from "vitest";
import { tokenize } from "../../grammar/lexer.js";
import { parser } from "../../grammar/parser.js";

function cst(text: string) {
  parser.input = tokenize(text).tokens;
  try {
    const n = parser.query();
    expect(parser.errors).toEqual([]);
    return n;
  } finally {
    parser.input = [];
  }
}

describe("CST node children", () => {
  it("inherit nothing: a key no rule wrote reads as undefined, even one of Object.prototype's names", () => {
    const children = cst("SELECT * FROM a").children as Record<string, unknown>;
    for (const key of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) expect(children[key]).toBeUndefined();
    expect("toString" in children).toBe(false);
    expect(Object.keys(children)).toEqual(["statement"]);
  });
});
