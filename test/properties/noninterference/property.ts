// Noninterference: the property "whatever a record user runs, none of another record user's protected values reaches
// it and none of them changes", checked with fast-check; a failure is reported as a shrunk .surql reproduction.

import fc from "fast-check";
import { checkBounded, type FuzzOptions } from "../../differential/fuzz/property.js";
import { failureText, minimize, reproductionText } from "../../../src/testing/reproduction.js";
import { attackSteps } from "./attacks.js";
import type { IssueClass } from "./classes.js";
import { runCase, type Case } from "./run.js";
import { ATTACKER, dataText, schemaText, schemaSpec, signupVars } from "./schema.js";

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
  const setup = ["USE NS n DB d;", schemaText(s), `-- signup ${JSON.stringify(signupVars(s, "victim"))}`, `-- signup ${JSON.stringify(signupVars(s, "eve"))}`, dataText(s), "USE NS n DB d;"];
  return reproductionText({ compat: s.compat, setup, attacker: ATTACKER, steps: c.steps });
}

const fails = async (c: Case): Promise<boolean> => (await runCase(c)).violations.length > 0;

export async function checkNoninterference(opts: NonintOptions): Promise<NonintReport> {
  const open = new Set(opts.open ?? []);
  const property = fc.asyncProperty(nonintCase(open), async (c) => (await runCase(c)).violations.length === 0);
  const { result, seed } = await checkBounded(property, opts);
  if (!result.failed) return { runs: result.numRuns, seed, failure: "" };
  const [shrunk] = (result.counterexample ?? []) as [Case?];
  if (!shrunk) return { runs: result.numRuns, seed, failure: `no counterexample: ${String(result.errorInstance)}` };
  const c = await minimize(shrunk, fails);
  const outcome = await runCase(c).catch((e: Error) => ({ violations: [`the case threw: ${e.stack ?? e.message}`], seen: [] as string[] }));
  return { runs: result.numRuns, seed, failure: failureText(`noninterference broken (seed ${seed}, path ${result.counterexamplePath}):`, reproduction(c), outcome.violations, outcome.seen) };
}
