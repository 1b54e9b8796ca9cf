// grammar: ALTER TABLE (2.x only) and REMOVE FUNCTION with `()` — what each clause reads to, and print∘parse.

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { printStatement } from "../../src/ast/print.js";
import type { AlterTableStatement } from "../../src/ast/nodes.js";

const alter = (text: string) => parse(text)[0] as AlterTableStatement;

describe("ALTER TABLE", () => {
  it("reads each clause, absent ones as unchanged (undefined) and NONE as null", () => {
    const s = alter("ALTER TABLE IF EXISTS t DROP SCHEMAFULL TYPE RELATION IN a OUT b | c ENFORCED COMMENT NONE CHANGEFEED NONE PERMISSIONS FOR select FULL");
    expect(s).toMatchObject({ kind: "AlterTable", name: "t", ifExists: true, drop: true, schemafull: true, comment: null, changefeed: null });
    expect(s.tableType).toEqual({ kind: "Relation", from: ["a"], to: ["b", "c"], enforced: true });
    expect(s.permissions).toEqual({ select: { kind: "Full" }, create: { kind: "None" }, update: { kind: "None" }, delete: { kind: "None" } });
    expect(alter("ALTER TABLE t")).toMatchObject({ drop: undefined, schemafull: undefined, tableType: undefined, permissions: undefined, comment: undefined, changefeed: undefined });
    expect(alter("ALTER TABLE t DROP false COMMENT 'a' COMMENT 'b' CHANGEFEED 1h INCLUDE ORIGINAL")).toMatchObject({ drop: false, comment: "b", changefeed: { includeOriginal: true } });
  });
  it("prints back to a statement that reads the same", () => {
    for (const text of ["ALTER TABLE t SCHEMALESS COMMENT 'x' CHANGEFEED 1h PERMISSIONS NONE", "ALTER TABLE IF EXISTS t TYPE NORMAL DROP false COMMENT NONE CHANGEFEED NONE"]) {
      const s = alter(text);
      expect(alter(printStatement(s))).toEqual({ ...s, pos: expect.anything() });
    }
  });
  it("is refused under 1.x (1.5.4 has no ALTER), and takes no expression as its comment", () => {
    expect(() => parse("ALTER TABLE t COMMENT 'x'", { compat: 1 })).toThrow(/Unexpected token `TABLE`/);
    expect(() => parse("ALTER TABLE t COMMENT $x")).toThrow();
    expect(() => parse("ALTER TABLE t DROP true")).toThrow();
  });
});

describe("REMOVE FUNCTION", () => {
  it("takes the name with or without ()", () => {
    for (const text of ["REMOVE FUNCTION fn::a::b()", "REMOVE FUNCTION fn::a::b", "REMOVE FUNCTION IF EXISTS fn::a::b ( )"]) {
      expect(parse(text)[0]).toMatchObject({ kind: "Remove", target: "FUNCTION", name: "a::b" });
    }
    expect(() => parse("REMOVE FUNCTION fn::a(1)")).toThrow();
  });
});
