// Noninterference: run one case on a fresh embedded engine and check the invariant —
// (1) no marker appears in anything the attacker receives (results, error texts, RPC errors);
// (2) the victim's protected records, and the definitions of every database, are unchanged (read as root);
// (3) no marker appears in any other record afterwards (nothing was copied where the attacker can reach it);
// (4) run again with other secrets (the twin), the attacker sees the same (no boolean, count or order oracle).

import { SurqlAuth, type Connection } from "../../../src/index.js";
import { newSession, type Session } from "../../../src/exec/session.js";
import { toJson } from "../../../src/value/index.js";
import type { Value, ValueObject } from "../../../src/value/types.js";
import type { AttackStep } from "./attacks.js";
import { ALL_TABLES, dataText, MARKER_PREFIX, PROTECTED_RECORDS, schemaText, signupVars, VICTIMS_OWN, VICTIMS_WRITABLE, type SchemaSpec } from "./schema.js";

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

const root = (ns: string, db: string): Session =>
  newSession({ ns, db, actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

async function rootQuery(db: SurqlAuth, ns: string, dbName: string, text: string): Promise<string> {
  const rs = await db.engine.execute(text, root(ns, dbName));
  return JSON.stringify(rs.map((r) => (r.status === "OK" ? toJson(r.result, { compat: db.compat }) : { err: r.result })));
}

async function rootValue(db: SurqlAuth, text: string): Promise<Value> {
  const [r] = await db.engine.execute(`RETURN ${text}`, root("n", "d"));
  if (r?.status !== "OK") throw new Error(`cannot evaluate ${text}: ${r?.result}`);
  return r.result;
}

/** The victim's protected state, as root: its records and every database's definitions. */
async function protectedState(db: SurqlAuth): Promise<string[]> {
  const out: string[] = [];
  for (const [ns, d, what] of PROTECTED_RECORDS) out.push(await rootQuery(db, ns, d, `SELECT * FROM ${what}; INFO FOR DB`));
  return out;
}

async function rows(db: SurqlAuth, what: string): Promise<{ id: string }[]> {
  const [r] = await db.engine.execute(`SELECT * FROM ${what}`, root("n", "d"));
  return (r?.status === "OK" ? toJson(r.result, { compat: db.compat }) : []) as { id: string }[];
}

/** Every record in n/d that is not one of the victim's (as they were before the attack), with its JSON. */
async function otherRecords(db: SurqlAuth, victims: ReadonlySet<string>): Promise<[string, string][]> {
  return (await rows(db, ALL_TABLES)).filter((row) => !victims.has(row.id)).map((row) => [row.id, JSON.stringify(row)]);
}

async function attack(db: SurqlAuth, conn: Connection, step: AttackStep): Promise<string> {
  try {
    if (step.kind === "let") return JSON.stringify(toJson(await conn.rpc("let", [step.name, await rootValue(db, step.value)]), { compat: db.compat }));
    if (step.kind === "rpc") return JSON.stringify(toJson(await conn.rpc(step.method, (await rootValue(db, step.params)) as Value[]), { compat: db.compat }));
    const vars: ValueObject = {};
    for (const [k, v] of Object.entries(step.vars)) vars[k] = await rootValue(db, v);
    return JSON.stringify(toJson((await conn.query(step.sql, vars)) as Value, { compat: db.compat }));
  } catch (e) {
    return `RPC error: ${(e as Error).message}`;
  }
}

/** The markers in a text (each `SECRET_<slot>_<nonce>`). */
function markersIn(text: string): string[] {
  return [...new Set(text.match(new RegExp(`${MARKER_PREFIX}[a-z]+_[a-z0-9]+`, "g")) ?? [])];
}

/** A short window of the text around its first marker. */
function excerpt(text: string): string {
  const i = text.indexOf(MARKER_PREFIX);
  return `${i > 120 ? "…" : ""}${text.slice(Math.max(0, i - 120), i + 80)}${i + 80 < text.length ? "…" : ""}`;
}

/** A fixed time, so that both runs of a case issue the same expiries. */
const CLOCK = { now: () => Date.UTC(2026, 0, 1) };

/**
 * Generated record keys from a seeded source during `f`, so both runs of a case make the same ids. (The engine draws
 * them from `crypto.getRandomValues`; it has no injectable source.)
 */
async function withSeededKeys<T>(f: () => Promise<T>): Promise<T> {
  const c = globalThis.crypto;
  const original = c.getRandomValues;
  let x = 0x9e3779b9;
  c.getRandomValues = (<A extends ArrayBufferView | null>(a: A): A => {
    if (a) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) >>> 24;
    }
    return a;
  }) as typeof original;
  try {
    return await f();
  } finally {
    c.getRandomValues = original;
  }
}

/** What may differ between the two runs: the secrets themselves, timings, token signatures and uuids. */
function comparable(text: string): string {
  return text
    .replace(/"time":"[^"]*"/g, "")
    .replace(/z?SECRET_[a-z]+_[a-z0-9]+(_zzzz)?/g, "<secret>")
    .replace(/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, "<jwt>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
}

/** `tamper`: SurrealQL run as root in n/d after the attack (the checker's own test uses it to change protected data). */
export async function runCase(c: Case, tamper?: string): Promise<Outcome> {
  const first = await withSeededKeys(() => runOnce(c, tamper));
  const twin = await withSeededKeys(() => runOnce({ ...c, schema: { ...c.schema, twin: true } }, tamper));
  const violations = [...first.violations];
  first.seen.forEach((text, i) => {
    const other = twin.seen[i] ?? "";
    if (comparable(text) !== comparable(other)) violations.push(`step ${i + 1}: what the attacker sees depends on the victim's secrets:\n  ${text}\n  ${other}`);
  });
  return { violations, seen: first.seen };
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
  for (const step of c.steps) seen.push(await attack(db, attacker, step));
  if (tamper) await rootQuery(db, "n", "d", tamper);

  const violations: string[] = [];
  seen.forEach((text, i) => {
    const found = markersIn(text);
    if (found.length) violations.push(`step ${i + 1}: the attacker received ${found.join(", ")}: ${excerpt(text)}`);
  });
  const after = await protectedState(db);
  after.forEach((text, i) => {
    if (text !== before[i]) violations.push(`the victim's protected state changed in ${PROTECTED_RECORDS[i]!.slice(0, 2).join("/")}:\n  before ${before[i]}\n  after  ${text}`);
  });
  for (const [id, text] of await otherRecords(db, victims)) {
    const found = markersIn(text);
    if (found.length) violations.push(`record ${id} now holds ${found.join(", ")}: ${excerpt(text)}`);
  }
  return { violations, seen };
}
