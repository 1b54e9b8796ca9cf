// Parse → print against SurrealDB: fixtures/oracle-print.json holds [input, compat, INFO FOR text] recorded from
// SurrealDB 2.6.0 / 1.5.4 (`info` = INFO FOR, redacted; `plain` = the same statement's unredacted text where it differs).
// Expressions and statements were recorded as `DEFINE FIELD f ON t VALUE <expr>` / `DEFINE FUNCTION fn::p() { <stmt> }`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { Statement } from "../../src/ast/nodes.js";
import { printStatement } from "../../src/ast/print.js";

interface Fixture {
  readonly compat: 1 | 2;
  readonly input: string;
  readonly info: string;
  readonly plain?: string;
  readonly source: "define" | "expr" | "statement";
}

const fixtures: Fixture[] = JSON.parse(readFileSync(new URL("./fixtures/oracle-print.json", import.meta.url), "utf8"));

/** Cases the printer cannot get right yet because of another layer; `${compat} ${input}` ⇒ reason. */
const KNOWN_GAPS: Record<string, string> = {
  "2 DEFINE FIELD f ON t VALUE Infinity": "value: escapeIdent should backtick `Infinity` in 2.x",
  "2 DEFINE FUNCTION fn::p() { BEGIN; CREATE user; COMMIT; }": "SurrealDB reads BEGIN/COMMIT inside a block as field names",
  "1 DEFINE FUNCTION fn::p() { BEGIN; CREATE user; COMMIT; }": "SurrealDB reads BEGIN/COMMIT inside a block as field names",
  "2 DEFINE FIELD f ON t VALUE /ab+c/": "grammar: regex literals",
  "1 DEFINE FIELD f ON t VALUE /ab+c/": "grammar: regex literals",
  "2 DEFINE FIELD f ON t VALUE |$a: int| $a + 1": "grammar: closures",
  "2 DEFINE FIELD f ON t VALUE 1_000": "grammar: digit separators",
  "1 DEFINE FIELD f ON t VALUE 1_000": "grammar: 1.x reads 1_000 as an identifier",
  "1 DEFINE FIELD f ON t VALUE 0x10": "grammar: 1.x reads 0x10 as an identifier",
  "2 DEFINE FIELD f ON t VALUE $`a-b`": "grammar: escaped parameter names",
  "2 DEFINE FIELD f ON t VALUE $⟨weird⟩": "grammar: escaped parameter names",
  "1 DEFINE FIELD f ON t VALUE $`a-b`": "grammar: escaped parameter names",
  "1 DEFINE FIELD f ON t VALUE $⟨weird⟩": "grammar: escaped parameter names",
  "2 DEFINE FIELD f ON t VALUE <function> a": "grammar: `function` kind",
  "2 DEFINE FUNCTION fn::p() { <future> { 1 } }": "grammar: futures",
  "1 DEFINE FUNCTION fn::p() { <future> { 1 } }": "grammar: futures",
  "2 DEFINE FUNCTION fn::p() { sleep(1s) }": "grammar: sleep() as a function",
  "1 DEFINE FUNCTION fn::p() { sleep(1s) }": "grammar: sleep() as a function",
  "2 DEFINE FUNCTION fn::p() { function() { return 1; } }": "grammar: embedded JavaScript functions",
  "1 DEFINE FUNCTION fn::p() { function() { return 1; } }": "grammar: embedded JavaScript functions",
  "2 DEFINE FUNCTION fn::p() { $a[1..3] }": "grammar/AST: range index",
  "2 DEFINE FUNCTION fn::p() { $a[..3] }": "grammar/AST: range index",
  "2 DEFINE FUNCTION fn::p() { $x.{a, b} }": "grammar/AST: destructuring",
  "2 DEFINE FUNCTION fn::p() { $x?.a }": "grammar: optional chaining",
  "2 DEFINE FUNCTION fn::p() { $x.a?.b }": "grammar: optional chaining",
};

/** Printed texts that do not parse back to the same statement. */
const ROUNDTRIP_GAPS: Record<string, string> = {
  "2 DEFINE TOKEN tk1 ON DATABASE TYPE HS512 VALUE 'secret'": "SurrealDB too: the 2.x text of a DEFINE TOKEN reads back with an issuer",
  "2 DEFINE TOKEN tk3 ON DB TYPE hs256 VALUE 'x' COMMENT 'tok'": "SurrealDB too: the 2.x text of a DEFINE TOKEN reads back with an issuer",
  "2 DEFINE TOKEN tk4 ON SCOPE sc1 TYPE HS384 VALUE 'y'": "SurrealDB too: the 2.x text of a DEFINE TOKEN reads back with an issuer",
  "2 DEFINE FUNCTION fn::p() { DEFINE TOKEN IF NOT EXISTS tk1 ON DATABASE TYPE HS256 VALUE 'v' }": "SurrealDB too: the 2.x text of a DEFINE TOKEN reads back with an issuer",
  "1 DEFINE FIELD f ON t VALUE `select`": "grammar: 1.x prints keywords bare as field names",
  "2 DEFINE FUNCTION fn::p() { LET $f = |$a| $a }": "grammar: closures",
};

/** Stored definitions lose IF NOT EXISTS / OVERWRITE, as in SurrealDB. */
function stored(s: Statement): Statement {
  return "ifNotExists" in s ? ({ ...s, ifNotExists: false, overwrite: false } as Statement) : s;
}

function parseOne(text: string, compat?: 1 | 2): Statement {
  const statements = parse(text, { compat });
  expect(statements).toHaveLength(1);
  return stored(statements[0]!);
}

describe.each(["define", "expr", "statement"] as const)("printStatement(parse(text)) equals SurrealDB's text: %s", (source) => {
  for (const f of fixtures.filter((x) => x.source === source)) {
    const key = `${f.compat} ${f.input}`;
    const test = KNOWN_GAPS[key] === undefined ? it : it.skip;
    test(`v${f.compat} ${f.input}${KNOWN_GAPS[key] ? ` — ${KNOWN_GAPS[key]}` : ""}`, () => {
      const stmt = parseOne(f.input);
      expect(printStatement(stmt, { compat: f.compat, redact: true })).toBe(f.info);
      if (f.plain !== undefined) expect(printStatement(stmt, { compat: f.compat })).toBe(f.plain);
      // The printed text parses back (read as its version reads it) to a statement that prints the same.
      if (ROUNDTRIP_GAPS[key] !== undefined) return;
      const text = printStatement(stmt, { compat: f.compat });
      expect(printStatement(parseOne(text, f.compat), { compat: f.compat })).toBe(text);
    });
  }
});

describe("fixtures", () => {
  it("cover every DEFINE form of both versions", () => {
    const forms = (compat: 1 | 2) => new Set(fixtures.filter((f) => f.compat === compat && f.source === "define").map((f) => f.input.split(" ")[1]));
    expect([...forms(2)].sort()).toEqual(["ACCESS", "ANALYZER", "DATABASE", "EVENT", "FIELD", "FUNCTION", "INDEX", "NAMESPACE", "PARAM", "SCOPE", "TABLE", "TOKEN", "USER"]);
    expect([...forms(1)].sort()).toEqual(["ANALYZER", "DATABASE", "EVENT", "FIELD", "FUNCTION", "INDEX", "NAMESPACE", "PARAM", "SCOPE", "TABLE", "TOKEN", "USER"]);
  });
  it("every known gap names an existing fixture", () => {
    const keys = new Set(fixtures.map((f) => `${f.compat} ${f.input}`));
    for (const k of [...Object.keys(KNOWN_GAPS), ...Object.keys(ROUNDTRIP_GAPS)]) expect(keys.has(k), k).toBe(true);
  });
});
