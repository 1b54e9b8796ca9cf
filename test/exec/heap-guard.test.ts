// exec/heap-guard: queries holding values until the heap nears its limit are stopped, and the process lives on (attack
// pass 7, E2: 860 LETs of 1 MiB in eight queries ended the server with V8's out-of-memory abort).

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { QUERY_MESSAGES } from "../../src/errors/catalogue.js";

describe.each([1, 2])("heap guard, compat %i", (compat) => {
  it("stops a record user's queries that hold 800 MiB of LETs in a 384 MiB heap, and the engine answers after", () => {
    const out = execFileSync(process.execPath, ["--max-old-space-size=384", "--import", "tsx", join(import.meta.dirname, "fixtures/heap-hog.ts"), String(compat)], { timeout: 120_000 });
    const { outcomes, after } = JSON.parse(out.toString()) as { outcomes: unknown[]; after: unknown };
    expect(outcomes).toEqual([QUERY_MESSAGES.QueryMemory(), QUERY_MESSAGES.QueryMemory(), QUERY_MESSAGES.QueryMemory()]);
    expect(after).toBe("2");
  }, 130_000);
});
