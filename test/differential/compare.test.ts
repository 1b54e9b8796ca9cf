// Differential tests: every scenario on real SurrealDB and on surql-auth; normalised outcomes must match step by step.

import { describe, expect, it } from "vitest";
import { openOurs } from "./harness/ours.js";
import { runSteps, type Step, type StepOutcome } from "./harness/steps.js";
import { openSurreal } from "./harness/surreal.js";
import { scenarios } from "./scenarios/index.js";

/** Steps SurrealDB cannot judge are replaced by their reason on both sides. */
function comparable(out: readonly StepOutcome[], steps: readonly Step[]): unknown[] {
  return out.map((o, i) => {
    const reason = o.skipCompare ?? steps[i]?.surrealPanics;
    return reason ? { step: o.step, method: o.method, skipped: reason } : o;
  });
}

describe.each(scenarios.map((s) => [s.name, s.version, s] as const))("%s (SurrealDB %s vs surql-auth)", (_name, version, s) => {
  it("gives the same results and error texts", async () => {
    const real = await runSteps(await openSurreal(version), s.steps, { real: true });
    const ours = await runSteps(await openOurs(version), s.steps);
    expect(comparable(ours, s.steps)).toEqual(comparable(real, s.steps));
    // Where SurrealDB panics, our own answer is asserted instead.
    s.steps.forEach((step, i) => {
      if (step.oursExpected) expect(ours[i]).toMatchObject(step.oursExpected);
    });
    expect(s.steps.filter((x) => x.surrealPanics && !x.oursExpected)).toEqual([]);
  }, 120_000);
});
