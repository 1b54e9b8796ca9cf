// Token verification (auth.md §3.5): decode, strict nbf/exp pre-check, then the signature with an explicit algorithm list.

import { decodeJwt, decodeProtectedHeader, jwtVerify, type ProtectedHeaderParameters } from "jose";
import type { JwtVerify } from "../ast/nodes.js";
import { InvalidAuth, authError } from "../errors/index.js";
import type { Clock, Compat } from "../exec/session.js";
import { readClaims, type Claims } from "./claims.js";
import { missingKid } from "./errors.js";
import { JwksError, type JwksCache } from "./jwks.js";
import { joseAlgorithm, type KeyStore } from "./keys.js";

export interface DecodedToken {
  readonly header: ProtectedHeaderParameters;
  readonly claims: Claims;
}

/** Decodes without verifying; anything that is not a JWS compact token with a JSON claims object fails. */
export function decodeToken(token: string, compat: Compat): DecodedToken {
  let header: ProtectedHeaderParameters;
  let payload: Record<string, unknown>;
  if (token.split(".").length !== 3) throw new InvalidAuth("token does not decode: not a compact JWS");
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token) as Record<string, unknown>;
  } catch (e) {
    throw new InvalidAuth(`token does not decode: ${(e as Error).message}`);
  }
  try {
    return { header, claims: readClaims(payload, compat) };
  } catch (e) {
    throw new InvalidAuth(`token claims do not deserialise: ${(e as Error).message}`);
  }
}

/**
 * Strict checks before any key is looked up: `exp` required; nbf in the future or exp in the past refused. An expired
 * token gets 2.x's "The token has expired" (SurrealDB checks expiry before the signature too, so the text says nothing
 * about which names exist); everything else the generic error.
 */
export function precheckTimes(claims: Pick<Claims, "exp" | "nbf">, nowSec: number, compat: Compat): void {
  if (claims.exp === undefined) throw new InvalidAuth("token has no exp claim");
  if (claims.nbf !== undefined && claims.nbf > nowSec) throw new InvalidAuth("token is not valid yet (nbf)");
  if (claims.exp < nowSec) throw compat === 1 ? new InvalidAuth("token has expired") : authError("ExpiredToken");
}

export interface VerifyContext {
  readonly keys: KeyStore;
  readonly jwks: JwksCache;
  readonly clock: Clock;
}

/**
 * Checks the signature against one configured key (or JWKS). Only the configured algorithm is accepted
 * (so `none` and HS/RS confusion fail); `exp` gets the library's 60 s leeway after the strict pre-check.
 */
export async function verifySignature(token: string, header: ProtectedHeaderParameters, verify: JwtVerify, ctx: VerifyContext): Promise<void> {
  const alg = header.alg ?? "";
  let key;
  let algorithms: string[];
  if (verify.kind === "Key") {
    algorithms = [joseAlgorithm(verify.alg)];
    if (alg !== algorithms[0]) throw new InvalidAuth(`token alg '${alg}' is not the configured ${algorithms[0]}`);
    try {
      key = ctx.keys.verifyKey(verify.alg, verify.key);
    } catch (e) {
      throw new InvalidAuth(`configured ${verify.alg} key does not import: ${(e as Error).message}`);
    }
  } else {
    if (typeof header.kid !== "string") throw missingKid();
    algorithms = [alg];
    try {
      key = await ctx.jwks.getKey(verify.url, header.kid, alg);
    } catch (e) {
      if (e instanceof JwksError) throw new InvalidAuth(e.message);
      throw e;
    }
  }
  try {
    await jwtVerify(token, key, { algorithms, currentDate: new Date(ctx.clock.now()), clockTolerance: 60 });
  } catch (e) {
    throw new InvalidAuth(`token signature or claims rejected: ${(e as Error).message}`);
  }
}

/** HS512 verification with a user's or scope's generated secret. */
export function codeVerify(code: string): JwtVerify {
  return { kind: "Key", alg: "HS512", key: code };
}

