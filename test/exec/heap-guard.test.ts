// exec/heap-guard: queries holding values until the heap nears its limit are stopped, and the process lives on (attack
// pass 7, E2: 860 LETs of 1 MiB in eight queries ended the server with V8's out-of-memory abort).

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QUERY_MESSAGES } from "../../src/errors/catalogue.js";
import { Budget } from "../../src/exec/budget.js";
import { HashGate } from "../../src/exec/functions/hash-gate.js";
import { liveCharges, setHeapShareReader, type Charge } from "../../src/exec/heap-guard.js";
import { laneOf } from "../../src/exec/scheduler.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const MIB = 1024 * 1024;

/** Waits (no timing asserted) until `n` live queries are each charged `bytes` or more and wait (in sleep()). */
async function holding(n: number, bytes: number): Promise<Charge[]> {
  for (;;) {
    const waiting = liveCharges().filter((c) => c.held >= bytes && c.wakers.size > 0);
    if (waiting.length >= n) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe("the charge of a client query", () => {
  it("counts what it produced with its identity's until it ends; the engine's own work is not charged", () => {
    const lane = laneOf(recordSession("user", "mal"));
    const budget = Budget.of(Infinity, undefined, lane);
    const charge = liveCharges().at(-1)!;
    budget.charged("x".repeat(MIB));
    budget.within(1000).produced([1, 2, 3]);
    expect(charge.held).toBe(MIB + 24);
    const other = Budget.of(Infinity, undefined, lane);
    other.charged("y".repeat(MIB));
    expect(charge.holder.held).toBe(2 * MIB + 24);
    expect(() => budget.charged("z".repeat(2 * MIB), MIB)).toThrow("too large");
    budget.end();
    other.end();
    expect(liveCharges()).not.toContain(charge);
    const before = liveCharges().length;
    Budget.of(Infinity).charged("x".repeat(MIB));
    expect(liveCharges().length).toBe(before);
  });

  it("a query waiting for the hash slot is woken and stopped when the guard stops it", async () => {
    setHeapShareReader(() => 0.5);
    const gate = new HashGate(1);
    let finish = (): void => {};
    const busy = gate.run("other", undefined, () => new Promise<void>((resolve) => (finish = resolve)));
    const budget = Budget.of(Infinity, undefined, laneOf(recordSession("user", "mal")));
    budget.charged(Array(5).fill("x".repeat(MIB)));
    const waiting = gate.run("mal", budget, async () => "hashed");
    setHeapShareReader(() => 0.7);
    // another query's look at the clock reads the heap
    const look = Budget.of(Infinity, undefined, laneOf(recordSession("user", "vic")));
    look.checkpointNow();
    await expect(waiting).rejects.toThrow(QUERY_MESSAGES.QueryMemory());
    finish();
    await busy;
    budget.end();
    look.end();
    setHeapShareReader(undefined);
  });
});

describe.each([1, 2])("heap guard, compat %i", (compat) => {
  it("stops a record user's queries that hold 800 MiB of LETs in a 384 MiB heap, and the engine answers after", () => {
    const out = execFileSync(process.execPath, ["--max-old-space-size=384", "--import", "tsx", join(import.meta.dirname, "fixtures/heap-hog.ts"), String(compat)], { timeout: 120_000 });
    const { outcomes, after } = JSON.parse(out.toString()) as { outcomes: unknown[]; after: unknown };
    expect(outcomes).toEqual([QUERY_MESSAGES.QueryMemory(), QUERY_MESSAGES.QueryMemory(), QUERY_MESSAGES.QueryMemory()]);
    expect(after).toBe("2");
  }, 130_000);
});

describe.each([1, 2] as const)("heap guard, compat %i: who gives way", (compat) => {
  afterEach(() => setHeapShareReader(undefined));
  const loop = "FOR $i IN [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] { LET $x = $i; }; RETURN 1";
  const hog = `${Array.from({ length: 6 }, (_, i) => `LET $a${i} = string::repeat('x', 1048576);`).join(" ")} ${loop}`;
  const stopped = { err: QUERY_MESSAGES.QueryMemory() };

  it("under pressure, a query holding 4 MiB or more in variables stops; one holding little goes on (attack pass 8, F2)", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.7);
    const hogged = await run(ds, recordSession("user", "mal"), hog);
    expect(hogged.at(-1)).toEqual(stopped);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual({ ok: 1 });
    expect((await run(ds, rootSession(), loop)).at(-1)).toEqual({ ok: 1 });
  });

  const big = (n: number) => `string::uppercase(string::repeat('a', ${n}))`;
  /** G1: strings held in an array literal while sleep() waits, no LET (2 MiB charged per element: built, then uppercased). */
  const holder = `RETURN array::len([${big(MIB)}, ${big(MIB)}, ${big(MIB)}, sleep(60s)])`;

  it("builtin results held in an array literal while sleep() waits are charged; under pressure the holder is woken and stopped, another identity's query runs (attack pass 9, G1)", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const held = run(ds, recordSession("user", "mal"), holder);
    const [charge] = await holding(1, 6 * MIB);
    expect(charge!.held).toBeLessThan(7 * MIB);
    setHeapShareReader(() => 0.7);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual({ ok: 1 });
    expect(await held).toEqual([stopped]);
    expect(liveCharges()).toEqual([]);
  });

  it("variables sent with a query are charged to it: a holder of a 5 MiB variable is stopped under pressure (pass 9, G1)", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const held = ds.execute("RETURN array::len([$x, sleep(60s)])", recordSession("user", "mal"), { x: Array(5).fill("x".repeat(MIB)) });
    await holding(1, 5 * MIB);
    setHeapShareReader(() => 0.7);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual({ ok: 1 });
    expect((await held).map((r) => r.result)).toEqual([stopped.err]);
  });

  it("a mock's ids are charged to the query that holds them", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const held = run(ds, recordSession("user", "mal"), "RETURN array::len([|t:1..200000|, sleep(60s)])");
    await holding(1, 6 * MIB);
    setHeapShareReader(() => 0.7);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual({ ok: 1 });
    expect(await held).toEqual([stopped]);
  });

  it("one identity's many queries count as one holder: each under the line, together over the identity's, all stop", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const mal = recordSession("user", "mal");
    const three = Array(3).fill("string::repeat('a', 1000000)").join(", ");
    const held = Array.from({ length: 6 }, () => run(ds, mal, `RETURN array::len([${three}, sleep(60s)])`));
    await holding(6, 3000000);
    setHeapShareReader(() => 0.7);
    expect((await run(ds, rootSession(), loop)).at(-1)).toEqual({ ok: 1 });
    expect(await Promise.all(held)).toEqual(Array(6).fill([stopped]));
  });

  // (once the holder ended, a full collection may come at any time: then nothing explains the pressure any more)
  it("past the critical share the identity charged much is stopped, another identity's small query runs", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const held = run(ds, recordSession("user", "mal"), holder);
    await holding(1, 6 * MIB);
    setHeapShareReader(() => 0.9);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual({ ok: 1 });
    expect(await held).toEqual([stopped]);
  });

  it("past the critical share a new query of the identity charged much is refused; past the last share everyone's is", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.5);
    const mal = recordSession("user", "mal");
    const held = run(ds, mal, holder);
    await holding(1, 6 * MIB);
    setHeapShareReader(() => 0.9);
    expect((await run(ds, mal, loop)).at(-1)).toEqual(stopped);
    expect(await held).toEqual([stopped]);
    setHeapShareReader(() => 0.5);
    const again = run(ds, mal, holder);
    await holding(1, 6 * MIB);
    setHeapShareReader(() => 0.95);
    expect((await run(ds, rootSession(), loop)).at(-1)).toEqual(stopped);
    expect(await again).toEqual([stopped]);
  });

  it("past the critical share with no charge to explain it (nothing charged much is live or was since the last full collection), every client query stops; below the pressure line none does", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.9);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual(stopped);
    setHeapShareReader(() => 0.5);
    expect((await run(ds, recordSession("user", "mal"), hog)).at(-1)).toEqual({ ok: 1 });
  });
});
