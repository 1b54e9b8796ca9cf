// Equal time on a failed signin (rule 7, attack pass 7, E9): a failure answers no sooner than a floor — the verifies its
// SIGNIN clause can reach, each at the algorithm's generation cost as measured here, or the slowest recent failure of
// the same access method (system users: of this engine), whichever is more. It waits on a timer (no CPU, the thread
// pool stays free); a success is never held back. So a stored hash of another algorithm or a cheaper cost, or a clause
// that verifies twice for a known user, answers a wrong password as late as an unknown user.

import { generatePasswordHash, type PasswordAlgorithm } from "../exec/functions/hashing.js";

/** Wall time and a wait that costs no CPU; tests replace the methods (spies) to see the waits asked for. */
export const equalTimeTimer = {
  now: (): number => performance.now(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Samples kept: an algorithm's latest verify times, an access method's latest failures. */
const SAMPLES = 16;

const remember = (list: number[], ms: number): void => {
  list.push(ms);
  if (list.length > SAMPLES) list.shift();
};

const reference = new Map<PasswordAlgorithm, number[]>();

/** Records how long one verify of `alg` at generation cost took (every dummy verify is one). */
export function referenceSample(alg: PasswordAlgorithm, ms: number): void {
  let list = reference.get(alg);
  if (!list) reference.set(alg, (list = []));
  remember(list, ms);
}

/** Forgets every reference sample (tests seed their own: test files share this module). */
export function clearReferenceSamples(): void {
  reference.clear();
}

/** The slowest recent verify of `alg` at generation cost; the first time, one hash at that cost is timed. */
async function referenceMs(alg: PasswordAlgorithm): Promise<number> {
  if (!reference.get(alg)?.length) {
    const start = equalTimeTimer.now();
    await generatePasswordHash(alg, "surql-auth-calibration");
    referenceSample(alg, equalTimeTimer.now() - start);
  }
  return Math.max(...reference.get(alg)!);
}

/** The floor: the reachable verifies at reference cost, summed, or the slowest recent failure. */
export function paddingTarget(algorithms: readonly PasswordAlgorithm[], referenceOf: (alg: PasswordAlgorithm) => number, recentFailures: readonly number[]): number {
  const verifies = algorithms.reduce((sum, alg) => sum + referenceOf(alg), 0);
  return Math.max(verifies, ...recentFailures);
}

/** The recent failures' work of one access method (keyed by its SIGNIN clause) or one engine's system users. */
const failures = new WeakMap<object, number[]>();

/**
 * A failure that began at `start` (equalTimeTimer ms) after its work: waits until `start` + the floor of `group`
 * (`algorithms`: the verifies it can reach). Its own work joins the group's recent failures first, so a failure
 * slower than the floor raises it for those after.
 */
export async function padFailure(group: object, algorithms: readonly PasswordAlgorithm[], start: number): Promise<void> {
  let recent = failures.get(group);
  if (!recent) failures.set(group, (recent = []));
  remember(recent, equalTimeTimer.now() - start);
  const refs = new Map<PasswordAlgorithm, number>();
  for (const alg of new Set(algorithms)) refs.set(alg, await referenceMs(alg));
  const target = paddingTarget(algorithms, (alg) => refs.get(alg)!, recent);
  await equalTimeTimer.sleep(Math.max(0, start + target - equalTimeTimer.now()));
}
