// The answer of a throttled call, and record access methods by SIGNIN clause, for the throttle tests.

import type { Compat } from "../../src/exec/session.js";
import { TooManyAttempts } from "../../src/index.js";

/** One record access method per named SIGNIN clause (compat 1: a scope), tokens for 5 minutes. */
export function defineSignins(compat: Compat, clauses: Readonly<Record<string, string>>): string {
  return Object.entries(clauses)
    .map(([name, signin]) =>
      compat === 1 ? `DEFINE SCOPE ${name} SESSION 5m SIGNIN (${signin});` : `DEFINE ACCESS ${name} ON DATABASE TYPE RECORD SIGNIN (${signin}) DURATION FOR TOKEN 5m;`,
    )
    .join("\n");
}

/** The error `run` rejects with (`throttled N` for TooManyAttempts, else its message), or "ok". */
export async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (e) {
    return e instanceof TooManyAttempts ? `throttled ${e.retryAfterSeconds}` : (e as Error).message;
  }
}
