// exec/: sessions run side by side (no global queue) — each statement or BEGIN … COMMIT block is one store transaction;
// a conflicting auto-commit statement is run again, a conflicting block answers SurrealDB's retry error.

import { describe, expect, it } from "vitest";
import { RecordId } from "../../src/value/types.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const RETRY = "Failed to commit transaction due to a read or write conflict. This transaction can be retried";

describe.each([1, 2] as const)("concurrent sessions (compat %i)", (compat) => {
  it("a record user's sleep delays only its own query", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "DEFINE TABLE user PERMISSIONS FULL; CREATE user:1");
    const done: string[] = [];
    const sleeper = run(ds, recordSession("user", 1n), "RETURN sleep(2s)").then(() => done.push("sleeper"));
    const other = run(ds, rootSession(), "SELECT * FROM user").then(() => done.push("other"));
    await Promise.all([sleeper, other]);
    expect(done).toEqual(["other", "sleeper"]);
  });

  it("concurrent increments of one record never lose an update", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "CREATE counter:1 SET n = 0");
    const n = 12;
    const outs = await Promise.all(Array.from({ length: n }, () => run(ds, rootSession(), "UPDATE counter:1 SET n += 1 RETURN NONE")));
    const committed = outs.filter(([o]) => o !== undefined && "ok" in o).length;
    expect(committed).toBe(n);
    expect(await run(ds, rootSession(), "RETURN counter:1.n")).toEqual([{ ok: n }]);
  });

  it("of two blocks that write one record, the later commit answers the retry error and changes nothing", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "CREATE counter:1 SET n = 0");
    const block = "BEGIN; UPDATE counter:1 SET n += 1 RETURN NONE; RETURN sleep(50ms); COMMIT;";
    const [a, b] = await Promise.all([run(ds, rootSession(), block), run(ds, rootSession(), block)]);
    const failed = [a, b].filter((o) => o.some((r) => "err" in r));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toEqual([{ err: RETRY }, { err: RETRY }]);
    expect(await run(ds, rootSession(), "RETURN counter:1.n")).toEqual([{ ok: 1 }]);
  });

  // attack pass 11, I8: every DEFINE anywhere made every in-flight write transaction conflict (a write loop ran again
  // to its time limit and rolled back). A write transaction now conflicts only with changes to its own tables' schema.
  it.each([
    ["another table", "DEFINE TABLE zz SCHEMALESS", true],
    ["a user", "DEFINE USER u2 ON DATABASE PASSWORD 'p' ROLES VIEWER", true],
    ["another namespace", "USE NS other DB other; DEFINE TABLE t SCHEMALESS", true],
    ["a field of the written table", "DEFINE FIELD f ON note TYPE option<int>", false],
    ["an index of the written table", "DEFINE INDEX i ON note FIELDS n", false],
    ["the written table itself", "DEFINE TABLE OVERWRITE note SCHEMALESS PERMISSIONS NONE", false],
  ] as const)("defining %s (%s) while a write transaction is open: it commits = %s", async (_what, define, commits) => {
    if (compat === 1 && define.includes("OVERWRITE")) return;
    const ds = newDs({ compat, auth: false });
    await run(ds, rootSession(), "DEFINE TABLE note SCHEMALESS; CREATE note:0 SET n = 0");
    const txn = await ds.begin("write");
    await ds.records.put(txn, { ns: "test", db: "test", tb: "note" }, new RecordId("note", 1n), { id: new RecordId("note", 1n), n: 1n });
    expect((await run(ds, rootSession(), define)).filter((o) => "err" in o)).toEqual([]);
    if (commits) await txn.commit();
    else await expect(txn.commit()).rejects.toThrow(RETRY);
    expect(await run(ds, rootSession(), "RETURN array::len(SELECT * FROM note)")).toEqual([{ ok: commits ? 2 : 1 }]);
  });
});
