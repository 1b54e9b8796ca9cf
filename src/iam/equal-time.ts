// Equal work on a failed record signin: a SIGNIN clause that returned no record or failed without computing a
// password hash (unknown user, or a credential of the wrong type) pays one dummy verify of the algorithm the clause
// compares with (wrong password: one verify).

import type { Expr } from "../ast/nodes.js";
import { watchPasswordCompares } from "../exec/functions/crypto.js";
import { dummyCompare, PASSWORD_ALGORITHMS, type PasswordAlgorithm } from "../exec/functions/hashing.js";
import type { Session } from "../exec/session.js";

const COMPARE_CALL = new RegExp(`^crypto::(${PASSWORD_ALGORITHMS.join("|")})::compare$`, "i");

/** Names of every function call in an AST (any depth, statements included); nodes are plain `kind`-tagged objects. */
function* callNames(node: unknown): Generator<string> {
  if (Array.isArray(node)) {
    for (const item of node) yield* callNames(item);
  } else if (typeof node === "object" && node !== null && Object.getPrototypeOf(node) === Object.prototype) {
    const fields = node as Record<string, unknown>;
    if (fields.kind === "Call" && typeof fields.name === "string") yield fields.name;
    for (const value of Object.values(fields)) yield* callNames(value);
  }
}

const algorithms = new WeakMap<Expr, PasswordAlgorithm>();

/** The algorithm of the first `crypto::<alg>::compare` call in `clause`; argon2 (SurrealDB's default) when none. */
export function compareAlgorithm(clause: Expr): PasswordAlgorithm {
  let alg = algorithms.get(clause);
  if (alg === undefined) {
    alg = "argon2";
    for (const name of callNames(clause)) {
      const m = COMPARE_CALL.exec(name);
      if (m) {
        alg = m[1]!.toLowerCase() as PasswordAlgorithm;
        break;
      }
    }
    algorithms.set(clause, alg);
  }
  return alg;
}

/** Watches the password compares `clause` computes on `session`; `settle` pays the dummy verify when none ran. */
export function equalTimeSignin(clause: Expr, session: Session): { settle(): Promise<void>; run<T>(evaluate: () => Promise<T>): Promise<T> } {
  const compares = watchPasswordCompares(session);
  const settle = () => (compares.length === 0 ? dummyCompare(compareAlgorithm(clause), "surql-auth-dummy") : Promise.resolve());
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
