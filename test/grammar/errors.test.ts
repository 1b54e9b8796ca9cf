import { describe, expect, it } from "vitest";
import { parse, parseExpr, parseRecordId, parseType } from "../../grammar/index.js";
import { ParseError } from "../../src/errors/index.js";
import { DURATION_MAX } from "../../src/value/duration.js";
import { RecordId, Uuid } from "../../src/value/types.js";
import { parseFails } from "./helpers.js";

describe("parse errors read like SurrealDB 2.6 (texts recorded from the oracle)", () => {
  const cases: [string, string][] = [
    ["SELECT * FROM FROM user;", "Parse error: Unexpected token `USER`, expected Eof\n --> [1:20]\n  |\n1 | SELECT * FROM FROM user;\n  |                    ^^^^ \n"],
    ["SELECT * FROM", "Parse error: Unexpected end of file, expected an expression\n --> [1:13]\n  |\n1 | SELECT * FROM\n  |             ^ \n"],
    ["RETURN 'abc", "Parse error: Unexpected end of file, expected strand to end\n --> [1:8]\n  |\n1 | RETURN 'abc\n  |        ^^^^ \n"],
    ["RETURN 1 ^ 2", "Parse error: Invalid token `^`\n --> [1:10]\n  |\n1 | RETURN 1 ^ 2\n  |          ^ \n"],
    ["DEFINE TABLE", "Parse error: Unexpected end of file, expected an identifier\n --> [1:12]\n  |\n1 | DEFINE TABLE\n  |            ^ \n"],
    ["DEFINE FOO x", "Parse error: Unexpected token `an identifier`, expected a define statement keyword\n --> [1:8]\n  |\n1 | DEFINE FOO x\n  |        ^^^ \n"],
    ["LET x = 1", "Parse error: Unexpected token `an identifier`, expected a parameter\n --> [1:5]\n  |\n1 | LET x = 1\n  |     ^ \n"],
    [
      "SELECT * FROM user WHERE (a = 1;",
      "Parse error: Unexpected token `;` expected delimiter `)`\n --> [1:32]\n  |\n1 | SELECT * FROM user WHERE (a = 1;\n  |                                ^ \n --> [1:26]\n  |\n1 | SELECT * FROM user WHERE (a = 1;\n  |                          ^ expected this delimiter to close\n",
    ],
    // an alias keyword is named by the keyword it stands for
    ["SELECT * FROM x NS", "Parse error: Unexpected token `NAMESPACE`, expected Eof\n --> [1:17]\n  |\n1 | SELECT * FROM x NS\n  |                 ^^ \n"],
    // USE only at the top of a query: never inside a block, a function or an event body (pentest R2)
    [
      "RETURN { USE DB o; 1 }",
      "Parse error: Unexpected token `DATABASE` expected delimiter `}`\n --> [1:14]\n  |\n1 | RETURN { USE DB o; 1 }\n  |              ^^ \n --> [1:8]\n  |\n1 | RETURN { USE DB o; 1 }\n  |        ^ expected this delimiter to close\n",
    ],
    [
      "DEFINE FUNCTION fn::go() { USE NS other DB o; RETURN 1; }",
      "Parse error: Unexpected token `NAMESPACE` expected delimiter `}`\n --> [1:32]\n  |\n1 | DEFINE FUNCTION fn::go() { USE NS other DB o; RETURN 1; }\n  |                                ^^ \n --> [1:26]\n  |\n1 | DEFINE FUNCTION fn::go() { USE NS other DB o; RETURN 1; }\n  |                          ^ expected this delimiter to close\n",
    ],
    ["DEFINE EVENT x ON t THEN USE NS o", "Parse error: Unexpected token `NAMESPACE`, expected Eof\n --> [1:30]\n  |\n1 | DEFINE EVENT x ON t THEN USE NS o\n  |                              ^^ \n"],
    // TRANSACTION only at the top of a query: in a block BEGIN / COMMIT / CANCEL stand bare (audit D2; 1.5.4: "Missing closing delimiter")
    ["RETURN { BEGIN TRANSACTION; RETURN 1; };", "Parse error: Unexpected token `TRANSACTION` expected delimiter `}`\n --> [1:16]\n  |\n1 | RETURN { BEGIN TRANSACTION; RETURN 1; };\n  |                ^^^^^^^^^^^ \n --> [1:8]\n  |\n1 | RETURN { BEGIN TRANSACTION; RETURN 1; };\n  |        ^ expected this delimiter to close\n"],
    ["RETURN { RETURN 1; COMMIT TRANSACTION; };", "Parse error: Unexpected token `TRANSACTION` expected delimiter `}`\n --> [1:27]\n  |\n1 | RETURN { RETURN 1; COMMIT TRANSACTION; };\n  |                           ^^^^^^^^^^^ \n --> [1:8]\n  |\n1 | RETURN { RETURN 1; COMMIT TRANSACTION; };\n  |        ^ expected this delimiter to close\n"],
    ["RETURN { CANCEL TRANSACTION };", "Parse error: Unexpected token `TRANSACTION` expected delimiter `}`\n --> [1:17]\n  |\n1 | RETURN { CANCEL TRANSACTION };\n  |                 ^^^^^^^^^^^ \n --> [1:8]\n  |\n1 | RETURN { CANCEL TRANSACTION };\n  |        ^ expected this delimiter to close\n"],
    ["RETURN {\n  BEGIN TRANSACTION;\n};", "Parse error: Unexpected token `TRANSACTION` expected delimiter `}`\n --> [2:9]\n  |\n2 | BEGIN TRANSACTION;\n  |       ^^^^^^^^^^^ \n --> [1:8]\n  |\n1 | RETURN {\n  |        ^ expected this delimiter to close\n"],
    ["RETURN [1, 2", "Parse error: Unexpected token `Eof` expected delimiter `]`\n --> [1:12]\n  |\n1 | RETURN [1, 2\n  |            ^ \n --> [1:8]\n  |\n1 | RETURN [1, 2\n  |        ^ expected this delimiter to close\n"],
  ];
  for (const [text, message] of cases) {
    it(text, () => expect(parseFails(text).message).toBe(message));
  }
  it("BEGIN / COMMIT / CANCEL TRANSACTION in a block are refused with compat 1 too (1.5.4: \"Missing closing delimiter\"); bare, they parse", () => {
    for (const text of ["RETURN { BEGIN TRANSACTION; 1 }", "DEFINE FUNCTION fn::f() { COMMIT TRANSACTION; }", "IF true { CANCEL TRANSACTION }"]) {
      expect(() => parse(text, { compat: 1 }), text).toThrow(/^Parse error: Unexpected token `TRANSACTION` expected delimiter `}`/);
    }
    expect(parse("RETURN { BEGIN; RETURN 1; COMMIT; }", { compat: 1 })).toHaveLength(1);
  });
  it("the token-duration error, with the long line shortened as SurrealDB does", () => {
    const e = parseFails('DEFINE USER x ON ROOT PASSWORD "a" DURATION FOR TOKEN NONE;');
    expect(e.message).toBe("Parse error: Unexpected token `NONE`, expected a token duration\n --> [1:55]\n  |\n1 | ...FOR TOKEN NONE;\n  |              ^^^^ \n");
  });
  it("long lines: start truncated past column 50, end truncated at 80 characters", () => {
    const a = "a".repeat(37);
    expect(parseFails(`SELECT * FROM user WHERE ${a} = 1 FROM x;`).message).toBe(
      "Parse error: Unexpected token `FROM`, expected Eof\n --> [1:68]\n  |\n1 | ...aaaaa = 1 FROM x;\n  |              ^^^^ \n",
    );
    expect(parseFails(`SELECT * FROM user WHERE aaaaaaaaaaaaaaaaa = 1 FROM x;`).snippet).toContain("1 | SELECT * FROM user WHERE aaaaaaaaaaaaaaaaa = 1 FROM x;\n");
    expect(parseFails(`SELECT * FROM FROM user WHERE ${"a".repeat(120)} = 1;`).snippet).toBe(
      ` --> [1:20]\n  |\n1 | SELECT * FROM FROM user WHERE ${"a".repeat(47)}...\n  |                    ^^^^ \n`,
    );
  });
});

describe("error positions", () => {
  it("line and column are 1-based across lines, with a caret under the token", () => {
    const e = parseFails("SELECT *\nFROM user\nWHERE a = = 1");
    expect([e.line, e.column, e.offset]).toEqual([3, 11, 29]);
    expect(e.snippet).toContain("3 | WHERE a = = 1\n  |           ^ ");
  });
  it("long lines are shortened around the error", () => {
    const e = parseFails(`RETURN ${"1 + ".repeat(40)}* 2`);
    expect(e.snippet).toContain("...");
    expect(e.column).toBe(168);
  });
  it("expected lists are exposed", () => {
    expect(parseFails("SELECT * FROM user;; USE").expected.length).toBeGreaterThan(0);
    expect(parseFails("SELECT * FROM user WHERE").expected).toEqual(["an expression"]);
  });
  it("unterminated comments and strings, stray characters", () => {
    // texts recorded from SurrealDB 2.6
    expect(parseFails("RETURN 1 /* open").message).toBe("Parse error: Unexpected end of file, expected multi-line comment to end.\n --> [1:10]\n  |\n1 | RETURN 1 /* open\n  |          ^^ Comment starts here.\n");
    expect(parseFails('RETURN d"2020').message).toContain("expected strand to end");
    expect(parseFails("RETURN ⟨abc").message).toBe("Parse error: Unexpected end of file, expected identifier to end with `⟩`\n --> [1:8]\n  |\n1 | RETURN ⟨abc\n  |        ^^^^ \n");
    expect(parseFails("SELECT * FROM tb:`abc").message).toBe("Parse error: Unexpected end of file, expected identifier to end with ```\n --> [1:18]\n  |\n1 | SELECT * FROM tb:`abc\n  |                  ^^^^ \n");
    expect(parseFails("RETURN `a\\`b").message).toBe("Parse error: Unexpected end of file, expected identifier to end with ```\n --> [1:8]\n  |\n1 | RETURN `a\\`b\n  |        ^^^^^ \n");
    expect(parseFails('RETURN "abc').message).toBe('Parse error: Unexpected end of file, expected strand to end\n --> [1:8]\n  |\n1 | RETURN "abc\n  |        ^^^^ \n');
    expect(parseFails("RETURN 1 ¤").message).toContain("Invalid token `¤`");
    expect(parseFails('RETURN "\\u{110000}"').message).toContain("Invalid escape character in strand");
    expect(parseFails("RETURN '\\uZZZZ'").message).toContain("Invalid escape character in strand");
    expect(parseFails("RETURN user:u'\\u{zz}'").column).toBe(13);
  });
  it("deep nesting gives a ParseError, not a stack overflow", () => {
    expect(parseFails("RETURN " + "(".repeat(10_000) + "1" + ")".repeat(10_000)).message).toContain("maximum parse depth");
    expect(parseFails("RETURN " + "[".repeat(300)).message).toContain("maximum parse depth");
    expect(() => parse("RETURN " + "!".repeat(20_000) + "true")).toThrow(ParseError);
    expect(parse("RETURN " + "(".repeat(100) + "1" + ")".repeat(100))).toHaveLength(1);
  });
  it("very long flat input parses", () => {
    expect(parse("RETURN " + Array.from({ length: 5000 }, (_, i) => String(i)).join(" + "))).toHaveLength(1);
    expect(parse("CREATE t SET a = 1;".repeat(2000))).toHaveLength(2000);
  });
});

describe("parseExpr / parseRecordId / parseType", () => {
  it("parseExpr needs exactly one expression", () => {
    expect(parseExpr("1 + 1").kind).toBe("Binary");
    expect(() => parseExpr("1; 2")).toThrow(ParseError);
    expect(() => parseExpr("")).toThrow(ParseError);
  });
  it("parseRecordId accepts every token ID form and nothing else", () => {
    expect(parseRecordId("user:1")).toEqual(new RecordId("user", 1n));
    expect(parseRecordId("user:tobie")).toEqual(new RecordId("user", "tobie"));
    expect(parseRecordId("user:⟨a.b⟩")).toEqual(new RecordId("user", "a.b"));
    expect(parseRecordId("user:`x`")).toEqual(new RecordId("user", "x"));
    expect(parseRecordId("user:[1, 'a']")).toEqual(new RecordId("user", [1n, "a"]));
    expect(parseRecordId("user:{a: 1}")).toEqual(new RecordId("user", { a: 1n }));
    expect(parseRecordId(`user:u"e72bee20-f49b-4c4b-9a47-0b4d0f5f9a5a"`)).toEqual(new RecordId("user", new Uuid("e72bee20-f49b-4c4b-9a47-0b4d0f5f9a5a")));
    for (const bad of ["user", "user:", "user:1 + 1", "user:1; DROP", "user:rand()", "user:[$x]", "", "$auth", "1", "user:1.name"]) {
      expect(() => parseRecordId(bad), bad).toThrow(ParseError);
    }
  });
  it("parseType", () => {
    expect(parseType("option<string>")).toEqual({ kind: "Option", inner: { kind: "Basic", name: "string" } });
    expect(() => parseType("option<")).toThrow(ParseError);
  });
});

describe("a query read a statement at a time reports what a whole-query parse reports", () => {
  const message = (text: string): string => {
    try {
      parse(text);
    } catch (e) {
      if (e instanceof ParseError) return e.message;
      throw e;
    }
    throw new Error(`parsed: ${text}`);
  };

  it("a syntax error after a statement whose AST fails wins (syntax errors first, then AST errors, in text order)", () => {
    expect(message("DEFINE PARAM $x; SELECT * FROM FROM user;")).toContain("Unexpected token `USER`, expected Eof");
    expect(message("DEFINE PARAM $x; RETURN 1;")).toContain("Missing VALUE clause in DEFINE PARAM");
    expect(message("RETURN 1; DEFINE PARAM $x; DEFINE PARAM $y;")).toContain("[1:24]");
  });

  it("statements end at `;` or the end; empty statements are skipped", () => {
    expect(parse(";;RETURN 1;;; RETURN 2").map((s) => s.kind)).toEqual(["Return", "Return"]);
    expect(parse("")).toEqual([]);
    expect(message("RETURN 1 RETURN 2")).toContain("Unexpected token `RETURN`, expected Eof");
    expect(message("RETURN 1; )")).toContain("Unexpected token `)`, expected Eof");
  });
});

describe("experimental and future syntax (2.6.0's answers)", () => {
  const refText = (line: number, col: number, src: string, carets: string, kw: string) =>
    `Parse error: Experimental capability \`record_references\` is not enabled\n --> [${line}:${col}]\n  |\n${line} | ${src}\n  | ${" ".repeat(col - 1)}${carets} Use of \`${kw}\` keyword is still experimental\n`;
  it.each([
    ["DEFINE FIELD r ON t TYPE record<x> REFERENCE;", refText(1, 34, "DEFINE FIELD r ON t TYPE record<x> REFERENCE;", "^", "REFERENCE")],
    ["DEFINE FIELD r ON t TYPE option<record<x>> REFERENCE ON DELETE CASCADE;", refText(1, 42, "DEFINE FIELD r ON t TYPE option<record<x>> REFERENCE ON DELETE CASCADE;", "^", "REFERENCE")],
    ["DEFINE FIELD refs ON x TYPE references<t>;", refText(1, 29, "DEFINE FIELD refs ON x TYPE references<t>;", "^^^^^^^^^^", "REFERENCES")],
    ["RETURN <references> 1;", refText(1, 9, "RETURN <references> 1;", "^^^^^^^^^^", "REFERENCES")],
  ])("%s", (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });

  it("REFERENCE elsewhere is still a plain syntax error", () => {
    expect(() => parse("SELECT * FROM t REFERENCE")).toThrow("Unexpected token `an identifier`, expected Eof");
  });

  it("`<future>` takes a block: a cast kept for the printer, and nothing else after it", () => {
    expect(parseExpr("<future> { 1 + 1 }")).toMatchObject({ kind: "Cast", type: { kind: "Basic", name: "future" }, expr: { kind: "Block" } });
    expect(() => parseExpr("<future> 1")).toThrow("Parse error: Unexpected token `a number`, expected {");
    expect(() => parse("DEFINE FIELD f ON t TYPE future")).toThrow("expected a kind name");
  });
});

describe("duration literals past Duration::MAX (2.6.0's words)", () => {
  it.each([
    ["RETURN 1000000000000y", "Parse error: Invalid duration, value overflowed maximum allowed value"],
    ["RETURN 213503982334602d", "Parse error: Invalid duration, value overflowed maximum allowed value"],
    ["RETURN 18446744073709551616s", "Parse error: Invalid token, failed to parse duration digits: number too large to fit in target type"],
    ["RETURN 1s99999999999999999999999ns", "Parse error: Invalid token, failed to parse duration digits: number too large to fit in target type"],
  ])("%s", (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
  it("compat 1 reads one in an expression as a field of that name, as 1.5.4 does (oracle: NONE; audit D3); elsewhere it is refused", () => {
    for (const text of ["584942417356y", "18446744073709551616s", "1s99999999999999999999999ns"]) {
      expect(parse(`RETURN ${text}`, { compat: 1 })[0]).toMatchObject({ kind: "Return", value: { kind: "Idiom", parts: [{ kind: "Field", name: text }] } });
    }
    expect(parse("RETURN 584942417355y", { compat: 1 })[0]).toMatchObject({ kind: "Return", value: { kind: "Literal" } });
    // parts that fit saturate their sum at the maximum in 1.5.4; 2.6.0 refuses the sum
    expect(parse("RETURN 584942417355y52w", { compat: 1 })[0]).toMatchObject({ kind: "Return", value: { kind: "Literal", value: DURATION_MAX } });
    expect(() => parse("RETURN 584942417355y52w")).toThrow("Parse error: Invalid duration, value overflowed maximum allowed value");
    expect(() => parse("SLEEP 584942417356y", { compat: 1 })).toThrow("Parse error: Invalid duration, value overflowed maximum allowed value");
  });
});
