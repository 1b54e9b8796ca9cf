// Issuing tokens exactly as SurrealDB: header {"typ":"JWT","alg":…}, payload keys in its serialisation order.

import { randomUUID } from "node:crypto";
import { CompactSign } from "jose";
import type { JwtAlgorithm } from "../ast/nodes.js";
import type { Compat } from "../exec/session.js";
import { issuedClaims, issuedPayload, type Claims, type IssueClaims } from "./claims.js";
import { tokenMakingFailed } from "./errors.js";
import { joseAlgorithm, type KeyStore } from "./keys.js";
import { expiryAfter } from "./session.js";

export interface IssueInput {
  readonly alg: JwtAlgorithm;
  readonly key: string;
  /** Now, ms since the epoch. */
  readonly nowMs: number;
  /** Token lifetime in nanoseconds. */
  readonly durationNanos: bigint;
  readonly NS?: string;
  readonly DB?: string;
  readonly SC?: string;
  readonly AC?: string;
  readonly ID?: string;
  readonly RL?: string[];
}

export interface IssuedToken {
  readonly token: string;
  readonly claims: Claims;
}

const encoder = new TextEncoder();

/** Claims of a new token: `iat` = `nbf` = now, `exp` = now + duration (per-version errors on overflow), fresh `jti`. */
export function prepareClaims(input: IssueInput, compat: Compat): IssueClaims {
  const iat = Math.floor(input.nowMs / 1000);
  const exp = expiryAfter(input.nowMs, input.durationNanos, compat);
  const c: IssueClaims = { iat, exp, jti: randomUUID() };
  if (input.NS !== undefined) c.NS = input.NS;
  if (input.DB !== undefined) c.DB = input.DB;
  if (input.SC !== undefined) c.SC = input.SC;
  if (input.AC !== undefined) c.AC = input.AC;
  if (input.ID !== undefined) c.ID = input.ID;
  if (input.RL !== undefined) c.RL = input.RL;
  return c;
}

/** Signs prepared claims; any failure is "There was an error creating the token". */
export async function signClaims(c: IssueClaims, alg: JwtAlgorithm, key: string, keys: KeyStore): Promise<IssuedToken> {
  try {
    const token = await new CompactSign(encoder.encode(JSON.stringify(issuedPayload(c))))
      .setProtectedHeader({ typ: "JWT", alg: joseAlgorithm(alg) })
      .sign(keys.signKey(alg, key));
    return { token, claims: issuedClaims(c) };
  } catch {
    throw tokenMakingFailed();
  }
}

/** prepareClaims then signClaims. */
export async function issueToken(input: IssueInput, keys: KeyStore, compat: Compat): Promise<IssuedToken> {
  return signClaims(prepareClaims(input, compat), input.alg, input.key, keys);
}

/** Durations used when a definition sets none. */
export const HOUR_NANOS = 3_600_000_000_000n;
export const DAY_NANOS = 24n * HOUR_NANOS;
