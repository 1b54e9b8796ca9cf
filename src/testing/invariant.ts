// The noninterference invariant, shared by checkPermissions and the project's own property: run the attacker's steps
// on a fresh embedded engine and check that
// (1) no secret appears in anything the attacker receives (results, error texts, RPC errors);
// (2) the victim's protected state, read as root, is unchanged;
// (3) no secret appears in any other record afterwards (nothing was copied where the attacker can reach it);
// (4) run again with other secrets (the twin), the attacker sees the same (no boolean, count or order oracle).
// A secret is a marker string `SECRET_<slot>_<nonce>` (or, for a user's schema, a string stored in the victim's records).

import type { Connection, SurqlAuth } from "../index.js";
import { ownerSession } from "../import.js";
import type { Session } from "../exec/session.js";
import { toJson } from "../value/json.js";
import type { Value, ValueObject } from "../value/types.js";
import type { AttackStep } from "./vocabulary.js";

/** A fixed time, so that both runs of a case issue the same expiries. */
export const CLOCK = { now: (): number => Date.UTC(2026, 0, 1) };

/**
 * A secret value in a slot. The twin run stores other secrets — longer, and sorting after every other value where the
 * first sort before — so that what the attacker sees must not change between the two runs.
 */
export const marker = (nonce: string, slot: string, twin = false): string => (twin ? `zSECRET_${slot}_${nonce}_zzzz` : `SECRET_${slot}_${nonce}`);
export const MARKER_PREFIX = "SECRET_";
const MARKER_SOURCE = "z?SECRET_[a-z]+_[a-z0-9]+(?:_zzzz)?";
/** Matches every marker of either run. */
export const MARKERS = new RegExp(MARKER_SOURCE, "g");

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Matches the given strings (longest first; JSON-escaped too, as answers are JSON text); nothing if none. */
export function secretPattern(strings: Iterable<string>): RegExp {
  const forms = new Set<string>();
  for (const s of strings) forms.add(escape(s)).add(escape(JSON.stringify(s).slice(1, -1)));
  return new RegExp(forms.size ? [...forms].sort((a, b) => b.length - a.length).join("|") : "(?!)", "g");
}

/** The distinct secrets in a text. */
export function secretsIn(text: string, pattern: RegExp): string[] {
  return [...new Set(text.match(pattern) ?? [])];
}

/** A short window of the text around its first secret. */
function excerpt(text: string, secret: string): string {
  const i = text.indexOf(secret);
  return `${i > 120 ? "…" : ""}${text.slice(Math.max(0, i - 120), i + secret.length + 60)}${i + secret.length + 60 < text.length ? "…" : ""}`;
}

export const rootSession = (ns: string, db: string): Session => ({ ...ownerSession(), ns, db });

/** Runs SurrealQL as root; the answers as JSON text (each result, or `{ err }`). */
export async function rootJson(db: SurqlAuth, ns: string, dbName: string, text: string, vars: ValueObject = {}): Promise<string> {
  const rs = await db.engine.execute(text, rootSession(ns, dbName), vars);
  return JSON.stringify(rs.map((r) => (r.status === "OK" ? toJson(r.result, { compat: db.compat }) : { err: r.result })));
}

/** Evaluates a SurrealQL value as root. */
export async function rootValue(db: SurqlAuth, ns: string, dbName: string, text: string): Promise<Value> {
  const [r] = await db.engine.execute(`RETURN ${text}`, rootSession(ns, dbName));
  if (r?.status !== "OK") throw new Error(`cannot evaluate ${text}: ${String(r?.result)}`);
  return r.result;
}

/** Sends one step on the attacker's connection; what it received as JSON, or the RPC error. Values are evaluated in ns/db. */
export async function sendStep(db: SurqlAuth, conn: Connection, step: AttackStep, ns: string, dbName: string): Promise<string> {
  const json = (v: Value): string => JSON.stringify(toJson(v, { compat: db.compat }));
  try {
    if (step.kind === "let") return json(await conn.rpc("let", [step.name, await rootValue(db, ns, dbName, step.value)]));
    if (step.kind === "rpc") return json(await conn.rpc(step.method, (await rootValue(db, ns, dbName, step.params)) as Value[]));
    const vars: ValueObject = {};
    for (const [k, v] of Object.entries(step.vars)) vars[k] = await rootValue(db, ns, dbName, v);
    return json((await conn.query(step.sql, vars)) as Value);
  } catch (e) {
    return `RPC error: ${(e as Error).message}`;
  }
}

/**
 * Generated record keys from a seeded source during `f`, so both runs of a case make the same ids. (The engine draws
 * them from `crypto.getRandomValues`; it has no injectable source.)
 */
export async function withSeededKeys<T>(f: () => Promise<T>): Promise<T> {
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

/** (1) Secrets in what the attacker received; `sent[i]`, the step's own text, may be echoed back. */
export function leakViolations(seen: readonly string[], pattern: RegExp, sent: readonly string[] = []): string[] {
  return seen.flatMap((text, i) => {
    const found = secretsIn(text, pattern).filter((s) => !sent[i]?.includes(s));
    return found.length ? [`step ${i + 1}: the attacker received ${found.join(", ")}: ${excerpt(text, found[0]!)}`] : [];
  });
}

/** (2) The protected state read before and after the attack, with a label per part. */
export function changeViolations(before: readonly string[], after: readonly string[], label: (i: number) => string): string[] {
  return after.flatMap((text, i) => (text === before[i] ? [] : [`the victim's protected state changed in ${label(i)}:\n  before ${before[i]}\n  after  ${text}`]));
}

/** (3) Secrets in records other than the victim's: `[id, JSON]` pairs. */
export function copyViolations(records: readonly (readonly [string, string])[], pattern: RegExp): string[] {
  return records.flatMap(([id, text]) => {
    const found = secretsIn(text, pattern);
    return found.length ? [`record ${id} now holds ${found.join(", ")}: ${excerpt(text, found[0]!)}`] : [];
  });
}

/** What may differ between the two runs: the secrets themselves, timings, token signatures, uuids and salted password hashes. */
function comparable(text: string, pattern: RegExp): string {
  return text
    .replace(/"time":"[^"]*"/g, "")
    .replace(pattern, "<secret>")
    .replace(/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, "<jwt>")
    .replace(/\$(?:argon2(?:id|i|d)|2[aby]|scrypt|pbkdf2[\w-]*)\$[\w$=,.+/-]+/g, "<hash>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
}

/**
 * (4) Steps whose answer differs between the run and its twin (each with its own secrets). `control`, a rerun with
 * the first run's secrets, tells the steps whose answers vary anyway (a salted hash of the attacker's own password).
 */
export function twinViolations(first: readonly string[], twin: readonly string[], pattern: RegExp, twinPattern: RegExp = pattern, control?: readonly string[]): string[] {
  return first.flatMap((text, i) => {
    const other = twin[i] ?? "";
    if (control && comparable(control[i] ?? "", pattern) !== comparable(text, pattern)) return [];
    return comparable(text, pattern) === comparable(other, twinPattern) ? [] : [`step ${i + 1}: what the attacker sees depends on the victim's secrets:\n  ${text}\n  ${other}`];
  });
}
