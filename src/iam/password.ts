// Password checks for system-user signin and HTTP Basic: a stored argon2 PHC hash, verified with bounded cost.
// Parameters, bounds and the dummy hash live with the crypto:: functions (exec/functions/hashing.ts).

import { dummyCompare, generatePasswordHash, HASHING, type PreparedHash } from "../exec/functions/hashing.js";

/** Accepts an argon2 PHC string within the cost limits; the reason of a refusal is for the log. */
export function checkPasshash(hash: string): PreparedHash {
  return HASHING.argon2.prepare(hash);
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
  return (await check.verify(password)) ? { ok: true } : { ok: false, reason: "password mismatch" };
}

/** One argon2 verify at SurrealDB's cost, result ignored (unknown user, refused hash). */
export function dummyVerify(password: string): Promise<void> {
  return dummyCompare("argon2", password || " ");
}

/** Argon2id hash with SurrealDB's parameters, as DEFINE USER … PASSWORD stores it (for tests and tools). */
export function hashPassword(password: string): Promise<string> {
  return generatePasswordHash("argon2", password);
}
