// A query whose client went away (attack pass 4, B2): once its AbortSignal fires, every checkpoint ends it with
// SurrealDB's cancellation error, a sleeping sleep() wakes, and nothing it wrote is committed. No timings: the query
// time limit is a minute, so only the cancellation can end these queries within vitest's timeout.

import { afterEach, describe, expect, it, vi } from "vitest";
import { Budget } from "../../src/exec/budget.js";
import { scheduler } from "../../src/exec/scheduler.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const CANCELLED = "The query was not executed due to a cancelled transaction";
const NOT_EXECUTED = "The query was not executed due to a failed transaction";
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;
/** Far longer than vitest's timeout without a time limit. */
const LOOP = `FOR $i IN ${items(3000)} { FOR $j IN ${items(3000)} { CREATE note SET i = $i; } }`;

/**
 * Aborts `signal` when the query asks the scheduler for its second slice: the first is asked before its text is
 * parsed, the second after 10 ms of running it. (A 0 ms timer raced the first slice: on a loaded machine it fired
 * before the query started, which then ran nothing and answered other errors.)
 */
function abortSoon(): AbortSignal {
  const c = new AbortController();
  let slices = 0;
  const slice = scheduler.slice.bind(scheduler);
  vi.spyOn(scheduler, "slice").mockImplementation((lane) => {
    if (++slices === 2) c.abort();
    return slice(lane);
  });
  return c.signal;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("compat %i: cancelling a running query", (compat) => {
  it("a loop of writes aborted mid-way ends with the cancellation error and commits nothing", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 60_000 });
    await run(ds, rootSession(), "DEFINE TABLE note SCHEMALESS PERMISSIONS FULL");
    const user = recordSession("user", "u1");
    const out = await run(ds, user, `${LOOP}; RETURN 1`, abortSoon());
    expect(out).toEqual([{ err: CANCELLED }, { err: CANCELLED }]);
    expect(await run(ds, rootSession(), "RETURN array::len(SELECT * FROM note)")).toEqual([{ ok: 0 }]);
  });

  it("inside BEGIN … COMMIT: the block's earlier writes are not committed either", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 60_000 });
    await run(ds, rootSession(), "DEFINE TABLE note SCHEMALESS PERMISSIONS FULL");
    const out = await run(ds, rootSession(), `BEGIN; CREATE note:first; ${LOOP}; COMMIT;`, abortSoon());
    expect(out.map((o) => ("err" in o ? o.err : "ok"))).toEqual([NOT_EXECUTED, CANCELLED]);
    expect(await run(ds, rootSession(), "SELECT * FROM note")).toEqual([{ ok: [] }]);
  });

  it("sleep(10s) wakes at once when the query is cancelled", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 60_000 });
    expect(await run(ds, recordSession("user", "u1"), "RETURN sleep(10s)", abortSoon())).toEqual([{ err: CANCELLED }]);
  });

  it("a signal aborted before the query starts runs nothing", async () => {
    const ds = newDs({ compat, auth: false });
    const c = new AbortController();
    c.abort();
    expect(await run(ds, rootSession(), "CREATE note:1; RETURN 1", c.signal)).toEqual([{ err: CANCELLED }, { err: CANCELLED }]);
    expect(await run(ds, rootSession(), "SELECT * FROM note")).toEqual([{ ok: [] }]);
  });
});

describe("Budget cancellation", () => {
  it("a tightened budget (TIMEOUT clause) keeps the query's signal", () => {
    const c = new AbortController();
    const inner = Budget.of(60_000, c.signal).within(30_000);
    expect(inner.checkpoint()).toBeUndefined();
    c.abort();
    expect(() => inner.checkpoint()).toThrow(CANCELLED);
    expect(() => inner.stopIfOver()).toThrow(CANCELLED);
  });
});
