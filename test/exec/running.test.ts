// exec/running.ts: a session's end cancels its running queries at their next checkpoint (attack pass 11, I7): a kill
// through the session registry, the deletion of its record identity, the removal of its user. What the query wrote
// after the end is not committed; the statement running then answers the cancellation error. Both compats.

import { describe, expect, it } from "vitest";
import { SurqlAuth, type Connection } from "../../src/index.js";
import { RunningQueries } from "../../src/exec/running.js";
import { newSession } from "../../src/exec/session.js";

const CANCELLED = "The query was not executed due to a cancelled transaction";

const schema = (compat: 1 | 2) => `
  USE NS app DB app;
  DEFINE TABLE post SCHEMALESS PERMISSIONS FULL;
  DEFINE USER ed ON DATABASE PASSWORD 'pw' ROLES EDITOR;
  ${compat === 1 ? "DEFINE SCOPE account SESSION 1h" : "DEFINE ACCESS account ON DATABASE TYPE RECORD"}
    SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email)
    ${compat === 1 ? "" : "DURATION FOR SESSION 1h"};`;

async function open(compat: 1 | 2) {
  // no query time limit: only the session's end can stop the running query (as under --query-timeout 0)
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, sessionSyncMs: 0, queryTimeoutMs: 0 });
  await db.importText(schema(compat));
  const root = db.connect();
  await root.signin({ user: "root", pass: "root" });
  await root.query("USE NS app DB app");
  return { db, root };
}

/** Starts a query that commits post:before, then waits (cancellable) and would commit post:after; resolves once post:before is committed. */
async function started(who: Connection, root: Connection) {
  const answers = who.query("CREATE post:before; LET $z = sleep(60s); CREATE post:after; RETURN 'done'").catch((e: unknown) => e);
  for (;;) {
    const [r] = await root.query("SELECT VALUE id FROM post:before");
    // (wrapped: an async function returning a promise would wait for it)
    if ((r!.result as unknown[]).length > 0) return { answers };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function expectCancelled(answers: Promise<unknown>, root: Connection) {
  const res = (await answers) as { status: string; result: unknown }[];
  expect(res.map((r) => r.status)).toEqual(["OK", "ERR", "ERR", "ERR"]);
  expect(res[1]!.result).toBe(CANCELLED);
  // nothing after the end is committed
  const [after] = await root.query("SELECT VALUE id FROM post:after");
  expect(after!.result).toEqual([]);
}

describe.each([1, 2] as const)("a session's end cancels its running queries, compat %i", (compat) => {
  const AC = compat === 1 ? "SC" : "AC";

  it("a kill of the record user", async () => {
    const { db, root } = await open(compat);
    const rec = db.connect();
    await rec.signup({ NS: "app", DB: "app", [AC]: "account", email: "v@x" });
    const [who] = await root.query("SELECT VALUE <string> id FROM user");
    const { answers } = await started(rec, root);
    expect((await db.sessions.kill({ user: (who!.result as string[])[0]! })).length).toBe(1);
    await expectCancelled(answers, root);
    await expect(rec.query("RETURN 1")).rejects.toThrow("The session has expired");
  });

  it("the deletion of the record user's record", async () => {
    const { db, root } = await open(compat);
    const rec = db.connect();
    await rec.signup({ NS: "app", DB: "app", [AC]: "account", email: "v@x" });
    const { answers } = await started(rec, root);
    await root.query("DELETE user");
    await expectCancelled(answers, root);
  });

  it("the removal of a system user; another session's query goes on", async () => {
    const { db, root } = await open(compat);
    const ed = db.connect();
    await ed.signin({ NS: "app", DB: "app", user: "ed", pass: "pw" });
    const { answers } = await started(ed, root);
    // an unrelated definition ends nothing
    await root.query("DEFINE TABLE other SCHEMALESS");
    const other = root.query("LET $z = sleep(1ms); RETURN 'mine'");
    await root.query("REMOVE USER ed ON DATABASE");
    await expectCancelled(answers, root);
    expect((await other).map((r) => r.status)).toEqual(["OK", "OK"]);
  });
});

describe("RunningQueries", () => {
  it("aborts only the ended sessions' queries, follows the client's signal, forgets a query once done", () => {
    const running = new RunningQueries();
    const a = newSession();
    const b = newSession();
    const client = new AbortController();
    const qa = running.start(a, client.signal);
    const qb = running.start(b);
    running.endWhere((s) => s === a);
    expect([qa.signal.aborted, qb.signal.aborted]).toEqual([true, false]);
    qb.done();
    running.endWhere(() => true);
    expect(qb.signal.aborted).toBe(false);
    const qc = running.start(b, client.signal);
    client.abort();
    expect(qc.signal.aborted).toBe(true);
  });
});
