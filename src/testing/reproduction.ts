// A failing case as a ready-to-paste .surql reproduction: the set-up as root (schema, sign-ups as comments, the
// victim's data), then the attacker's steps, what broke and what the attacker received. Before printing, the steps
// and client variables the violation does not need are dropped (fast-check's shrinking keeps some behind a chain).

import type { Compat } from "../exec/session.js";
import { stepText, type AttackStep } from "./vocabulary.js";

export interface Reproduction {
  readonly compat: Compat;
  /** What runs as root first, as SurrealQL (sign-ups and other non-SurrealQL steps as `--` comments). */
  readonly setup: readonly string[];
  /** The attacker's record id. */
  readonly attacker: string;
  readonly steps: readonly AttackStep[];
}

export function reproductionText(r: Reproduction): string {
  return [
    `-- compat ${r.compat} (SurrealDB ${r.compat === 1 ? "1.5.4" : "2.6.0"} dialect); as root:`,
    ...r.setup,
    `-- then as the record user ${r.attacker}:`,
    ...r.steps.map(stepText),
  ].join("\n");
}

/** The reproduction followed by the violations and, per step, what the attacker received (long answers cut). */
export function failureText(title: string, repro: string, violations: readonly string[], seen: readonly string[]): string {
  return [
    title,
    repro,
    "",
    "-- violations:",
    ...violations.map((v) => `--   ${v}`),
    "-- the attacker received:",
    ...seen.map((t, i) => `--   step ${i + 1}: ${t.length > 600 ? `${t.slice(0, 600)}…` : t}`),
  ].join("\n");
}

/** Drops steps, then query variables, while the case still fails. */
export async function minimize<C extends { readonly steps: readonly AttackStep[] }>(c: C, fails: (c: C) => Promise<boolean>): Promise<C> {
  let best = c;
  const failing = (x: C): Promise<boolean> => fails(x).catch(() => true);
  for (let i = best.steps.length - 1; i >= 0 && best.steps.length > 1; i--) {
    const fewer = { ...best, steps: best.steps.filter((_, j) => j !== i) };
    if (await failing(fewer)) best = fewer;
  }
  for (let i = 0; i < best.steps.length; i++) {
    const step = best.steps[i]!;
    if (step.kind !== "query" || Object.keys(step.vars).length === 0) continue;
    const bare = { ...best, steps: best.steps.map((s, j) => (j === i ? { ...step, vars: {} } : s)) };
    if (await failing(bare)) best = bare;
  }
  return best;
}
