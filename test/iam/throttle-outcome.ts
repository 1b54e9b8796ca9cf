// The answer of a throttled call, for the throttle tests.

import { TooManyAttempts } from "../../src/index.js";

/** The error `run` rejects with (`throttled N` for TooManyAttempts, else its message), or "ok". */
export async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (e) {
    return e instanceof TooManyAttempts ? `throttled ${e.retryAfterSeconds}` : (e as Error).message;
  }
}
