// Noninterference: the property "whatever a record user runs, none of another record user's protected values reaches
// it and none of them changes", checked with fast-check; a failure is reported as a shrunk .surql reproduction.

import fc from "fast-check";
import { checkBounded, type FuzzOptions } from "../../differential/fuzz/property.js";
import { attackSteps, stepText } from "./attacks.js";
import type { IssueClass } from "./classes.js";
import { runCase, type Case } from "./run.js";
import { dataText, schemaText, schemaSpec, signupVars } from "./schema.js";

export interface NonintOptions extends FuzzOptions {
  /** Classes left out of the generator (still open in the engine). */
  readonly open?: readonly IssueClass[];
}

export interface NonintReport {
  readonly runs: number;
  readonly seed: number;
  /** Empty when the property held; else the shrunk case as .surql, what broke, and what the attacker saw. */
  readonly failure: string;
}

export function nonintCase(open: ReadonlySet<IssueClass>): fc.Arbitrary<Case> {
  return schemaSpec(open).chain((schema) => attackSteps(schema, open).map((steps): Case => ({ schema, steps })));
}

/** A ready-to-paste reproduction: root set-up, the two sign-ups as comments, then the attacker's steps. */
export function reproduction(c: Case): string {
  const s = c.schema;
  return [
    `-- compat ${s.compat} (SurrealDB ${s.compat === 1 ? "1.5.4" : "2.6.0"} dialect); as root:`,
    "USE NS n DB d;",
    schemaText(s),
    `-- signup ${JSON.stringify(signupVars(s, "victim"))}`,
    `-- signup ${JSON.stringify(signupVars(s, "eve"))}`,
    dataText(s),
    "USE NS n DB d;",
    "-- then as the record user user:eve:",
    ...c.steps.map(stepText),
  ].join("\n");
}

/** Drops steps and query vars the violation does not need (fast-check's shrinking keeps some behind a chain). */
async function minimize(c: Case): Promise<Case> {
  let best = c;
  const fails = async (x: Case): Promise<boolean> => (await runCase(x).catch(() => ({ violations: ["threw"] }))).violations.length > 0;
  for (let i = best.steps.length - 1; i >= 0 && best.steps.length > 1; i--) {
    const fewer = { ...best, steps: best.steps.filter((_, j) => j !== i) };
    if (await fails(fewer)) best = fewer;
  }
  for (let i = 0; i < best.steps.length; i++) {
    const step = best.steps[i]!;
    if (step.kind !== "query" || Object.keys(step.vars).length === 0) continue;
    const bare = { ...best, steps: best.steps.map((s, j) => (j === i ? { ...step, vars: {} } : s)) };
    if (await fails(bare)) best = bare;
  }
  return best;
}

export async function checkNoninterference(opts: NonintOptions): Promise<NonintReport> {
  const open = new Set(opts.open ?? []);
  const property = fc.asyncProperty(nonintCase(open), async (c) => (await runCase(c)).violations.length === 0);
  const { result, seed } = await checkBounded(property, opts);
  if (!result.failed) return { runs: result.numRuns, seed, failure: "" };
  const [shrunk] = (result.counterexample ?? []) as [Case?];
  if (!shrunk) return { runs: result.numRuns, seed, failure: `no counterexample: ${String(result.errorInstance)}` };
  const c = await minimize(shrunk);
  const outcome = await runCase(c).catch((e: Error) => ({ violations: [`the case threw: ${e.stack ?? e.message}`], seen: [] as string[] }));
  return {
    runs: result.numRuns,
    seed,
    failure: [
      `noninterference broken (seed ${seed}, path ${result.counterexamplePath}):`,
      reproduction(c),
      "",
      "-- violations:",
      ...outcome.violations.map((v) => `--   ${v}`),
      "-- the attacker received:",
      ...outcome.seen.map((t, i) => `--   step ${i + 1}: ${t.length > 600 ? `${t.slice(0, 600)}…` : t}`),
    ].join("\n"),
  };
}
