// doc/futures: a field whose VALUE is `<future> { … }` is computed again on each read, only where the reader sees it.

import { describe, expect, it } from "vitest";
import { newSession } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";
import { newDs, rootSession, run } from "../exec/helpers.js";

describe.each([1, 2] as const)("future fields on read (compat %i)", (compat) => {
  const reader = () =>
    newSession({ ns: "test", db: "test", actor: { level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: "user:r", roles: [] }, rd: new RecordId("user", "r"), ac: "account" });

  it("a field the reader may not select is not computed (its error never runs); the owner's read computes it", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "DEFINE TABLE t PERMISSIONS FULL; DEFINE FIELD boom ON t VALUE <future> { IF count(SELECT * FROM armed) > 0 { THROW 'computed' } ELSE { 1 } } PERMISSIONS FOR select NONE; CREATE t:1 SET n = 1; CREATE armed:1");
    expect(await run(ds, reader(), "SELECT * FROM t")).toEqual([{ ok: [{ id: "t:1", n: 1 }] }]);
    expect(await run(ds, rootSession(), "SELECT * FROM t")).toEqual([{ err: "An error occurred: computed" }]);
  });

  it("a nested future field is computed at its path; a record written before the definition gets no field", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "CREATE t:0 SET n = 1; DEFINE FIELD o ON t TYPE object DEFAULT {}; DEFINE FIELD o.c ON t VALUE <future> { count(SELECT * FROM u) }; CREATE t:1; CREATE u:1, u:2, u:3");
    expect(await run(ds, rootSession(), "SELECT * FROM t")).toEqual([{ ok: [{ id: "t:0", n: 1 }, { id: "t:1", o: { c: 3 } }] }]);
  });
});
