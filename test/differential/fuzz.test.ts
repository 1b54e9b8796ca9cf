// Differential fuzzing in CI: a bounded number of generated schemas, users and queries per SurrealDB version.
// `npm run fuzz` runs the same property longer and prints any counterexample as a .surql reproduction.

import { describe, expect, it } from "vitest";
import { fuzzAgainst } from "./fuzz/property.js";

const RUNS = Number(process.env.SURQL_FUZZ_RUNS ?? 25);

describe.each(["2.6.0", "1.5.4"] as const)("generated cases on SurrealDB %s and surql-auth", (version) => {
  it("give the same results and error texts", async () => {
    const report = await fuzzAgainst(version, { runs: RUNS, timeLimitMs: 60_000 });
    // On failure the message is the shrunk case as .surql plus the first differing step; replay with
    // `npm run fuzz -- --seed <seed> --version <version>`.
    expect(report.failure).toBe("");
    expect(report.runs).toBeGreaterThan(0);
  }, 240_000);
});
