// CLI `start --limits FILE`: the limits file read into throttle settings, then the flags and environment laid over it.

import { readFile } from "node:fs/promises";
import { LimitsError, throttleLimitsFromFile, type ThrottleLimits } from "../iam/throttle-limits.js";

/** The throttle settings of `start`: the file's (if any), overridden by those from flags and environment. Throws LimitsError. */
export async function loadThrottleLimits(file: string | undefined, overrides: Partial<ThrottleLimits>): Promise<Partial<ThrottleLimits>> {
  if (file === undefined) return overrides;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (e) {
    throw new LimitsError(`cannot read the limits file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return { ...throttleLimitsFromFile(json), ...overrides };
  } catch (e) {
    if (e instanceof LimitsError) throw new LimitsError(`${file}: ${e.message}`);
    throw e;
  }
}
