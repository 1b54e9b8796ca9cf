// crypto:: builtins: password hashing (argon2, bcrypt, pbkdf2, scrypt; see hashing.ts) and hex digests.

import { createHash } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Session } from "../session.js";
import type { FunctionContext } from "./context.js";
import { generatePasswordHash, HASHING, PASSWORD_ALGORITHMS, type PasswordAlgorithm } from "./hashing.js";
import { clientHashes } from "./hash-gate.js";
import { fn, type BuiltinTable } from "./registry.js";

/**
 * Asked before a watched compare verifies a stored hash (signin's throttle, keyed on the credential compared): false
 * holds it back, and the compare answers false without a verify.
 */
export type AdmitStoredHash = (storedHash: string) => Promise<boolean>;

interface CompareWatch {
  /** The algorithms whose compare computed a hash (refused stored hashes compute none). */
  readonly log: PasswordAlgorithm[];
  readonly admit: AdmitStoredHash | undefined;
  /** A shadow run: each stored hash compared is listed, and the compare answers true without a verify. */
  readonly shadow?: string[];
}

const compareWatches = new WeakMap<Session, CompareWatch>();

/** From now on, records on `session` which password compares computed a hash (signin's equal-time check). */
export function watchPasswordCompares(session: Session, admit?: AdmitStoredHash): readonly PasswordAlgorithm[] {
  const log: PasswordAlgorithm[] = [];
  compareWatches.set(session, { log, admit });
  return log;
}

/**
 * From now on, every password compare the owner's code runs on `session` answers true without a verify (signin's
 * throttle finding the account a login names: attack pass 12, J6); returns the stored hashes compared, in order.
 */
export function shadowPasswordCompares(session: Session): readonly string[] {
  const shadow: string[] = [];
  compareWatches.set(session, { log: [], admit: undefined, shadow });
  return shadow;
}

/** `crypto::<alg>::compare`: false for a refused stored hash or one held back, else one verify (logged on a watched session). */
async function compare(alg: PasswordAlgorithm, hash: string, pass: string, ctx: FunctionContext): Promise<boolean> {
  const prepared = HASHING[alg].prepare(hash);
  if (!prepared.ok) return false;
  const watch = compareWatches.get(ctx.session);
  if (watch?.shadow && ctx.clientWritten !== true) {
    watch.shadow.push(hash);
    return true;
  }
  // only owner-written code (the SIGNIN clause and what it calls) runs on a watched session
  if (watch?.admit && ctx.clientWritten !== true && !(await watch.admit(hash))) return false;
  watch?.log.push(alg);
  return prepared.verify(pass);
}

/**
 * A password hash: a client's own, and every one a record user's query runs (its schema functions and field clauses
 * included: attack pass 6, D4), pass the gate that keeps the pool free for logins (hash-gate.ts).
 */
function hashing<T>(ctx: FunctionContext, work: () => Promise<T>): Promise<T> {
  const level = ctx.session.actor.level;
  const gated = ctx.clientWritten === true || level === "Record" || level === "Scope";
  return gated ? clientHashes.run(ctx.budget?.lane.identity ?? ctx.session, ctx.budget, work) : work();
}

const digest = (alg: string) => (args: unknown[]) => createHash(alg).update(args[0] as string, "utf8").digest("hex");

export const cryptoFunctions: BuiltinTable = {
  ...Object.fromEntries(
    PASSWORD_ALGORITHMS.flatMap((alg) => [
      [`crypto::${alg}::generate`, fn(["string"], ([pass], ctx) => hashing(ctx, () => generatePasswordHash(alg, pass as string)))],
      [`crypto::${alg}::compare`, fn(["string", "string"], ([hash, pass], ctx) => hashing(ctx, () => compare(alg, hash as string, pass as string, ctx)))],
    ]),
  ),
  "crypto::blake3": fn(["string"], ([s]) => bytesToHex(blake3(utf8ToBytes(s as string))), { compat: 2 }),
  "crypto::md5": fn(["string"], digest("md5")),
  "crypto::sha1": fn(["string"], digest("sha1")),
  "crypto::sha256": fn(["string"], digest("sha256")),
  "crypto::sha512": fn(["string"], digest("sha512")),
};
