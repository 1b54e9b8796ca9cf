// exec/heap-guard: queries holding values until the heap nears its limit are stopped, and the process lives on (attack
// pass 7, E2: 860 LETs of 1 MiB in eight queries ended the server with V8's out-of-memory abort).

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QUERY_MESSAGES } from "../../src/errors/catalogue.js";
import { setHeapShareReader } from "../../src/exec/heap-guard.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

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

  it("past the critical share every client query stops; below the pressure line none does", async () => {
    const ds = newDs({ compat });
    setHeapShareReader(() => 0.9);
    expect((await run(ds, recordSession("user", "vic"), loop)).at(-1)).toEqual(stopped);
    setHeapShareReader(() => 0.5);
    expect((await run(ds, recordSession("user", "mal"), hog)).at(-1)).toEqual({ ok: 1 });
  });
});
