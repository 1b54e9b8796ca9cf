// Password checks for system-user signin and HTTP Basic: a stored PHC argon2 hash, verified with bounded cost.

import argon2 from "argon2";

/** SurrealDB's argon2 defaults (argon2 crate 0.5: Argon2id, m=19456 KiB, t=2, p=1). */
export const ARGON2_DEFAULTS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes costing more than 4× the defaults are refused (a PASSHASH is stored verbatim and could be hostile). */
export const ARGON2_LIMITS = {
  memoryCost: 4 * ARGON2_DEFAULTS.memoryCost,
  work: 4 * ARGON2_DEFAULTS.memoryCost * ARGON2_DEFAULTS.timeCost,
  parallelism: 4,
  timeCost: 4 * ARGON2_DEFAULTS.timeCost,
} as const;

/** Verified against when the user does not exist, so an unknown user costs one argon2 verify too. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$7bTUozxmbAjckP+IxNjzPg$o7l3KF86VwEik84hFCFu/w4TKxzujSdubS8LYSQSvtg";

const PHC = /^\$(argon2id|argon2i|argon2d)\$(?:v=(16|19)\$)?([a-z]=\d{1,10},[a-z]=\d{1,10},[a-z]=\d{1,10})\$([A-Za-z0-9+/]{8,}={0,2})\$([A-Za-z0-9+/]{16,}={0,2})$/;

export type HashCheck = { ok: true; normalised: string } | { ok: false; reason: string };

/** Accepts an argon2 PHC string within the cost limits; parameters m, t, p in any order. */
export function checkPasshash(hash: string): HashCheck {
  const m = PHC.exec(hash);
  if (!m) return { ok: false, reason: "stored hash is not an argon2 PHC string" };
  const params = new Map(m[3]!.split(",").map((kv) => [kv[0]!, Number(kv.slice(2))] as const));
  if (params.size !== 3 || !params.has("m") || !params.has("t") || !params.has("p"))
    return { ok: false, reason: "stored hash is not an argon2 PHC string" };
  const memoryCost = params.get("m")!;
  const timeCost = params.get("t")!;
  const parallelism = params.get("p")!;
  if (memoryCost < 8 * parallelism || timeCost < 1 || parallelism < 1) return { ok: false, reason: "argon2 parameters out of range" };
  if (
    memoryCost > ARGON2_LIMITS.memoryCost ||
    timeCost > ARGON2_LIMITS.timeCost ||
    parallelism > ARGON2_LIMITS.parallelism ||
    memoryCost * timeCost > ARGON2_LIMITS.work
  )
    return { ok: false, reason: "argon2 parameters exceed the verification limit" };
  return { ok: true, normalised: hash };
}

/**
 * True when `password` matches the stored PHC hash. Never throws: a non-PHC, malformed or too costly hash,
 * or an empty password, is a plain `false` (the caller turns it into InvalidAuth). When the hash is refused
 * before hashing, one dummy verify still runs so failures cost the same.
 */
export async function verifyPassword(passhash: string | undefined, password: string): Promise<{ ok: boolean; reason?: string }> {
  const check = checkPasshash(passhash ?? "");
  if (!check.ok || password === "") {
    await dummyVerify(password);
    return { ok: false, reason: check.ok ? "empty password" : check.reason };
  }
  try {
    return (await argon2.verify(check.normalised, password)) ? { ok: true } : { ok: false, reason: "password mismatch" };
  } catch {
    return { ok: false, reason: "argon2 could not verify the stored hash" };
  }
}

/** One argon2 verify at SurrealDB's default cost, result ignored (unknown user, refused hash). */
export async function dummyVerify(password: string): Promise<void> {
  try {
    await argon2.verify(DUMMY_HASH, password || " ");
  } catch {
    // the dummy hash is valid; nothing to report
  }
}

/** Argon2id hash with SurrealDB's parameters (for tests and tools; DEFINE USER hashing lives in exec/). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...ARGON2_DEFAULTS });
}
