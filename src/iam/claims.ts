// JWT claims: the names SurrealDB accepts (auth.md §4.2), read from a decoded payload and turned into `$token`.

import { LocalError } from "../errors/index.js";
import type { Compat } from "../exec/session.js";
import type { Value, ValueObject } from "../value/types.js";

/** Claims under their canonical names; everything unknown is in `custom`. */
export interface Claims {
  iat?: number;
  nbf?: number;
  exp?: number;
  iss?: string;
  sub?: string;
  aud?: string | string[];
  jti?: string;
  NS?: string;
  DB?: string;
  /** v1 only. */
  SC?: string;
  /** v1 only. */
  TK?: string;
  /** v2 only. */
  AC?: string;
  ID?: string;
  RL?: string[];
  custom: Record<string, unknown>;
}

type ClaimName = "NS" | "DB" | "SC" | "TK" | "AC" | "ID" | "RL";

const aliases = (short: string, long: string): string[] => [
  short.toUpperCase(),
  short,
  `https://surrealdb.com/${short}`,
  `https://surrealdb.com/${long}`,
];

/** Canonical claim → accepted spellings, per compat. v1 has SC/TK (AC is custom); v2 has AC (SC/TK are custom). */
export const CLAIM_ALIASES: Record<Compat, Partial<Record<ClaimName, string[]>>> = {
  1: {
    NS: aliases("ns", "namespace"),
    DB: aliases("db", "database"),
    SC: aliases("sc", "scope"),
    TK: aliases("tk", "token"),
    ID: aliases("id", "record"),
    RL: aliases("rl", "roles"),
  },
  2: {
    NS: aliases("ns", "namespace"),
    DB: aliases("db", "database"),
    AC: aliases("ac", "access"),
    ID: aliases("id", "record"),
    RL: aliases("rl", "roles"),
  },
};

const NUMERIC_CLAIMS = ["iat", "nbf", "exp"] as const;

/** Thrown by readClaims when a payload does not deserialise as SurrealDB's Claims (wrong types, duplicate aliases). */
export class ClaimsError extends LocalError {
  constructor(message: string) {
    super("Claims", message);
  }
}

/** Reads a decoded JWT payload the way SurrealDB deserialises its Claims struct. */
export function readClaims(payload: Record<string, unknown>, compat: Compat): Claims {
  const claims: Claims = { custom: {} };
  const seen = new Set<string>();
  const aliasOf = new Map<string, ClaimName>();
  for (const [name, list] of Object.entries(CLAIM_ALIASES[compat]) as [ClaimName, string[]][]) {
    for (const a of list) aliasOf.set(a, name);
  }
  const standard = compat === 1 ? ["iss", "jti"] : ["iss", "jti", "sub"];
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    const canonical: string | undefined = aliasOf.get(key) ?? key;
    if ((NUMERIC_CLAIMS as readonly string[]).includes(key)) {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new ClaimsError(`claim ${key} is not an integer`);
      claims[key as (typeof NUMERIC_CLAIMS)[number]] = value;
    } else if (standard.includes(key)) {
      if (typeof value !== "string") throw new ClaimsError(`claim ${key} is not a string`);
      claims[key as "iss" | "jti" | "sub"] = value;
    } else if (key === "aud" && compat === 2) {
      if (typeof value !== "string" && !(Array.isArray(value) && value.every((v) => typeof v === "string")))
        throw new ClaimsError("claim aud is not a string or list of strings");
      claims.aud = value as string | string[];
    } else if (aliasOf.has(key)) {
      if (seen.has(canonical)) throw new ClaimsError(`duplicate claim ${canonical}`);
      seen.add(canonical);
      if (canonical === "RL") {
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new ClaimsError("claim RL is not a list of strings");
        claims.RL = value as string[];
      } else {
        if (typeof value !== "string") throw new ClaimsError(`claim ${canonical} is not a string`);
        claims[canonical as Exclude<ClaimName, "RL">] = value;
      }
    } else {
      claims.custom[key] = value;
    }
  }
  return claims;
}

/** JSON → SurrealQL value as SurrealDB converts custom claims: integral numbers become ints. */
export function jsonToValue(json: unknown): Value {
  if (json === null) return null;
  if (typeof json === "number") return Number.isInteger(json) ? BigInt(json) : json;
  if (typeof json === "string" || typeof json === "boolean") return json;
  if (Array.isArray(json)) return json.map(jsonToValue);
  if (typeof json === "object") {
    const out: ValueObject = {};
    for (const [k, v] of Object.entries(json as Record<string, unknown>)) out[k] = jsonToValue(v);
    return out;
  }
  return undefined;
}

/** The `$token` object: canonical names plus custom claims. */
export function claimsToValue(claims: Claims): ValueObject {
  const out: ValueObject = {};
  for (const [k, v] of Object.entries(claims.custom)) out[k] = jsonToValue(v);
  const keys = ["iss", "sub", "aud", "iat", "nbf", "exp", "jti", "NS", "DB", "SC", "AC", "TK", "ID", "RL"] as const;
  for (const k of keys) {
    const v = claims[k];
    if (v !== undefined) out[k] = jsonToValue(v);
  }
  return out;
}

const TOKEN_VALUES = new WeakMap<Claims, ValueObject>();

/** `$token` of verified claims, built once per claims object (a cached token's on every authenticate; values are never mutated). */
export function tokenValue(claims: Claims): ValueObject {
  let value = TOKEN_VALUES.get(claims);
  if (value === undefined) TOKEN_VALUES.set(claims, (value = claimsToValue(claims)));
  return value;
}

/** What an issued token carries, before time and identity fields are added. */
export interface IssueClaims {
  iat: number;
  exp: number;
  jti: string;
  NS?: string;
  DB?: string;
  SC?: string;
  AC?: string;
  ID?: string;
  RL?: string[];
}

/** Payload in SurrealDB's serialisation order: iat, nbf, exp, iss, jti, NS, DB, SC|AC, ID, RL. */
export function issuedPayload(c: IssueClaims): Record<string, unknown> {
  const p: Record<string, unknown> = { iat: c.iat, nbf: c.iat, exp: c.exp, iss: "SurrealDB", jti: c.jti };
  if (c.NS !== undefined) p.NS = c.NS;
  if (c.DB !== undefined) p.DB = c.DB;
  if (c.SC !== undefined) p.SC = c.SC;
  if (c.AC !== undefined) p.AC = c.AC;
  if (c.ID !== undefined) p.ID = c.ID;
  if (c.RL !== undefined) p.RL = c.RL;
  return p;
}

/** Claims of a token we issue, as `$token` shows them. */
export function issuedClaims(c: IssueClaims): Claims {
  const { iat, exp, jti, ...rest } = c;
  return { iat, nbf: iat, exp, iss: "SurrealDB", jti, ...rest, custom: {} };
}
