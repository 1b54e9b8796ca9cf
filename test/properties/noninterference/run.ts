// Noninterference: run one case of the project's generated schema on a fresh embedded engine and check the shared
// invariant (src/testing/invariant.ts) — no marker reaches the attacker, the victim's protected records and every
// database's definitions are unchanged, no marker is copied into another record, and the twin run (other secrets)
// looks the same to the attacker.

import { SurqlAuth } from "../../../src/index.js";
import { toJson } from "../../../src/value/index.js";
import { changeViolations, CLOCK, copyViolations, leakViolations, MARKERS, rootJson, rootSession, sendStep, twinViolations, withSeededKeys } from "../../../src/testing/invariant.js";
import type { AttackStep } from "./attacks.js";
import { ALL_TABLES, dataText, PROTECTED_RECORDS, schemaText, signupVars, VICTIMS_OWN, VICTIMS_WRITABLE, type SchemaSpec } from "./schema.js";

export interface Case {
  readonly schema: SchemaSpec;
  readonly steps: readonly AttackStep[];
}

export interface Outcome {
  /** Empty when the invariant held. */
  readonly violations: readonly string[];
  /** What the attacker received, per step (JSON or the RPC error). */
  readonly seen: readonly string[];
}

/** The victim's protected state, as root: its records and every database's definitions. */
async function protectedState(db: SurqlAuth): Promise<string[]> {
  const out: string[] = [];
  for (const [ns, d, what] of PROTECTED_RECORDS) out.push(await rootJson(db, ns, d, `SELECT * FROM ${what}; INFO FOR DB`));
  return out;
}

async function rows(db: SurqlAuth, what: string): Promise<{ id: string }[]> {
  const [r] = await db.engine.execute(`SELECT * FROM ${what}`, rootSession("n", "d"));
  return (r?.status === "OK" ? toJson(r.result, { compat: db.compat }) : []) as { id: string }[];
}

/** Every record in n/d that is not one of the victim's (as they were before the attack), with its JSON. */
async function otherRecords(db: SurqlAuth, victims: ReadonlySet<string>): Promise<[string, string][]> {
  return (await rows(db, ALL_TABLES)).filter((row) => !victims.has(row.id)).map((row) => [row.id, JSON.stringify(row)]);
}

/** `tamper`: SurrealQL run as root in n/d after the attack (the checker's own test uses it to change protected data). */
export async function runCase(c: Case, tamper?: string): Promise<Outcome> {
  const first = await withSeededKeys(() => runOnce(c, tamper));
  const twin = await withSeededKeys(() => runOnce({ ...c, schema: { ...c.schema, twin: true } }, tamper));
  return { violations: [...first.violations, ...twinViolations(first.seen, twin.seen, MARKERS)], seen: first.seen };
}

async function runOnce(c: Case, tamper: string | undefined): Promise<Outcome> {
  const s = c.schema;
  const db = await SurqlAuth.open({ compat: s.compat, clock: CLOCK });
  await db.importText(`USE NS n DB d;\n${schemaText(s)}`, "schema");
  await db.connect().signup(signupVars(s, "victim"));
  const attacker = db.connect();
  await attacker.signup(signupVars(s, "eve"));
  await db.importText(`USE NS n DB d;\n${dataText(s)}`, "data");
  const before = await protectedState(db);
  const victims = new Set([...(await rows(db, VICTIMS_OWN)), ...(await rows(db, VICTIMS_WRITABLE))].map((row) => row.id));

  const seen: string[] = [];
  for (const step of c.steps) seen.push(await sendStep(db, attacker, step, "n", "d"));
  if (tamper) await rootJson(db, "n", "d", tamper);

  const violations = [
    ...leakViolations(seen, MARKERS),
    ...changeViolations(before, await protectedState(db), (i) => PROTECTED_RECORDS[i]!.slice(0, 2).join("/")),
    ...copyViolations(await otherRecords(db, victims), MARKERS),
  ];
  return { violations, seen };
}
