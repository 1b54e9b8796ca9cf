// Differential harness: runs a scenario (raw RPC steps, as on one /rpc connection) on any target.

import { SignJWT } from "jose";
import type { Value } from "../../../src/value/types.js";
import { Masker, normalize } from "./normalize.js";
import type { RpcOutcome } from "./surreal.js";

/**
 * In params, `{"$result": N, "path": "0.result"}` is replaced by (a part of) step N's result (1-based), and
 * `{"$jwt": {alg, key, claims, header?}}` by a token signed on the spot; claim values "now", "now+60", "now-60"
 * become epoch seconds.
 */
export interface Step {
  readonly method: string;
  readonly params?: readonly unknown[];
  /** Why this step is left out of the comparison (a known, documented difference). */
  readonly skipCompare?: string;
  /** Why real SurrealDB must not run this step at all (it panics); it runs on surql-auth only. */
  readonly surrealPanics?: string;
  /** What surql-auth must answer where SurrealDB cannot be the judge (with `surrealPanics`). */
  readonly oursExpected?: { readonly error: string } | { readonly result: unknown };
}

export interface RpcTarget {
  rpc(method: string, params?: readonly unknown[]): Promise<RpcOutcome>;
}

export interface StepOutcome {
  readonly step: number;
  readonly method: string;
  readonly result?: unknown;
  readonly error?: string;
  readonly skipCompare?: string;
}

function pick(v: unknown, path: string | undefined): unknown {
  if (!path) return v;
  return path.split(".").reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], v);
}

export interface JwtSpec {
  readonly alg: "HS256" | "HS384" | "HS512";
  readonly key: string;
  readonly claims: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
}

function claimTime(v: unknown): unknown {
  const m = typeof v === "string" ? /^now([+-]\d+)?$/.exec(v) : null;
  return m ? Math.floor(Date.now() / 1000) + Number(m[1] ?? 0) : v;
}

export async function signJwt(spec: JwtSpec): Promise<string> {
  const claims = Object.fromEntries(Object.entries(spec.claims).map(([k, v]) => [k, claimTime(v)]));
  return new SignJWT(claims)
    .setProtectedHeader({ typ: "JWT", ...spec.header, alg: spec.alg })
    .sign(new TextEncoder().encode(spec.key));
}

async function substitute(p: unknown, results: readonly (Value | undefined)[]): Promise<unknown> {
  if (Array.isArray(p)) return Promise.all(p.map((x) => substitute(x, results)));
  if (p && typeof p === "object" && Object.getPrototypeOf(p) === Object.prototype) {
    const o = p as Record<string, unknown>;
    if (typeof o.$result === "number") return pick(results[o.$result - 1], o.path as string | undefined);
    if (o.$jwt) return signJwt(o.$jwt as JwtSpec);
    const entries = await Promise.all(Object.entries(o).map(async ([k, v]) => [k, await substitute(v, results)] as const));
    return Object.fromEntries(entries);
  }
  return p;
}

/**
 * KNOWN DIFFERENCE, stricter (SECURITY.md, attack re-check R9): SurrealDB's `authenticate` errors that come before the
 * signature is checked name what is missing; surql-auth answers the generic error for every token that does not
 * verify. (Expiry, checked before anything is looked up, keeps 2.6.0's "The token has expired".) SurrealDB's answer is compared as that generic error (test/iam/authenticate.test.ts).
 */
const UNVERIFIED_TOKEN_ERRORS = [
  /^The (root )?access method '.*' does not exist( in the (database|namespace) '.*')?$/,
  /^The access method cannot be used in the requested operation$/,
  /^The (scope|scope token|database token|namespace token) '.*' does not exist$/,
];
const DATABASE_PROBLEM = "There was a problem with the database: ";

function asOursForTokens(method: string, message: string): string {
  if (method !== "authenticate" || !message.startsWith(DATABASE_PROBLEM)) return message;
  const inner = message.slice(DATABASE_PROBLEM.length);
  return UNVERIFIED_TOKEN_ERRORS.some((re) => re.test(inner)) ? `${DATABASE_PROBLEM}There was a problem with authentication` : message;
}

/** Runs the steps in order and returns normalised outcomes (one Masker per run keeps masks consistent). */
export async function runSteps(target: RpcTarget, steps: readonly Step[], opts: { real?: boolean } = {}): Promise<StepOutcome[]> {
  const masker = new Masker();
  const raw: (Value | undefined)[] = [];
  const out: StepOutcome[] = [];
  for (const [i, s] of steps.entries()) {
    if (opts.real && s.surrealPanics) {
      raw.push(undefined);
      out.push({ step: i + 1, method: s.method, skipCompare: s.surrealPanics, error: "<not run: SurrealDB panics>" });
      continue;
    }
    if (s.method === "sleep") {
      // A pause of real time (session / token expiry); both sides run on the wall clock.
      await new Promise((r) => setTimeout(r, Number(s.params?.[0] ?? 0)));
      raw.push(undefined);
      out.push({ step: i + 1, method: s.method, result: null });
      continue;
    }
    const params = s.params === undefined ? undefined : ((await substitute(s.params, raw)) as unknown[]);
    const r = await target.rpc(s.method, params);
    raw.push(r.ok ? r.value : undefined);
    const base = { step: i + 1, method: s.method, ...(s.skipCompare ? { skipCompare: s.skipCompare } : {}) };
    out.push(r.ok ? { ...base, result: normalize(r.value, masker) } : { ...base, error: opts.real ? asOursForTokens(s.method, r.message) : r.message });
  }
  return out;
}
