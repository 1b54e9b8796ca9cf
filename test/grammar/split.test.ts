import { describe, expect, it } from "vitest";
import { StatementSplitter, caretSnippet, firstTokenPosition, sourcePosition, type StatementText } from "../../grammar/split.js";

const TEXT = [
  "USE NS a DB b; -- a comment; with a semicolon",
  "DEFINE FUNCTION fn::f($x: string) { LET $y = 'a;b'; RETURN $y + \"c;\\\"d\"; };",
  "/* block; comment */ CREATE t:⟨x;y⟩ SET `we;ird` = [1; 2], s = 'it\\'s; fine';",
  "# hash; comment",
  "SELECT * FROM t WHERE a = 1",
].join("\n");

function splitAll(chunks: string[]): StatementText[] {
  const s = new StatementSplitter();
  const out = chunks.flatMap((c) => s.push(c));
  const last = s.end();
  return last ? [...out, last] : out;
}

describe("StatementSplitter", () => {
  it("ends statements at ';' outside strings, comments, identifiers and brackets, with where each text starts", () => {
    const parts = splitAll([TEXT]);
    expect(parts.map((p) => p.text.trim().slice(0, 12))).toEqual(["USE NS a DB ", "-- a comment", "/* block; co", "# hash; comm"]);
    expect(parts.map((p) => [p.line, p.column])).toEqual([
      [1, 1],
      [1, 15],
      [2, 76],
      [3, 78],
    ]);
    expect(parts.map((p) => p.text).join("")).toBe(TEXT);
  });

  it("gives the same statements however the text is cut into chunks", () => {
    const whole = splitAll([TEXT]);
    for (let cut = 1; cut < TEXT.length; cut++) expect(splitAll([TEXT.slice(0, cut), TEXT.slice(cut)])).toEqual(whole);
    expect(splitAll([...TEXT])).toEqual(whole);
  });

  it("maps positions inside a statement to the source, and draws the caret under the source column", () => {
    const [, second] = splitAll(["USE NS a DB b;  CREATE x;\nSELECT\n  nope;"]);
    expect(second).toMatchObject({ line: 1, column: 15 });
    expect(sourcePosition(second!, 1, 3)).toEqual({ line: 1, column: 17 });
    expect(firstTokenPosition(second!)).toEqual({ line: 1, column: 17 });
    const [, , third] = splitAll(["USE NS a DB b;  CREATE x;\nSELECT\n  nope;"]);
    expect(sourcePosition(third!, 3, 3)).toEqual({ line: 3, column: 3 });
    expect(caretSnippet(third!, 3, 3)).toBe("  nope;\n  ^");
    expect(caretSnippet(second!, 1, 17)).toBe("                CREATE x;\n                ^");
  });
});

describe("StatementSplitter: regex literals", () => {
  it("reads /…/ where an operand is expected as a regex (its ';', quotes and brackets are the regex's), elsewhere '/' divides", () => {
    const text = "DEFINE FIELD n ON t ASSERT $value = /^[a-z' ;(]+$/; RETURN /a\\/;b/ OR 1; RETURN 6 / 3; RETURN 1;\nRETURN $x / 2; RETURN (4) / 2; RETURN [1][0] /* c; */ / 1; SELECT * FROM t WHERE s = /x;/ # x; y\n; RETURN 'a' / 1;";
    const stmts = splitAll([text]).map((p) => p.text.trim());
    expect(stmts).toEqual([
      "DEFINE FIELD n ON t ASSERT $value = /^[a-z' ;(]+$/;",
      "RETURN /a\\/;b/ OR 1;",
      "RETURN 6 / 3;",
      "RETURN 1;",
      "RETURN $x / 2;",
      "RETURN (4) / 2;",
      "RETURN [1][0] /* c; */ / 1;",
      "SELECT * FROM t WHERE s = /x;/ # x; y\n;",
      "RETURN 'a' / 1;",
    ]);
    for (let cut = 1; cut < text.length; cut++) expect(splitAll([text.slice(0, cut), text.slice(cut)]).map((p) => p.text.trim())).toEqual(stmts);
  });
});
