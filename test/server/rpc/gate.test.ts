// rpc/gate.ts: readers run together; a session change waits for them, runs alone, and goes before later arrivals.

import { describe, expect, it } from "vitest";
import { SessionGate, changesSession } from "../../../src/server/rpc/gate.js";

/** A task that records when it starts and ends, and ends when `finish` is called. */
function task(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { run: async () => { log.push(`${name}+`); await done; log.push(`${name}-`); }, finish };
}
const turn = () => new Promise((r) => setImmediate(r));

describe("SessionGate", () => {
  it("readers overlap; a change waits for them and runs alone; a reader after the change waits for it", async () => {
    const gate = new SessionGate();
    const log: string[] = [];
    const [q1, q2, change, q3] = ["q1", "q2", "change", "q3"].map((n) => task(log, n));
    const all = [gate.run(false, q1!.run), gate.run(false, q2!.run), gate.run(true, change!.run), gate.run(false, q3!.run)];
    await turn();
    expect(log).toEqual(["q1+", "q2+"]);
    q1!.finish();
    await turn();
    expect(log).toEqual(["q1+", "q2+", "q1-"]);
    q2!.finish();
    await turn();
    expect(log).toEqual(["q1+", "q2+", "q1-", "q2-", "change+"]);
    change!.finish();
    await turn();
    expect(log.slice(4)).toEqual(["change+", "change-", "q3+"]);
    q3!.finish();
    await Promise.all(all);
    expect(log.at(-1)).toBe("q3-");
  });

  it("two changes run one after the other; readers queued behind them start together after the second", async () => {
    const gate = new SessionGate();
    const log: string[] = [];
    const [a, b, r1, r2] = ["a", "b", "r1", "r2"].map((n) => task(log, n));
    const all = [gate.run(true, a!.run), gate.run(true, b!.run), gate.run(false, r1!.run), gate.run(false, r2!.run)];
    await turn();
    expect(log).toEqual(["a+"]);
    a!.finish();
    await turn();
    expect(log).toEqual(["a+", "a-", "b+"]);
    b!.finish();
    await turn();
    expect(log).toEqual(["a+", "a-", "b+", "b-", "r1+", "r2+"]);
    r1!.finish();
    r2!.finish();
    await Promise.all(all);
  });

  it("a failing request releases the gate", async () => {
    const gate = new SessionGate();
    await expect(gate.run(true, () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(gate.run(false, () => Promise.resolve(1))).resolves.toBe(1);
    await expect(gate.run(true, () => Promise.resolve(2))).resolves.toBe(2);
  });
});

describe("changesSession", () => {
  it("the session methods, and a query that may hold a USE statement (J9); not other queries or methods", () => {
    for (const m of ["signin", "signup", "authenticate", "refresh", "invalidate", "reset", "use"]) expect(changesSession(m, [])).toBe(true);
    expect(changesSession("query", ["USE NS app DB other; RETURN 1"])).toBe(true);
    expect(changesSession("query", ["RETURN 1;\n  use db other"])).toBe(true);
    expect(changesSession("query", ["SELECT * FROM user WHERE used = true"])).toBe(false);
    expect(changesSession("query", [{ not: "text" }])).toBe(false);
    for (const m of ["query", "select", "let", "ping", "create"]) expect(changesSession(m, ["RETURN 1"])).toBe(false);
  });
});
