// Differential fuzzing: the property "surql-auth answers a generated case exactly as real SurrealDB does".

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { openOurs } from "../harness/ours.js";
import { runSteps, type Step, type StepOutcome } from "../harness/steps.js";
import { openSurreal, type SurrealVersion } from "../harness/surreal.js";
import { caseSteps, fuzzCase, reproduction, type FuzzCase } from "./arbitraries.js";

export interface FuzzOptions {
  readonly runs: number;
  readonly seed?: number;
  /** Stop generating new cases after this long (shrinking a failure may take a little longer). */
  readonly timeLimitMs?: number;
}

export interface FuzzReport {
  readonly runs: number;
  readonly seed: number;
  /** Empty when the property held; else the shrunk case as .surql and the first differing step. */
  readonly failure: string;
}

/**
 * Outcomes as compared. A UNIQUE clash's ", with record `t:1`" is left out on both sides: we name the clashing record
 * only to an actor who may select it (SECURITY.md), which the generated permissions decide case by case.
 */
function comparable(out: readonly StepOutcome[], steps: readonly Step[]): unknown[] {
  const withoutClashRecord = (o: StepOutcome): unknown => JSON.parse(JSON.stringify(o).replace(/, with record `[^`]*`/g, ""));
  return out.map((o, i) => (o.skipCompare ?? steps[i]?.skipCompare ? { step: o.step, skipped: true } : withoutClashRecord(o)));
}

type Answer = { result?: unknown; status?: string };

/** Each of SurrealDB's answers to a query step replaced by `pick(theirs, ours)`; other steps as they are. */
function eachAnswer(real: unknown[], ours: unknown[], pick: (x: Answer, mine: Answer | undefined) => Answer): unknown[] {
  return real.map((r, i) => {
    const o = ours[i] as { result?: Answer[] } | undefined;
    const rr = r as { result?: Answer[] };
    if (!Array.isArray(o?.result) || !Array.isArray(rr?.result)) return r;
    return { ...rr, result: rr.result.map((x, j) => pick(x, o.result![j])) };
  });
}

/**
 * SurrealDB's field error or UNIQUE clash where ours leaves the value out (attacks A9 and F2: a value of a record or
 * field the client may not select, SECURITY.md): the same field and tail (or the same index) with any value, or for a
 * failing field clause any error, counts as ours.
 */
function withHiddenValues(real: unknown[], ours: unknown[]): unknown[] {
  const redacted = /^Found a value for field `([^`]*)`, but (.*)$/s;
  const hiddenClash = /^(Database index `[^`]*` already contains) a value$/;
  return eachAnswer(real, ours, (x, mine) => {
    if (mine?.status !== "ERR" || typeof mine.result !== "string" || x?.status !== "ERR" || typeof x.result !== "string") return x;
    // a UNIQUE clash over a value the client may not select (attack F2): the same index with any value counts as ours
    const clash = hiddenClash.exec(mine.result);
    if (clash) return x.result.startsWith(`${clash[1]} `) ? { ...x, result: mine.result } : x;
    const m = redacted.exec(mine.result);
    if (!m) return x;
    const same = x.result.endsWith(` for field \`${m[1]}\`, but ${m[2]}`) && x.result.startsWith("Found ");
    return same || m[2]!.endsWith(" clause failed") ? { ...x, result: mine.result } : x;
  });
}

/**
 * 1.x on a table whose create rule is NONE: 1.5.4 runs field clauses before that rule, so a record user's write of a
 * new record answers their error where ours answers nothing (attack pass 11, I3: the error told a missing id from a
 * hidden stored one; SECURITY.md). SurrealDB's field error there counts as ours.
 */
function withNoneCreateFirst(real: unknown[], ours: unknown[], applies: boolean): unknown[] {
  if (!applies) return real;
  return eachAnswer(real, ours, (x, mine) => {
    const fieldError = x?.status === "ERR" && typeof x.result === "string" && x.result.startsWith("Found ") && x.result.includes(" for field `");
    return fieldError && mine?.status === "OK" ? mine : x;
  });
}

/** The first step whose outcome differs, as a short text. */
function firstDifference(real: unknown[], ours: unknown[]): string {
  for (let i = 0; i < Math.max(real.length, ours.length); i++) {
    if (!isDeepStrictEqual(real[i], ours[i])) {
      return `step ${i + 1}\n  SurrealDB:  ${JSON.stringify(real[i])}\n  surql-auth: ${JSON.stringify(ours[i])}`;
    }
  }
  return "(no difference)";
}

/** Checks a property on `runs` cases from `seed` (random if absent); no new case starts after `timeLimitMs`. */
export async function checkBounded<T>(property: fc.IAsyncProperty<[T]>, opts: FuzzOptions): Promise<{ result: fc.RunDetails<[T]>; seed: number }> {
  const seed = opts.seed ?? Date.now() % 2 ** 31;
  const result = await fc.check(property, {
    numRuns: opts.runs,
    seed,
    ...(opts.timeLimitMs ? { interruptAfterTimeLimit: opts.timeLimitMs, markInterruptAsFailure: false } : {}),
  });
  return { result, seed };
}

export async function fuzzAgainst(version: SurrealVersion, opts: FuzzOptions): Promise<FuzzReport> {
  const compat = version === "1.5.4" ? 1 : 2;
  const real = await openSurreal(version);
  const ours = await openOurs(version);
  let n = 0;
  let lastDiff = "";
  const property = fc.asyncProperty(fuzzCase, async (c: FuzzCase) => {
    const ns = `f${++n}`;
    const steps = caseSteps(c, compat, ns);
    const realOut = comparable(await runSteps(real, steps, { real: true }), steps);
    const b = comparable(await runSteps(ours, steps), steps);
    const a = withNoneCreateFirst(withHiddenValues(realOut, b), b, compat === 1 && c.schema.create === "NONE");
    if (isDeepStrictEqual(a, b)) return true;
    lastDiff = firstDifference(a, b);
    return false;
  });
  const { result, seed } = await checkBounded(property, opts);
  if (!result.failed) return { runs: result.numRuns, seed, failure: "" };
  const [c] = result.counterexample ?? [];
  const text = c ? reproduction(c as FuzzCase, compat) : "(no counterexample)";
  return {
    runs: result.numRuns,
    seed,
    failure: `surql-auth differs from SurrealDB ${version} (seed ${seed}, path ${result.counterexamplePath}):\n${text}\n\nfirst difference: ${lastDiff}`,
  };
}
