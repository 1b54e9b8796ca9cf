// Compat 1 reads what 1.5.4 reads: its `record(table)` spelling, and none of the 2.x syntax 1.5.4 refuses (oracle:
// each statement below is a parse error on 1.5.4 and parses on 2.6.0). 1.5.4's own parse errors are worded differently
// ("Failed to parse query at line … expected query to end"); ours name the 2.x syntax.

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineFieldStatement } from "../../src/ast/nodes.js";

const V2_ONLY = [
  ["UPSERT t:1 SET a = 1", "UPSERT"],
  ["REMOVE ACCESS a ON DATABASE", "REMOVE ACCESS"],
  ["DEFINE TABLE OVERWRITE t2", "DEFINE … OVERWRITE"],
  ["INSERT RELATION INTO likes { in: a:1, out: b:1 }", "INSERT RELATION"],
  ["DEFINE USER u ON DATABASE PASSWORD 'p' DURATION FOR TOKEN 1h", "DEFINE USER … DURATION"],
  ["DEFINE ACCESS a ON DATABASE TYPE RECORD", "DEFINE ACCESS"],
  ["DEFINE TOKEN tk ON DATABASE TYPE JWKS VALUE 'http://x'", "DEFINE TOKEN … TYPE JWKS"],
] as const;

describe("compat 1 refuses 2.x syntax", () => {
  it.each(V2_ONLY)("%s", (text, what) => {
    expect(() => parse(text, { compat: 1 })).toThrow(`Parse error: ${what} is SurrealDB 2.x syntax, not available with --compat 1`);
    expect(() => parse(text, { compat: 2 })).not.toThrow();
  });

  it("points at the 2.x word", () => {
    expect(() => parse("USE NS a DB b;\nUPSERT t:1 SET a = 1", { compat: 1 })).toThrow(/ --> \[2:1\]/);
    expect(() => parse("DEFINE TABLE OVERWRITE t2", { compat: 1 })).toThrow(/ --> \[1:14\]/);
  });
});

describe("record(table) (1.x's spelling)", () => {
  const fieldType = (text: string, compat: 1 | 2) => (parse(text, { compat })[0] as DefineFieldStatement).type;

  it("reads as record<table> under compat 1, several tables as record<a | b> (1.5.4's INFO prints it so)", () => {
    expect(fieldType("DEFINE FIELD r ON t TYPE record(person)", 1)).toEqual({ kind: "Record", tables: ["person"] });
    expect(fieldType("DEFINE FIELD r ON t TYPE option<record(person, user)>", 1)).toEqual({ kind: "Option", inner: { kind: "Record", tables: ["person", "user"] } });
  });

  it("is a parse error under compat 2 at the `(`, as 2.6.0 answers", () => {
    expect(() => parse("DEFINE FIELD r ON t TYPE record(person)", { compat: 2 })).toThrow("Parse error: Unexpected token `(`, expected Eof\n --> [1:32]");
  });

  it("only record and geometry take it", () => {
    expect(() => parse("DEFINE FIELD x ON t TYPE string(a)", { compat: 1 })).toThrow("Unexpected token `(`");
  });
});

describe("compat 1 reads a word of digits then letters as an identifier (1.5.4, oracle: digit-idents-v1.surql)", () => {
  it("as a table, field and record-id table name, and as a field in an expression", () => {
    expect(parse("DEFINE TABLE 1a", { compat: 1 })[0]).toMatchObject({ kind: "DefineTable", name: "1a" });
    expect(parse("DEFINE FIELD 1b ON 1a", { compat: 1 })[0]).toMatchObject({ kind: "DefineField", table: "1a", name: { parts: [{ kind: "Field", name: "1b" }] } });
    expect(parse("CREATE 1a:b", { compat: 1 })[0]).toMatchObject({ kind: "Create", what: [{ kind: "RecordId", table: "1a", key: { kind: "String", value: "b" } }] });
    expect(parse("SELECT * FROM 1a", { compat: 1 })[0]).toMatchObject({ kind: "Select", what: [{ kind: "Table", name: "1a" }] });
    for (const word of ["1e", "1ea", "1fa", "0x10", "1e5a", "1_a"]) {
      expect(parse(`RETURN ${word}`, { compat: 1 })[0], word).toMatchObject({ value: { kind: "Idiom", parts: [{ kind: "Field", name: word }] } });
    }
  });
  it("numbers and durations stay numbers and durations; 2.x refuses the words (2.6.0: a number token)", () => {
    for (const word of ["1e5", "1f", "1dec", "10ms", "1h30m"]) expect(parse(`RETURN ${word}`, { compat: 1 })[0], word).toMatchObject({ value: { kind: "Literal" } });
    for (const text of ["DEFINE TABLE 1a", "CREATE 1a:b", "SELECT * FROM 1a", "RETURN 1e"]) expect(() => parse(text), text).toThrow(/^Parse error: /);
  });
});
