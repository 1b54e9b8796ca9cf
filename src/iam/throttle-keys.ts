// Which throttle buckets an attempt counts in, decided from the request alone (never a user or record lookup, so the
// answer cannot depend on whether the identity exists): the identity it tries, and the client's address.

import { createHash, createHmac } from "node:crypto";
import { isIPv6 } from "node:net";
import type { Base } from "../ast/nodes.js";
import type { Session } from "../exec/session.js";
import { decimalFromScaled, parseDecimalText } from "../value/decimal.js";
import { Decimal, isValueObject, type Value, type ValueObject } from "../value/types.js";
import { getAccess, type IamContext } from "./context.js";
import { rawString, readCredentials } from "./credentials.js";
import { signinTarget } from "./signin.js";
import { selectorsOf } from "./throttle-selectors.js";
import { basicLevel, credentialLevels } from "./user.js";

/**
 * A counter: `identity` counts failed signins of one identity (back-off, then lockout; they leave with their window);
 * `address` counts a client address's attempts (signin and signup: every one; Basic: failures), `token` its failed
 * authenticate calls and Bearer checks.
 */
export interface Bucket {
  readonly kind: "identity" | "address" | "token";
  /** A hash of what the bucket stands for: fixed size, and no credential text kept in memory or the store. */
  readonly key: string;
  /** A success counts too (signin / signup per address); otherwise it takes its own mark back. */
  readonly countsSuccess: boolean;
}

/** Credential keys that name the target, not the identity. */
const TARGET_KEYS = new Set(["NS", "ns", "DB", "db", "AC", "ac", "SC", "sc"]);

/** Variable names taken for a password: never an identity part (no hash of a password in memory or the store). */
const PASSWORD_LIKE = /pass|pwd|secret/i;

const bucketKey = (parts: readonly string[]): string => createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 22);

/** A space, JavaScript's or Unicode's (U+0085 too, which SurrealDB's `string::trim` strips: attack pass 11, I2); all are one unit. */
const SPACE = /^[\s\p{White_Space}]$/u;

/** `text` without spaces at either end, in linear time (a `\s+$` pattern is quadratic on a long run of spaces). */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && SPACE.test(text[start]!)) start++;
  while (end > start && SPACE.test(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** Case and Unicode form folded, spaces trimmed: `Bob@X.io `, `bob@x.io\u0085` and `bob@x.io` are one identity. */
const fold = (text: string): string => trimSpaces(text.normalize("NFKC")).toLowerCase();

const identity = (parts: readonly string[]): Bucket => ({ kind: "identity", key: bucketKey(parts), countsSuccess: false });

/**
 * A number of any kind as one text: SurrealDB's `=` finds int 42, float 42.0 and decimal 42.00 / 4.2e1 equal, so they
 * are one identity (attack pass 11, I2). Exact: the decimal digits of the value, trailing zeros dropped.
 */
export function canonicalNumber(n: bigint | number | Decimal): string {
  if (typeof n === "number" && !Number.isFinite(n)) return String(n);
  const s = parseDecimalText(typeof n === "object" ? n.text : String(n));
  if (!s) return String(n);
  let { unscaled, scale } = s;
  while (scale > 0 && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  return decimalFromScaled({ unscaled, scale }).text;
}

const isNumber = (v: unknown): v is bigint | number | Decimal => typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;

/** A selector value as text, numbers canonical at any depth (an array or object of them too). */
function selectorText(v: Value, compat: IamContext["compat"]): string {
  if (isNumber(v)) return canonicalNumber(v);
  if (!Array.isArray(v) && !isValueObject(v)) return rawString(v, compat);
  return JSON.stringify(v, (_k, x: unknown) => (isNumber(x) ? `#${canonicalNumber(x)}` : x));
}

/** A selector's value as its identity part, or undefined when absent (NONE, NULL, blank: an alternative not used). */
function selectorValue(v: ValueObject[string], compat: IamContext["compat"]): string | undefined {
  if (v === undefined || v === null) return undefined;
  const folded = fold(selectorText(v, compat));
  return folded === "" ? undefined : folded;
}

/**
 * The identities a record signin counts in (attack pass 7, E8): one per selector variable of the SIGNIN clause
 * (throttle-selectors.ts) that the request gives a value — access, name and value — so a failure counts against every
 * one and a locked one refuses the request whatever the others say (a junk `$phone` beside the victim's `$email` is
 * still the victim). Secrets, and anything only handed to a function, make no identity. No selector given: the access
 * method as one identity. Without a stored clause, every variable but the target and password-like ones, as one.
 */
function recordIdentities(ctx: IamContext, ns: string, db: string, ac: string, vars: ValueObject): Bucket[] {
  const access = getAccess(ctx, "DATABASE", ns, db, ac)?.def.access;
  const clause = access?.kind === "Record" ? access.signin : undefined;
  const named = (k: string) => !TARGET_KEYS.has(k) && !PASSWORD_LIKE.test(k);
  if (!clause) {
    const names = Object.keys(vars).filter(named).sort();
    return [identity(["record", ns, db, ac, ...names.flatMap((k) => [k, fold(selectorText(vars[k], ctx.compat))])])];
  }
  const parts = [...selectorsOf(clause)]
    .filter((k) => named(k) && Object.prototype.hasOwnProperty.call(vars, k))
    .sort()
    .flatMap((k) => {
      const value = selectorValue(vars[k], ctx.compat);
      return value === undefined ? [] : [[k, value]];
    });
  if (parts.length === 0) return [identity(["record", ns, db, ac])];
  return parts.map((kv) => identity(["record", ns, db, ac, ...kv]));
}

/**
 * The stored credential a signin compared (a password hash: what is really guessed, whatever spelling of the login
 * selected it), as an identity: an HMAC of it under the throttle's secret, so no hash is kept in memory or the store.
 */
export function credentialBucket(secret: Uint8Array, storedHash: string): Bucket {
  return { kind: "identity", key: createHmac("sha256", secret).update(storedHash).digest("base64url").slice(0, 22), countsSuccess: false };
}

/** The record a record signin names (attack pass 12, J6): one identity for every access method of its database. */
export const accountBucket = (ns: string, db: string, record: string): Bucket => identity(["account", ns, db, record]);

/** A system user name at each level a credential check of `base` searches (v1 legacy: ROOT → NS → DB). */
function userIdentities(ctx: IamContext, base: Base, ns: string | undefined, db: string | undefined, name: string): Bucket[] {
  return credentialLevels(ctx, base).map((level) =>
    identity(["user", level, level === "ROOT" ? "" : (ns ?? ""), level === "DATABASE" ? (db ?? "") : "", fold(name)]),
  );
}

/**
 * The client address a session comes from, as one bucket per host: IPv4-mapped IPv6 as IPv4, IPv6 by its /64 (one
 * host usually holds a whole /64). Undefined for the embedded API (no address).
 */
export function clientHost(ip: string | undefined): string | undefined {
  if (ip === undefined || ip === "") return undefined;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  const bare = ip.replace(/%.*$/, "");
  if (!isIPv6(bare)) return ip;
  const [head = "", tail] = bare.split("::");
  const groups = head === "" ? [] : head.split(":");
  if (tail !== undefined) {
    const rest = tail === "" ? [] : tail.split(":");
    const width = rest.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
    groups.push(...Array<string>(8 - groups.length - width).fill("0"), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

function addressBucket(kind: "address" | "token", session: Session, countsSuccess: boolean): Bucket[] {
  const address = clientHost(session.ip);
  return address === undefined ? [] : [{ kind, key: bucketKey([kind, address]), countsSuccess }];
}

/** RPC / HTTP signin: the identity tried (none when the object names no target) and the address (every attempt counts). */
export function signinBuckets(ctx: IamContext, session: Session, vars: ValueObject): Bucket[] {
  const { ns, db, ac, user } = readCredentials(vars, ctx.compat);
  const target = signinTarget(ns, db, ac);
  const identities =
    target.kind === "record"
      ? recordIdentities(ctx, target.ns, target.db, target.ac, vars)
      : target.kind === "user"
        ? userIdentities(ctx, target.base, target.ns, target.db, user ?? "")
        : [];
  return [...identities, ...addressBucket("address", session, true)];
}

/** Signup: the address only (a signup has no identity to guess). */
export function signupBuckets(session: Session): Bucket[] {
  return addressBucket("address", session, true);
}

/** HTTP Basic: the user at the levels searched, and the address (failures only: Basic is sent with every request). */
export function basicBuckets(ctx: IamContext, session: Session, user: string, where: { ns?: string | undefined; db?: string | undefined }): Bucket[] {
  const base = basicLevel(ctx, where);
  return [...(base === undefined ? [] : userIdentities(ctx, base, where.ns, where.db, user)), ...addressBucket("address", session, false)];
}

/** RPC authenticate and HTTP Bearer: failures per address, apart from password guesses. */
export function tokenBuckets(session: Session): Bucket[] {
  return addressBucket("token", session, false);
}
