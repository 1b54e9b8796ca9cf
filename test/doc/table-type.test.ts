// doc/table-type: a table's TYPE against what the statement writes, in both versions' words.

import { describe, expect, it } from "vitest";
import { checkTableType } from "../../src/doc/table-type.js";
import { defaultTableDefinition } from "../../src/exec/statements/define.js";
import { newTableEntry } from "../../src/store/catalog.js";
import type { DefineTableStatement } from "../../src/ast/nodes.js";
import { RecordId } from "../../src/value/types.js";

const table = (tableType: DefineTableStatement["tableType"]) => newTableEntry("n", "d", { ...defaultTableDefinition("t"), tableType });
const rid = new RecordId("t", "a");

describe("checkTableType", () => {
  it("lets ANY take both, and UPDATE (nothing to check) through everywhere", () => {
    for (const makes of ["record", "edge", undefined] as const) expect(() => checkTableType(table({ kind: "Any" }), rid, makes, 2)).not.toThrow();
    expect(() => checkTableType(table({ kind: "Normal" }), rid, undefined, 2)).not.toThrow();
  });
  it("refuses an edge in a NORMAL table and a record in a RELATION one", () => {
    expect(() => checkTableType(table({ kind: "Normal" }), rid, "edge", 2)).toThrow("Found record: `t:a` which is not a relation, but expected a NORMAL");
    const rel = table({ kind: "Relation", from: ["a"], to: ["b", "c"], enforced: true });
    expect(() => checkTableType(rel, rid, "record", 2)).toThrow("Found record: `t:a` which is a relation, but expected a RELATION IN a OUT b | c ENFORCED");
    expect(() => checkTableType(rel, rid, "edge", 2)).not.toThrow();
    expect(() => checkTableType(table({ kind: "Normal" }), rid, "record", 2)).not.toThrow();
  });
  it("prints 1.x's two spaces", () => {
    expect(() => checkTableType(table({ kind: "Normal" }), rid, "edge", 1)).toThrow("but expected a  NORMAL");
  });
});
