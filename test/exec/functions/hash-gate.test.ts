// The client hash gate (attack pass 6, D4): a client's own password hashes run one at a time server-wide, round robin
// by identity, and a wait ends at the query's deadline or cancellation; schema bodies (the logins) do not wait.
// No timings are asserted: order and outcomes are.

import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/exec/budget.js";
import { clientHashes, HashGate } from "../../../src/exec/functions/hash-gate.js";
import { newDs, recordSession, rootSession, run } from "../helpers.js";

const TIMEOUT = "The query was not executed because it exceeded the timeout";

/** A hash that ends when the test says so. */
function held(): { work: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve("done")));
  return { work: () => done, finish };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("HashGate", () => {
  it("runs one hash at a time and serves waiting identities in turn", async () => {
    const gate = new HashGate(1);
    const order: string[] = [];
    const first = held();
    const p0 = gate.run("A", undefined, async () => (order.push("A0"), first.work()));
    // A queues two more, then B one: B's comes before A's second
    const p1 = gate.run("A", undefined, async () => (order.push("A1"), "a1"));
    const p2 = gate.run("A", undefined, async () => (order.push("A2"), "a2"));
    const p3 = gate.run("B", undefined, async () => (order.push("B1"), "b1"));
    await tick();
    expect(order).toEqual(["A0"]);
    expect(gate.running).toBe(1);
    first.finish();
    await Promise.all([p0, p1, p2, p3]);
    expect(order).toEqual(["A0", "A1", "B1", "A2"]);
    expect(gate.running).toBe(0);
  });

  it("a wait ends with the timeout error at the deadline, and with the cancel error when the client goes away", async () => {
    const gate = new HashGate(1);
    const busy = held();
    const p0 = gate.run("A", undefined, busy.work);
    await expect(gate.run("B", Budget.of(20), async () => "never")).rejects.toThrow(TIMEOUT);
    const abort = new AbortController();
    const cancelled = gate.run("C", Budget.of(Infinity, abort.signal), async () => "never");
    abort.abort();
    await expect(cancelled).rejects.toThrow("The query was not executed due to a cancelled transaction");
    // the ones that left hold no slot: the next waiter runs once the busy hash ends
    const next = gate.run("D", undefined, async () => "ran");
    busy.finish();
    expect(await p0).toBe("done");
    expect(await next).toBe("ran");
    expect(gate.running).toBe(0);
  });
});

describe.each([1, 2] as const)("compat %i: the engine's client hashes", (compat) => {
  it("a record user's crypto::argon2::generate waits for the gate and times out with its query", async () => {
    const ds = newDs({ compat, queryTimeoutMs: 100 });
    const busy = held();
    const hold = clientHashes.run("someone else", undefined, busy.work);
    try {
      const user = recordSession("user", "u1");
      expect(await run(ds, user, "RETURN crypto::argon2::generate('pw'); RETURN 1")).toEqual([{ err: TIMEOUT }, { err: TIMEOUT }]);
    } finally {
      busy.finish();
      await hold;
    }
  });

  it("a record user's query waits for the gate in a schema function too (D4); a system user's schema function does not", async () => {
    // a limit well past one argon2 hash: without the gate the call would end in time
    const ds = newDs({ compat, queryTimeoutMs: 2000 });
    await run(ds, rootSession(), "DEFINE FUNCTION fn::h($p: string) { RETURN crypto::argon2::generate($p) } PERMISSIONS FULL");
    const busy = held();
    const hold = clientHashes.run("someone else", undefined, busy.work);
    try {
      expect(await run(ds, recordSession("user", "u1"), "RETURN fn::h('pw')")).toEqual([{ err: TIMEOUT }]);
      // an OWNER's call of the same function is a schema body: it hashes while the gate stays taken
      expect(await run(ds, rootSession(), "RETURN string::len(fn::h('pw')) > 20")).toEqual([{ ok: true }]);
    } finally {
      busy.finish();
      await hold;
    }
  });
});
