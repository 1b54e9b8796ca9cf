// Equal work on a failed record signin: a SIGNIN clause that returned no record or failed without computing a
// password hash (unknown user, or a credential of the wrong type) pays one dummy verify of the algorithm the clause
// compares with (wrong password: one verify); then every failure waits for the access method's floor
// (equal-time-floor.ts), whatever the stored hash's algorithm and cost.

import type { CallExpr, Expr } from "../ast/nodes.js";
import { watchPasswordCompares, type AdmitStoredHash } from "../exec/functions/crypto.js";
import { dummyCompare, PASSWORD_ALGORITHMS, type PasswordAlgorithm } from "../exec/functions/hashing.js";
import type { Session } from "../exec/session.js";
import { equalTimeTimer, padFailure, referenceSample } from "./equal-time-floor.js";

const COMPARE_CALL = new RegExp(`^crypto::(${PASSWORD_ALGORITHMS.join("|")})::compare$`, "i");

/** Every `kind`-tagged node of an AST (any depth, statements included); nodes are plain objects. */
export function* astNodes(node: unknown): Generator<Readonly<Record<string, unknown>>> {
  if (Array.isArray(node)) {
    for (const item of node) yield* astNodes(item);
  } else if (typeof node === "object" && node !== null && Object.getPrototypeOf(node) === Object.prototype) {
    const fields = node as Record<string, unknown>;
    if (typeof fields.kind === "string") yield fields;
    for (const value of Object.values(fields)) yield* astNodes(value);
  }
}

/** The `crypto::<alg>::compare` calls of `clause`, in order. */
export function compareCalls(clause: Expr): CallExpr[] {
  const calls: CallExpr[] = [];
  for (const node of astNodes(clause)) if (node.kind === "Call" && COMPARE_CALL.test(String(node.name))) calls.push(node as unknown as CallExpr);
  return calls;
}

const algorithms = new WeakMap<Expr, PasswordAlgorithm>();

/** The algorithm of the first `crypto::<alg>::compare` call in `clause`; argon2 (SurrealDB's default) when none. */
export function compareAlgorithm(clause: Expr): PasswordAlgorithm {
  let alg = algorithms.get(clause);
  if (alg === undefined) {
    const first = compareCalls(clause)[0];
    alg = first ? (COMPARE_CALL.exec(first.name)![1]!.toLowerCase() as PasswordAlgorithm) : "argon2";
    algorithms.set(clause, alg);
  }
  return alg;
}

/** Every `crypto::<alg>::compare` of `clause`, one per call (a clause with none: one argon2, its dummy's). */
export function clauseAlgorithms(clause: Expr): PasswordAlgorithm[] {
  const algs = compareCalls(clause).map((call) => COMPARE_CALL.exec(call.name)![1]!.toLowerCase() as PasswordAlgorithm);
  return algs.length > 0 ? algs : [compareAlgorithm(clause)];
}

/** One dummy verify of `alg`, timed as a sample of its generation cost. */
export async function timedDummy(alg: PasswordAlgorithm, pass: string): Promise<void> {
  const start = equalTimeTimer.now();
  await dummyCompare(alg, pass);
  referenceSample(alg, equalTimeTimer.now() - start);
}

/**
 * Watches the password compares `clause` computes on `session` from now on (each stored hash asks `admit` first: one
 * held back verifies nothing); `settle` (a failure) pays the dummy verify when none ran, then waits for the clause's floor.
 */
export function equalTimeSignin(clause: Expr, session: Session, admit?: AdmitStoredHash): { settle(): Promise<void>; run<T>(evaluate: () => Promise<T>): Promise<T> } {
  const start = equalTimeTimer.now();
  const compares = watchPasswordCompares(session, admit);
  const settle = async () => {
    if (compares.length === 0) await timedDummy(compareAlgorithm(clause), "surql-auth-dummy");
    await padFailure(clause, clauseAlgorithms(clause), start);
  };
  return {
    settle,
    /** Evaluates the clause; a failure (error or THROW) settles before it propagates. */
    run: async (evaluate) => {
      try {
        return await evaluate();
      } catch (e) {
        await settle();
        throw e;
      }
    },
  };
}
