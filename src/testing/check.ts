// checkPermissions: the noninterference property pointed at a user's schema. Two record users sign up through the
// schema's record access method; the victim creates its records (its own setup, and one generated record per table);
// the attacker sends generated queries (attacks.ts). Whatever it sends, no string of the victim's records (other than
// those declared public) may reach it, the victim's records must not change (other than those declared writable),
// and a second run with other secrets must look the same to it. A failure is a shrunk .surql reproduction.

import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { SurqlAuth, type Connection } from "../index.js";
import { MemoryStore, type KvStore } from "../store/kv/index.js";
import { toJson } from "../value/json.js";
import { toSql } from "../value/display.js";
import { RecordId, isValueObject, type Value, type ValueObject } from "../value/types.js";
import { ATTACKER, attackerSteps, targetOf, VICTIM, victimOf } from "./attacks.js";
import { changeViolations, CLOCK, copyViolations, leakViolations, marker, rootJson, rootSession, secretPattern, sendStep, twinViolations, withSeededKeys } from "./invariant.js";
import { tableRecords, fieldValues } from "./records.js";
import { failureText, minimize, reproductionText } from "./reproduction.js";
import { readSchema, type AccessShape, type SchemaShape, type TableShape } from "./schema.js";
import type { AttackStep } from "./vocabulary.js";

export interface Identity {
  /** Signup variables besides NS, DB and AC / SC (default: generated from the variables the SIGNUP clause reads). */
  readonly vars?: ValueObject;
  /** SurrealQL this user runs right after signing up, as itself (e.g. creating its posts). */
  readonly setup?: string;
}

export interface CheckOptions {
  /** 1 = SurrealDB 1.x dialect (DEFINE SCOPE), 2 = 2.x (default). */
  readonly compat?: 1 | 2;
  /** The record access method both users sign up with (default: the schema's only one). */
  readonly access?: string;
  readonly victim?: Identity;
  readonly attacker?: Identity;
  /** Tables the victim gets one generated record of (default: every non-relation table but the access method's; false: none). */
  readonly generate?: readonly string[] | false;
  /**
   * What of the victim's records anyone may read: table → condition (`published = true`), true (the whole table), or
   * `{ fields, where? }`: only those fields of its records (or of those the condition selects).
   */
  readonly public?: Readonly<Record<string, string | true | { readonly fields: readonly string[]; readonly where?: string }>>;
  /** The victim's records anyone may change (their hidden values must still not be seen): table → condition or true. */
  readonly writable?: Readonly<Record<string, string | true>>;
  /** Generated cases (default 50). */
  readonly numRuns?: number;
  /** fast-check seed (default: random; the result tells it). */
  readonly seed?: number;
  /** Stop starting new cases after this many ms (shrinking a failure may take longer). */
  readonly timeout?: number;
  /** Cases run while shrinking a failure (default 20; each is two engine runs). */
  readonly shrinks?: number;
  /** Steps per case (default 4). */
  readonly maxSteps?: number;
}

export interface Counterexample {
  /** The reproduction: schema, the two sign-ups, the victim's data, the attacker's steps. */
  readonly surql: string;
  readonly violations: readonly string[];
  /** What the attacker received per step. */
  readonly seen: readonly string[];
  /** All of it, as printed by assertPermissions. */
  readonly report: string;
}

export interface CheckResult {
  readonly ok: boolean;
  readonly runs: number;
  readonly seed: number;
  readonly counterexample?: Counterexample;
}

/** One generated case: the victim's signup variables and records, and the attacker's steps. */
interface Case {
  readonly victimVars: ValueObject;
  readonly records: readonly (readonly [string, ValueObject | undefined])[];
  readonly steps: readonly AttackStep[];
}

interface Setup {
  readonly files: readonly { readonly name: string; readonly text: string }[];
  readonly schema: SchemaShape;
  readonly access: AccessShape;
  readonly compat: 1 | 2;
  readonly attackerVars: ValueObject;
  readonly opts: CheckOptions;
  /** The store with the schema imported, copied for every run (importing hashes DEFINE USER passwords: slow). */
  readonly template: MemoryStore;
}

interface Run {
  readonly violations: string[];
  readonly seen: string[];
  /** The reproduction's set-up lines and resolved steps. */
  readonly setup: string[];
  readonly steps: AttackStep[];
  readonly attacker: string;
  /** What counted as secret in this run: the strings of the victim's records but the public ones. */
  readonly pattern: RegExp;
  /** Every string of the victim's records, public or not (they differ between the run and its twin). */
  readonly varying: RegExp;
}

/** A schema or option the check cannot run with (a refused sign-up, a failing set-up): thrown, not a counterexample. */
export class SetupError extends Error {}

/**
 * The secrets' nonces of the first and the twin run: the same length (a length ASSERT cannot tell them apart), and
 * neither holds a letter the attacker's probes compare with (`CONTAINS 'm'`), since the twin changes the victim's
 * public values too.
 */
const NONCES = ["k7q2xa", "z9w4vb"] as const;
const slot = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, "") || "value";

/** Replaces every string the function maps (recursively through arrays and objects). */
function mapStrings(v: Value, f: (s: string) => string): Value {
  if (typeof v === "string") return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (isValueObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}
const withNonce = (v: ValueObject, twin: boolean): ValueObject => mapStrings(v, (s) => s.replaceAll(NONCES[0], NONCES[twin ? 1 : 0])) as ValueObject;

/** Replaces record links to the access method's table (an owner field) with the victim's id. */
function ownedBy(v: Value, table: string | undefined, victim: RecordId): Value {
  if (v instanceof RecordId) return v.table === table ? victim : v;
  if (Array.isArray(v)) return v.map((x) => ownedBy(x, table, victim));
  if (isValueObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ownedBy(x, table, victim)]));
  return v;
}

const accessTable = (s: Setup): TableShape | undefined => s.schema.tables.find((t) => t.name === s.access.table && t.ns === s.access.ns && t.db === s.access.db);

/** Signup variables: a field's values for a variable SIGNUP stores in a field, else a string (an email if named so). */
function signupVars(s: Setup, text: (name: string) => string): fc.Arbitrary<ValueObject> {
  const table = accessTable(s);
  const entries = s.access.signupVars.map(({ name, field }) => {
    const shape = table?.fields.find((f) => f.path === field);
    const arb = shape ? fieldValues(shape, { stringFor: () => text(name) }).arbitrary : fc.constant(/mail/i.test(name) ? `${text(name)}@example.com` : text(name));
    return [name, arb] as const;
  });
  return fc.record(Object.fromEntries(entries)) as fc.Arbitrary<ValueObject>;
}

async function caseArbitrary(s: Setup): Promise<fc.Arbitrary<Case>> {
  const here = s.schema.tables.filter((t) => t.ns === s.access.ns && t.db === s.access.db);
  const names = s.opts.generate === false ? [] : (s.opts.generate ?? here.filter((t) => !t.relation && t.name !== s.access.table).map((t) => t.name));
  const records = await Promise.all(
    names.map(async (name) => {
      const table = here.find((t) => t.name === name) ?? { name, ns: s.access.ns, db: s.access.db, schemafull: false, relation: undefined, fields: [] };
      const arb = await tableRecords(table, { compat: s.compat, stringFor: (p) => marker(NONCES[0], slot(p)), seed: 1 });
      return arb.map((r) => [name, r] as const);
    }),
  );
  const target = targetOf(s.schema, s.access, s.compat);
  const victimVars = s.opts.victim?.vars ? fc.constant(s.opts.victim.vars) : signupVars(s, (n) => marker(NONCES[0], slot(n)));
  return fc.record({ victimVars, records: fc.tuple(...records), steps: attackerSteps(target, s.opts.maxSteps ?? 4) });
}

const signupBase = (s: Setup): ValueObject => ({ NS: s.access.ns, DB: s.access.db, [s.compat === 1 ? "SC" : "AC"]: s.access.name });

/** Signs a user up; a refusal is the caller's set-up error, reported as such. */
async function signup(conn: Connection, vars: ValueObject, who: string): Promise<RecordId> {
  try {
    await conn.signup(vars);
  } catch (e) {
    throw new SetupError(`checkPermissions: the ${who} could not sign up with ${toSql(vars)}: ${(e as Error).message} (pass options.${who}.vars)`);
  }
  const [r] = await conn.query("RETURN $auth.id");
  if (!(r?.result instanceof RecordId)) throw new SetupError(`checkPermissions: the ${who}'s session has no record ($auth.id is ${toSql(r?.result)})`);
  return r.result;
}

/** Every record of the database as `[id, JSON]`, by id. */
async function allRecords(db: SurqlAuth, ns: string, dbName: string): Promise<Map<string, string>> {
  const [info] = await db.engine.execute("INFO FOR DB", rootSession(ns, dbName));
  const defs = (info?.status === "OK" ? info.result : {}) as ValueObject;
  const tables = Object.keys(((defs["tables"] ?? defs["tb"]) as ValueObject | undefined) ?? {});
  const out = new Map<string, string>();
  for (const t of tables) {
    const [r] = await db.engine.execute(`SELECT * FROM type::table($t)`, rootSession(ns, dbName), { t });
    for (const row of (r?.status === "OK" ? toJson(r.result, { compat: db.compat }) : []) as { id: string }[]) out.set(row.id, JSON.stringify(row));
  }
  return out;
}

/** The ids of the records a table → condition map selects, each with the fields it leaves private (undefined: none). */
async function selected(db: SurqlAuth, s: Setup, which: CheckOptions["public"]): Promise<Map<string, readonly string[] | undefined>> {
  const out = new Map<string, readonly string[] | undefined>();
  for (const [t, sel] of Object.entries(which ?? {})) {
    const cond = typeof sel === "object" ? (sel.where ?? true) : sel;
    const json = await rootJson(db, s.access.ns, s.access.db, `SELECT VALUE id FROM type::table($t)${cond === true ? "" : ` WHERE ${cond}`}`, { t });
    const [ids] = JSON.parse(json) as unknown[];
    if (!Array.isArray(ids)) throw new SetupError(`checkPermissions: the condition on ${t} failed: ${json}`);
    for (const id of ids) out.set(String(id), typeof sel === "object" ? sel.fields : undefined);
  }
  return out;
}

/** The string leaves of a record's JSON text, but those under the given top-level fields. */
function strings(json: string, without: readonly string[] = []): string[] {
  const out: string[] = [];
  const record = JSON.parse(json) as Record<string, unknown> | null;
  for (const f of without) if (record) delete record[f];
  JSON.stringify(record, (_, v: unknown) => (typeof v === "string" && out.push(v), v));
  return out;
}

/** The victim signs up, runs its set-up and creates its generated records; its records are those that are new. */
async function victimPhase(db: SurqlAuth, s: Setup, c: Case, twin: boolean): Promise<{ victim: RecordId; records: string[]; setup: string[] }> {
  const { ns, db: dbName } = s.access;
  const seed = await allRecords(db, ns, dbName);
  const conn = db.connect();
  const vars = { ...signupBase(s), ...withNonce(c.victimVars, twin) };
  const victim = await signup(conn, vars, "victim");
  const setup = [...s.files.map((f) => `-- ${f.name}\n${f.text.trim()}`), `USE NS ${ns} DB ${dbName};`, `-- signup ${toSql(vars)}`, `-- then as the victim ${toSql(victim)}:`];
  if (s.opts.victim?.setup) setup.push(await userSetup(conn, s.opts.victim.setup, "victim"));
  for (const [table, record] of c.records) {
    if (!record) continue;
    const content = ownedBy(withNonce(record, twin), s.access.table, victim) as ValueObject;
    const [r] = await conn.query("CREATE type::table($t) CONTENT $c", { t: table, c: content });
    if (r?.status === "OK") setup.push(`CREATE ${table} CONTENT ${toSql(content, { compat: s.compat })};`);
  }
  const records = [...(await allRecords(db, ns, dbName)).keys()].filter((id) => !seed.has(id)).sort();
  return { victim, records, setup };
}

/** The attacker signs up and runs its set-up; its connection. */
async function attackerPhase(db: SurqlAuth, s: Setup, setup: string[]): Promise<{ attacker: RecordId; conn: Connection }> {
  const conn = db.connect();
  const vars = { ...signupBase(s), ...s.attackerVars };
  const attacker = await signup(conn, vars, "attacker");
  setup.push(`-- signup ${toSql(vars)}`);
  if (s.opts.attacker?.setup) setup.push(`-- then as the attacker ${toSql(attacker)}:`, await userSetup(conn, s.opts.attacker.setup, "attacker"));
  return { attacker, conn };
}

/** Runs a user's own set-up; its text for the reproduction. */
async function userSetup(conn: Connection, text: string, who: string): Promise<string> {
  for (const r of await conn.query(text)) if (r.status === "ERR") throw new SetupError(`checkPermissions: the ${who}'s setup failed: ${String(r.result)}`);
  return text.trim();
}

/**
 * What is secret: the strings of the victim's records (`pattern`: but the public ones; `varying`: all) that neither
 * the schema, the attacker's sign-up nor any other record holds.
 */
async function secretsOf(db: SurqlAuth, s: Setup, victims: readonly string[], ids: readonly RecordId[], attackerVars: ValueObject): Promise<{ pattern: RegExp; varying: RegExp }> {
  const records = await allRecords(db, s.access.ns, s.access.db);
  const publicIds = await selected(db, s, s.opts.public);
  const known = [s.files.map((f) => f.text).join("\n"), JSON.stringify(toJson(attackerVars)), ...[...records].filter(([id]) => !victims.includes(id)).map(([, j]) => j)].join("\n");
  const names = new Set([...records.keys(), ...ids.map((id) => toSql(id))]);
  const stringsOf = (which: readonly string[], open: (id: string) => readonly string[] = () => []): string[] =>
    which.flatMap((id) => strings(records.get(id) ?? "null", open(id))).filter((x) => x.length >= 6 && !names.has(x) && !known.includes(x));
  // a public record's strings are no secret, or those of its public fields
  const pattern = secretPattern(stringsOf(victims.filter((id) => !publicIds.has(id) || publicIds.get(id)), (id) => publicIds.get(id) ?? []));
  return { pattern, varying: secretPattern(stringsOf(victims)) };
}

/** The step with its placeholders resolved: the two users' ids, and the victim's first record of a table. */
function resolved(st: AttackStep, victim: RecordId, attacker: RecordId, victims: readonly string[]): AttackStep {
  const firstOf = (t: string): string => victims.find((id) => id.startsWith(`${t}:`)) ?? `${t}:nobody`;
  const resolve = (x: string): string => x.replaceAll(VICTIM, toSql(victim)).replaceAll(ATTACKER, toSql(attacker)).replace(/⟦victim\.(\w+)⟧/g, (_, t: string) => firstOf(t));
  if (st.kind === "let") return { ...st, value: resolve(st.value) };
  if (st.kind === "rpc") return { ...st, params: resolve(st.params) };
  return { ...st, sql: resolve(st.sql), vars: Object.fromEntries(Object.entries(st.vars).map(([k, v]) => [k, resolve(v)])) };
}

async function runOnce(s: Setup, c: Case, twin: boolean): Promise<Run> {
  const { ns, db: dbName } = s.access;
  // 1. a fresh engine holding the schema
  const db = await SurqlAuth.open({ compat: s.compat, clock: CLOCK, storage: await copyStore(s.template), throttle: { enabled: false } });
  // 2. the victim and its records, then the attacker
  const { victim, records: victims, setup } = await victimPhase(db, s, c, twin);
  const { attacker, conn } = await attackerPhase(db, s, setup);
  // 3. what is secret, and the protected state (the victim's records but the writable ones, and the definitions)
  const { pattern, varying } = await secretsOf(db, s, victims, [victim, attacker], s.attackerVars);
  const writable = await selected(db, s, s.opts.writable);
  const protectedState = async (): Promise<string> => {
    const now = await allRecords(db, ns, dbName);
    return JSON.stringify([victims.filter((id) => !writable.has(id)).map((id) => now.get(id) ?? `${id} deleted`), await rootJson(db, ns, dbName, "INFO FOR DB")]);
  };
  const before = await protectedState();
  // 4. the attack
  const steps = c.steps.map((st) => resolved(st, victim, attacker, victims));
  const seen: string[] = [];
  for (const st of steps) seen.push(await sendStep(db, conn, st, ns, dbName));
  // 5. the invariant: no secret received, nothing protected changed, no secret copied elsewhere
  const others = [...(await allRecords(db, ns, dbName))].filter(([id]) => !victims.includes(id));
  const violations = [
    ...leakViolations(seen, pattern, steps.map((st) => JSON.stringify(st))),
    ...changeViolations([before], [await protectedState()], () => `${ns}/${dbName} (the victim's records and the definitions)`),
    ...copyViolations(others, pattern),
  ];
  return { violations, seen, setup, steps, attacker: toSql(attacker), pattern, varying };
}

async function runCase(s: Setup, c: Case): Promise<Run> {
  const first = await withSeededKeys(() => runOnce(s, c, false));
  const twin = await withSeededKeys(() => runOnce(s, c, true));
  const differ = twinViolations(first.seen, twin.seen, first.varying, twin.varying);
  // only if the twin differs: a rerun with the same secrets tells the answers that vary anyway
  const control = differ.length ? (await withSeededKeys(() => runOnce(s, c, false))).seen : undefined;
  return { ...first, violations: [...first.violations, ...(control ? twinViolations(first.seen, twin.seen, first.varying, twin.varying, control) : [])] };
}

/** A new memory store holding what `from` holds. */
async function copyStore(from: KvStore): Promise<MemoryStore> {
  const to = new MemoryStore();
  const [r, w] = [await from.begin("read"), await to.begin("write")];
  for await (const batch of r.scan({ start: new Uint8Array(0), end: new Uint8Array([0xff, 0xff, 0xff, 0xff]) })) for (const [k, v] of batch) w.set(k, v);
  await r.cancel();
  await w.commit();
  return to;
}

async function setupOf(schemaFiles: string | readonly string[], opts: CheckOptions): Promise<Setup> {
  const paths = typeof schemaFiles === "string" ? [schemaFiles] : schemaFiles;
  const files = await Promise.all(paths.map(async (name) => ({ name, text: await readFile(name, "utf8") })));
  const schema = readSchema(files.map((f) => f.text).join("\n"));
  const candidates = schema.accesses.filter((a) => opts.access === undefined || a.name === opts.access);
  if (candidates.length !== 1) {
    throw new SetupError(`checkPermissions: ${candidates.length ? "several" : "no"} record access methods${opts.access ? ` named ${opts.access}` : ""} in ${paths.join(", ")}${candidates.length ? ` (${candidates.map((a) => a.name).join(", ")}): pass options.access` : ""}`);
  }
  const access = candidates[0]!;
  const compat = opts.compat ?? 2;
  const template = new MemoryStore();
  const db = await SurqlAuth.open({ compat, clock: CLOCK, storage: template });
  for (const f of files) await db.importText(f.text, f.name);
  const partial = { files, schema, access, compat, opts, template, attackerVars: {} };
  const attackerVars = opts.attacker?.vars ?? fc.sample(signupVars(partial, (n) => `attacker-${slot(n)}`), { numRuns: 1, seed: 1 })[0]!;
  return { ...partial, attackerVars };
}

/**
 * Runs generated attacker queries as one record user against another's data on an in-memory engine (see the file
 * comment); resolves to `{ ok: true }`, or to the shrunk counterexample as a .surql reproduction.
 */
export async function checkPermissions(schemaFiles: string | readonly string[], opts: CheckOptions = {}): Promise<CheckResult> {
  const s = await setupOf(schemaFiles, opts);
  const seed = opts.seed ?? Date.now() % 2 ** 31;
  // after the first failure, `shrinks` more cases run; fast-check's further candidates then pass unrun
  let [failed, left] = [false, opts.shrinks ?? 20];
  const property = fc.asyncProperty(await caseArbitrary(s), async (c) => {
    if (failed && left-- <= 0) return true;
    const held = (await runCase(s, c)).violations.length === 0;
    failed ||= !held;
    return held;
  });
  const result = await fc.check(property, { numRuns: opts.numRuns ?? 50, seed, ...(opts.timeout ? { interruptAfterTimeLimit: opts.timeout, markInterruptAsFailure: false } : {}) });
  if (result.errorInstance instanceof SetupError) throw result.errorInstance;
  if (!result.failed) return { ok: true, runs: result.numRuns, seed };
  const [shrunk] = (result.counterexample ?? []) as [Case?];
  if (!shrunk) throw result.errorInstance instanceof Error ? result.errorInstance : new Error(String(result.errorInstance));
  const c = await minimize(shrunk, async (x) => (await runCase(s, x)).violations.length > 0);
  const run = await runCase(s, c);
  const surql = reproductionText({ compat: s.compat, setup: run.setup, attacker: run.attacker, steps: run.steps });
  const report = failureText(`checkPermissions: a record user read or changed another's data (seed ${seed}, path ${result.counterexamplePath}):`, surql, run.violations, run.seen);
  return { ok: false, runs: result.numRuns, seed, counterexample: { surql, violations: run.violations, seen: run.seen, report } };
}

/** checkPermissions for a test: throws an Error whose message is the reproduction when the property fails. */
export async function assertPermissions(schemaFiles: string | readonly string[], opts: CheckOptions = {}): Promise<void> {
  const r = await checkPermissions(schemaFiles, opts);
  if (!r.ok) throw new Error(r.counterexample!.report);
}
