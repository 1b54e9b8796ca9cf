// Operations iam/ performs on a Session: apply an authentication result, invalidate, reset, expiry arithmetic.

import { ExpiredSession } from "../errors/index.js";
import { ANONYMOUS, isExpired, type Actor, type Clock, type Compat, type DefinitionRef, type Session } from "../exec/session.js";
import type { RecordId, ValueObject } from "../value/types.js";
import { invalidDuration, invalidExpiration } from "./errors.js";

/** Auth fields an accepted signin / signup / authenticate writes into the session, all at once. */
export interface SessionAuth {
  /** `undefined` keeps the session's current ns / db (root-level actors). */
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly actor: Actor;
  readonly ac: string | undefined;
  readonly rd: RecordId | undefined;
  readonly tk: ValueObject | undefined;
  readonly exp: number | undefined;
  /** The stored user / access / scope / token the session stands on (every iam/ path names them; see definitionEnded). */
  readonly definitions: readonly DefinitionRef[];
}

/**
 * Replaces the auth part of `session`; called only once everything has been checked, so failures leave it untouched.
 * `since`: a record user's identity sequence number (identity.ts).
 */
export function applyAuth(session: Session, auth: SessionAuth, since?: number): void {
  if (auth.ns !== undefined) session.ns = auth.ns;
  if (auth.db !== undefined) session.db = auth.db;
  session.actor = auth.actor;
  session.ac = auth.ac;
  session.rd = auth.rd;
  session.tk = auth.tk;
  session.exp = auth.exp;
  session.since = since;
  session.definitions = auth.definitions;
  session.killed = false;
}

/** RPC `invalidate`: anonymous again; ns, db, exp and connection params are kept. */
export function invalidate(session: Session): void {
  session.actor = ANONYMOUS;
  session.tk = undefined;
  session.ac = undefined;
  session.rd = undefined;
  session.since = undefined;
  session.definitions = [];
  session.killed = false;
}

/** RPC `reset` (v2): invalidate, and also forget ns, db and connection params. exp is kept. */
export function reset(session: Session): void {
  invalidate(session);
  session.ns = undefined;
  session.db = undefined;
  session.params.clear();
}

/** For the server's non-query methods (info, let, …): "The session has expired" once past `exp`. */
export function assertNotExpired(session: Session, clock: Clock): void {
  if (isExpired(session, clock)) throw new ExpiredSession();
}

/** Latest instant chrono can represent (+262142-12-31T23:59:59Z), in Unix seconds. */
export const MAX_TIMESTAMP = 8210266876799n;
const SAFE_NANOS = BigInt(Number.MAX_SAFE_INTEGER);
/** chrono::Duration holds at most i64::MAX milliseconds. */
const MAX_DURATION_NANOS = 9223372036854775807n * 1_000_000n;

/** Unix seconds of `now + duration` (SurrealDB: `(Utc::now() + d).timestamp()`), with its per-version errors. */
export function expiryAfter(nowMs: number, durationNanos: bigint, compat: Compat): number {
  if (durationNanos < 0n || durationNanos > MAX_DURATION_NANOS) throw invalidDuration(compat);
  // (durations below 2^53 ns, about 104 days, in exact float64 arithmetic: no BigInt allocated on authenticate's path)
  if (durationNanos < SAFE_NANOS && nowMs >= 0) {
    const d = Number(durationNanos);
    const ms = Math.floor(nowMs);
    const rest = d % 1e9;
    const at = (ms - (ms % 1000)) / 1000 + (d - rest) / 1e9 + Math.floor(((ms % 1000) * 1e6 + rest) / 1e9);
    if (at > Number(MAX_TIMESTAMP)) throw invalidExpiration(compat);
    return at;
  }
  const nowNanos = BigInt(Math.floor(nowMs)) * 1_000_000n;
  const at = (nowNanos + durationNanos) / 1_000_000_000n;
  if (at > MAX_TIMESTAMP) throw invalidExpiration(compat);
  return Number(at);
}

/** Unix seconds of `now`. */
export function nowSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
