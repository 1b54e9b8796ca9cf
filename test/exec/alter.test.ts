// exec/statements/alter: ALTER TABLE replaces only the clauses written, keeps the stored TYPE, and is undone by CANCEL.

import { describe, expect, it } from "vitest";
import { newDs, rootSession, run } from "./helpers.js";

const tableText = async (ds: ReturnType<typeof newDs>) => ((await run(ds, rootSession(), "INFO FOR DB"))[0] as { ok: { tables: Record<string, string> } }).ok.tables.t;

describe("ALTER TABLE", () => {
  it("keeps what it does not name: SCHEMAFULL leaves a table written without TYPE as ANY (a DEFINE would make it NORMAL)", async () => {
    const ds = newDs({ compat: 2 });
    await run(ds, rootSession(), "DEFINE TABLE t COMMENT 'c' PERMISSIONS FOR select FULL; ALTER TABLE t SCHEMAFULL");
    expect(await tableText(ds)).toBe("DEFINE TABLE t TYPE ANY SCHEMAFULL COMMENT 'c' PERMISSIONS FOR select FULL, FOR create, update, delete NONE");
  });
  it("defines a relation's in / out fields, and a cancelled ALTER changes nothing", async () => {
    const ds = newDs({ compat: 2 });
    const out = await run(ds, rootSession(), "DEFINE TABLE t; ALTER TABLE t TYPE RELATION IN a; INFO FOR TABLE t; BEGIN; ALTER TABLE t TYPE NORMAL COMMENT 'x'; CANCEL");
    expect((out[2] as { ok: { fields: object } }).ok.fields).toEqual({ in: "DEFINE FIELD in ON t TYPE record<a> PERMISSIONS FULL", out: "DEFINE FIELD out ON t TYPE record PERMISSIONS FULL" });
    expect(await tableText(ds)).toBe("DEFINE TABLE t TYPE RELATION IN a SCHEMALESS PERMISSIONS NONE");
  });
});
