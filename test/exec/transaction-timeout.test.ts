// --transaction-timeout: each transaction — an auto-commit statement, or a BEGIN … COMMIT block — ends at its own
// deadline with SurrealDB's timeout error; a block that outlives it is cancelled, its statements answering as a failed
// transaction does. (SurrealDB 2.6 accepts the option and does not enforce it; 3.x enforces it with this text. The
// block answers are what 2.6 gives when its query timeout ends a block: recorded from the oracle's 2.6.1 engine.)
// No timings are asserted: without the limit the sleeps below never end, and the vitest timeout fails the test.

import { describe, expect, it } from "vitest";
import { newDs, rootSession, run } from "./helpers.js";

const TIMEOUT = "The query was not executed because it exceeded the timeout";
const NOT_EXECUTED = "The query was not executed due to a failed transaction";

describe.each([1, 2] as const)("compat %i", (compat) => {
  const ds = () => newDs({ compat, auth: false, queryTimeoutMs: 0, transactionTimeoutMs: 200 });

  it("an auto-commit statement past the limit times out; the next statement has a transaction (and a limit) of its own", async () => {
    expect(await run(ds(), rootSession(), "RETURN sleep(1d); RETURN 1")).toEqual([{ err: TIMEOUT }, { ok: 1 }]);
  });

  it("a BEGIN … COMMIT block that outlives the limit is cancelled: nothing it wrote is kept", async () => {
    const db = ds();
    const out = await run(db, rootSession(), "BEGIN; CREATE note:1; RETURN sleep(1d); CREATE note:2; COMMIT; RETURN 1");
    expect(out).toEqual([{ err: NOT_EXECUTED }, { err: TIMEOUT }, { err: NOT_EXECUTED }, { ok: 1 }]);
    expect(await run(db, rootSession(), "SELECT * FROM note")).toEqual([{ ok: [] }]);
  });

  it("the limit is one deadline for the whole block, not one per statement", async () => {
    const db = newDs({ compat, auth: false, queryTimeoutMs: 0, transactionTimeoutMs: 1000 });
    const out = await run(db, rootSession(), "BEGIN; RETURN sleep(600ms); RETURN sleep(600ms); COMMIT");
    expect(out).toEqual([{ err: NOT_EXECUTED }, { err: TIMEOUT }]);
  });

  it("--query-timeout ends a block the same way (SurrealDB 2.6.1: the same answers), and every statement after it", async () => {
    const db = newDs({ compat, auth: false, queryTimeoutMs: 200 });
    const out = await run(db, rootSession(), "BEGIN; CREATE note:1; RETURN sleep(1d); COMMIT; RETURN 1");
    expect(out).toEqual([{ err: NOT_EXECUTED }, { err: TIMEOUT }, { err: TIMEOUT }]);
    expect(await run(db, rootSession(), "SELECT * FROM note")).toEqual([{ ok: [] }]);
  });

  it("a block within the limit commits", async () => {
    // a limit no machine's load reaches (200 ms did, on a busy CI: the block then timed out)
    const db = newDs({ compat, auth: false, queryTimeoutMs: 0, transactionTimeoutMs: 60_000 });
    expect(await run(db, rootSession(), "BEGIN; CREATE note:1 SET n = 1; COMMIT")).toEqual([{ ok: [{ id: expect.anything(), n: 1 }] }]);
    expect(await run(db, rootSession(), "RETURN count(SELECT * FROM note)")).toEqual([{ ok: 1 }]);
  });
});
