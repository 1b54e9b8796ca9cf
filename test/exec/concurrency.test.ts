// exec/: sessions run side by side (no global queue) — each statement or BEGIN … COMMIT block is one store transaction;
// a conflicting auto-commit statement is run again, a conflicting block answers SurrealDB's retry error.

import { describe, expect, it } from "vitest";
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
});
