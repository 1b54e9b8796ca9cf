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

describe("CST children held under a key", () => {
  type Children = Record<string, unknown>;
  const kids = (n: unknown): Children => (n as { children: Children }).children;
  it("are the child itself when it is the only one, an array in source order from a second on", () => {
    const select = kids(kids(kids(cst("SELECT a, b FROM t")).statement).selectStmt);
    expect((select.SELECT as { image: string }).image).toBe("SELECT");
    const fields = kids(select.fields);
    expect((fields.Comma as { image: string }).image).toBe(",");
    expect((fields.field as unknown[]).map((f) => (kids(kids(kids(f).expr).identStart).IdentName as { image: string }).image)).toEqual(["a", "b"]);
  });
});
