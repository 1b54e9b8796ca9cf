// exec/statements/define-table: a relation table's `in` / `out` fields and its IN / OUT types follow each other;
// an ENFORCED table's missing ends are refused before the write.

import { describe, expect, it } from "vitest";
import { newDs, rootSession, run } from "./helpers.js";

describe("relation tables", () => {
  for (const compat of [1, 2] as const) {
    it(`define in / out fields from IN / OUT, and follow a DEFINE FIELD of them (compat ${compat})`, async () => {
      const ds = newDs({ compat });
      const root = rootSession();
      const over = compat === 2 ? "OVERWRITE " : "";
      const out = await run(ds, root, `DEFINE TABLE r TYPE RELATION IN a OUT b | c; DEFINE FIELD ${over}in ON r TYPE record<x>; DEFINE FIELD ${over}out ON r TYPE int; INFO FOR TABLE r`);
      expect(out[3]).toEqual({ ok: expect.objectContaining({ fields: { in: "DEFINE FIELD in ON r TYPE record<x> PERMISSIONS FULL", out: "DEFINE FIELD out ON r TYPE record<b | c> PERMISSIONS FULL" } }) });
      expect(out[2]).toEqual({ err: "An error occurred: out field on a relation must be a record" });
      const db = await run(ds, root, "INFO FOR DB");
      expect((db[0] as { ok: { tables: Record<string, string> } }).ok.tables.r).toBe("DEFINE TABLE r TYPE RELATION IN x OUT b | c SCHEMALESS PERMISSIONS NONE");
    });
  }
  it("refuses a missing end of an ENFORCED table, for RELATE and INSERT RELATION, and writes nothing", async () => {
    const ds = newDs({ compat: 2 });
    const root = rootSession();
    const out = await run(ds, root, "DEFINE TABLE r TYPE RELATION ENFORCED; CREATE p:1; RELATE p:1->r:1->p:2; INSERT RELATION INTO r { id: r:2, in: p:3, out: p:1 }; RELATE p:1->r:3->p:1; SELECT VALUE id FROM r");
    expect(out.slice(2)).toEqual([{ err: "The record 'p:2' does not exist" }, { err: "The record 'p:3' does not exist" }, { ok: expect.any(Array) }, { ok: ["r:3"] }]);
  });
});
