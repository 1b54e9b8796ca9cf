// Differential harness: runs a scenario (raw RPC steps, as on one /rpc connection) on any target.

import type { Value } from "../../../src/value/types.js";
import { Masker, normalize } from "./normalize.js";
import type { RpcOutcome } from "./surreal.js";

/** `{"$result": N, "path": "0.result"}` in params is replaced by (a part of) step N's result (1-based). */
export interface Step {
  readonly method: string;
  readonly params?: readonly unknown[];
  /** Why this step is left out of the comparison (a known, documented difference). */
  readonly skipCompare?: string;
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

function substitute(p: unknown, results: readonly (Value | undefined)[]): unknown {
  if (Array.isArray(p)) return p.map((x) => substitute(x, results));
  if (p && typeof p === "object" && Object.getPrototypeOf(p) === Object.prototype) {
    const o = p as Record<string, unknown>;
    if (typeof o.$result === "number") return pick(results[o.$result - 1], o.path as string | undefined);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, substitute(v, results)]));
  }
  return p;
}

/** Runs the steps in order and returns normalised outcomes (one Masker per run keeps masks consistent). */
export async function runSteps(target: RpcTarget, steps: readonly Step[]): Promise<StepOutcome[]> {
  const masker = new Masker();
  const raw: (Value | undefined)[] = [];
  const out: StepOutcome[] = [];
  for (const [i, s] of steps.entries()) {
    const params = s.params === undefined ? undefined : (substitute(s.params, raw) as unknown[]);
    const r = await target.rpc(s.method, params);
    raw.push(r.ok ? r.value : undefined);
    const base = { step: i + 1, method: s.method, ...(s.skipCompare ? { skipCompare: s.skipCompare } : {}) };
    out.push(r.ok ? { ...base, result: normalize(r.value, masker) } : { ...base, error: r.message });
  }
  return out;
}
