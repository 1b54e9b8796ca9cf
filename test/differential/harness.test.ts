// The differential harness itself: real SurrealDB runs in-process and the masking makes runs comparable.

import { describe, expect, it } from "vitest";
import { openSurreal, type SurrealVersion } from "./harness/surreal.js";
import { runSteps, type StepOutcome } from "./harness/steps.js";
import { scenarios } from "./scenarios/index.js";
import { seedV1, seedV2 } from "./scenarios/seed.js";

const scenario = { "1.5.4": seedV1, "2.6.0": seedV2 } as const;

async function twice(version: SurrealVersion, steps: typeof seedV1): Promise<[StepOutcome[], StepOutcome[]]> {
  // One after the other: two wasm engines of one build must not run at once in one process.
  const a = await runSteps(await openSurreal(version), steps, { real: true });
  const b = await runSteps(await openSurreal(version), steps, { real: true });
  return [a, b];
}

describe.each(scenarios.map((s) => [s.name, s.version, s] as const))("scenario %s on real SurrealDB %s", (_name, version, s) => {
  it("gives identical normalised outcomes on two fresh engines (masking covers every random part)", async () => {
    const [a, b] = await twice(version, s.steps);
    expect(a).toEqual(b);
    expect(a.length).toBe(s.steps.length);
  }, 120_000);
});

describe.each(["1.5.4", "2.6.0"] as const)("real SurrealDB %s through the harness", (version) => {
  it("answers the seed's scenario as the reference says", async () => {
    const out = await runSteps(await openSurreal(version), scenario[version]);
    const signup = out[3]!;
    expect(signup.error).toBeUndefined();
    const jwt = (signup.result as { $jwt: { header: object; claimOrder: string[]; lifetime: number } }).$jwt;
    expect(jwt.header).toEqual({ typ: "JWT", alg: "HS512" });
    const who = version === "1.5.4" ? "SC" : "AC";
    expect(jwt.claimOrder).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "DB", who, "ID"]);
    // 1.5.4: scope SESSION sets the token life (1d); 2.6.0: DURATION FOR TOKEN 15m.
    expect(jwt.lifetime).toBe(version === "1.5.4" ? 86400 : 900);
    // Duplicate email and bad email are refused (seed §7); the record user sees only itself.
    expect(out[5]!.error).toBeDefined();
    expect(out[6]!.error).toBeDefined();
    expect(out[8]!.result).toEqual([{ result: [{ name: "Bob" }], status: "OK" }]);
    // A wrong password makes SIGNIN select nothing: the message says so, it is not the generic auth error.
    expect(out[9]!.error).toBe("There was a problem with the database: No record was returned");
    expect(out[5]!.error).toBe(
      `There was a problem with the database: ${version === "1.5.4" ? "The signup query failed" : "The record access signup query failed"}`,
    );
    // DELETE … RETURN BEFORE as the record user: 1.5.4 returns the record, 2.6.0 needs select
    // permission on the (now deleted) record and returns nothing.
    const deleted = (out[11]!.result as { result: unknown[] }[])[2]!.result;
    expect(deleted).toHaveLength(version === "1.5.4" ? 1 : 0);
    expect(out[14]!.result).toEqual([{ result: [{ email: "bob@example.com", name: "Bob" }], status: "OK" }]);
  }, 120_000);
});
