// Password hashing, the one place for each algorithm's parameters: SurrealDB's generation cost, the bound on a
// stored hash's cost (rule 9), and a dummy hash at generation cost so a failure without a hash costs one anyway.

import { pbkdf2 as pbkdf2Cb, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import argon2 from "argon2";
import bcrypt from "bcryptjs";

/** SurrealDB's argon2 parameters (argon2 crate 0.5: Argon2id, m=19456 KiB, t=2, p=1). */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const BCRYPT_COST = 12;
const PBKDF2_ITERATIONS = 600_000;
const PBKDF2_LENGTH = 32;
const SCRYPT_LOG_N = 17;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

// Verification bounds: a stored hash may demand at most 4× SurrealDB's cost (rule 9).
const COST_FACTOR = 4;
export const ARGON2_LIMITS = {
  memoryCost: ARGON2_PARAMS.memoryCost * COST_FACTOR,
  timeCost: ARGON2_PARAMS.timeCost * COST_FACTOR,
  parallelism: 4,
} as const;
const MAX_BCRYPT_COST = BCRYPT_COST + 2; // 2^2 = 4×
const MAX_PBKDF2_ITERATIONS = PBKDF2_ITERATIONS * COST_FACTOR;
const MAX_SCRYPT_BLOCKS = 2 ** SCRYPT_LOG_N * SCRYPT_R * SCRYPT_P * COST_FACTOR; // N·r·p
const MAX_SCRYPT_MEMORY = 128 * 2 ** SCRYPT_LOG_N * SCRYPT_R * COST_FACTOR + 1024 * 1024;

/** The algorithms of `crypto::<name>::generate / compare`. */
export type PasswordAlgorithm = "argon2" | "bcrypt" | "pbkdf2" | "scrypt";
export const PASSWORD_ALGORITHMS: readonly PasswordAlgorithm[] = ["argon2", "bcrypt", "pbkdf2", "scrypt"];

/** A stored hash accepted for verification (`verify` computes one hash), or refused with the reason (for the log). */
export type PreparedHash = { ok: true; verify: (pass: string) => Promise<boolean> } | { ok: false; reason: string };

interface Hashing {
  generate(pass: string): Promise<string>;
  prepare(hash: string): PreparedHash;
  /** A hash of "surql-auth-dummy" at generation cost. */
  readonly dummy: string;
}

/** PHC B64: standard alphabet, no padding. */
const b64 = (buf: Buffer): string => buf.toString("base64").replace(/=+$/, "");
const B64_RE = /^[A-Za-z0-9+/]*$/;
const fromB64 = (s: string): Buffer | undefined => (B64_RE.test(s) && s.length % 4 !== 1 ? Buffer.from(s, "base64") : undefined);

interface Phc {
  id: string;
  version: string | undefined;
  params: Map<string, string>;
  salt: string;
  hash: string;
}

/** Parse `$id[$v=N]$k=v,…$salt$hash`; undefined when malformed. */
function parsePhc(text: string): Phc | undefined {
  const parts = text.split("$");
  if (parts[0] !== "" || parts.length < 5 || parts.length > 6) return undefined;
  const id = parts[1]!;
  let i = 2;
  let version: string | undefined;
  if (parts.length === 6) {
    const m = /^v=(\d+)$/.exec(parts[2]!);
    if (!m) return undefined;
    version = m[1];
    i = 3;
  }
  const params = new Map<string, string>();
  for (const kv of parts[i]!.split(",")) {
    const m = /^([a-z0-9-]+)=([A-Za-z0-9+/.-]+)$/.exec(kv);
    if (!m || params.has(m[1]!)) return undefined;
    params.set(m[1]!, m[2]!);
  }
  return { id, version, params, salt: parts[i + 1]!, hash: parts[i + 2]! };
}

/** A decimal parameter within [min, max], else undefined. */
function intParam(p: Phc, key: string, min: number, max: number): number | undefined {
  const s = p.params.get(key);
  if (s === undefined || !/^\d{1,10}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= min && n <= max ? n : undefined;
}

const refuse = (reason: string): PreparedHash => ({ ok: false, reason });

/** Runs `compute`, any throw being a mismatch. */
const accept = (compute: (pass: string) => Promise<boolean>): PreparedHash => ({
  ok: true,
  verify: (pass) => compute(pass).catch(() => false),
});

const argon2Hashing: Hashing = {
  /** argon2id PHC string with parameters in SurrealDB's order (m, t, p). */
  async generate(pass) {
    const phc = await argon2.hash(pass, { type: argon2.argon2id, ...ARGON2_PARAMS });
    return phc.replace(/\$m=(\d+),p=(\d+),t=(\d+)\$/, (_m, m, p, t) => `$m=${m},t=${t},p=${p}$`);
  },
  prepare(hash) {
    const p = parsePhc(hash);
    if (!p || !["argon2id", "argon2i", "argon2d"].includes(p.id)) return refuse("stored hash is not an argon2 PHC string");
    if (p.version !== undefined && p.version !== "19" && p.version !== "16") return refuse("unknown argon2 version");
    if ([...p.params.keys()].some((k) => !["m", "t", "p", "keyid", "data"].includes(k))) return refuse("unknown argon2 parameter");
    const m = intParam(p, "m", 8, Number.MAX_SAFE_INTEGER);
    const t = intParam(p, "t", 1, Number.MAX_SAFE_INTEGER);
    const par = intParam(p, "p", 1, Number.MAX_SAFE_INTEGER);
    if (m === undefined || t === undefined || par === undefined || m < 8 * par) return refuse("argon2 parameters out of range");
    if (m > ARGON2_LIMITS.memoryCost || t > ARGON2_LIMITS.timeCost || par > ARGON2_LIMITS.parallelism)
      return refuse("argon2 parameters exceed the verification limit");
    const salt = fromB64(p.salt);
    const out = fromB64(p.hash);
    if (!salt || !out || salt.length < 8 || salt.length > 64 || out.length < 4 || out.length > 64) return refuse("malformed argon2 salt or hash");
    return accept((pass) => argon2.verify(hash, pass));
  },
  dummy: "$argon2id$v=19$m=19456,t=2,p=1$7bTUozxmbAjckP+IxNjzPg$o7l3KF86VwEik84hFCFu/w4TKxzujSdubS8LYSQSvtg",
};

const bcryptHashing: Hashing = {
  generate: (pass) => bcrypt.hash(pass, BCRYPT_COST),
  prepare(hash) {
    const m = /^\$2[abxy]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(hash);
    if (!m || Number(m[1]) < 4 || Number(m[1]) > MAX_BCRYPT_COST) return refuse("not a bcrypt hash within the cost limit");
    // bcryptjs knows $2a$/$2b$/$2y$; $2x$ hashes are compared as $2a$.
    return accept((pass) => bcrypt.compare(pass, hash.replace(/^\$2x\$/, "$2a$")));
  },
  dummy: "$2b$12$u3efz1YcGs0ZRKsQZSdVHulwTyGhyduA/hHskqMlbUcomeXyBDUKO",
};

function pbkdf2(pass: string, salt: Buffer, iterations: number, length: number, digest: string): Promise<Buffer> {
  return new Promise((resolve, reject) => pbkdf2Cb(pass, salt, iterations, length, digest, (e, key) => (e ? reject(e) : resolve(key))));
}

// SurrealDB accepts the SHA-2 variants only (a "$pbkdf2$" SHA-1 hash compares false there).
const PBKDF2_DIGESTS: Record<string, string> = { "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };

const pbkdf2Hashing: Hashing = {
  async generate(pass) {
    const salt = randomBytes(16);
    const key = await pbkdf2(pass, salt, PBKDF2_ITERATIONS, PBKDF2_LENGTH, "sha256");
    return `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS},l=${PBKDF2_LENGTH}$${b64(salt)}$${b64(key)}`;
  },
  prepare(hash) {
    const p = parsePhc(hash);
    const digest = p && PBKDF2_DIGESTS[p.id];
    if (!p || !digest || p.version !== undefined) return refuse("not a pbkdf2-sha2 PHC string");
    const iterations = intParam(p, "i", 1, MAX_PBKDF2_ITERATIONS);
    const salt = fromB64(p.salt);
    const expected = fromB64(p.hash);
    if (iterations === undefined || !salt || !expected || expected.length < 10 || expected.length > 64 || salt.length > 64)
      return refuse("pbkdf2 parameters out of range");
    const l = p.params.has("l") ? intParam(p, "l", 10, 64) : expected.length;
    if (l !== expected.length) return refuse("pbkdf2 length does not match the hash");
    return accept(async (pass) => timingSafeEqual(await pbkdf2(pass, salt, iterations, expected.length, digest), expected));
  },
  dummy: "$pbkdf2-sha256$i=600000,l=32$xxqZGHuH9KfDl5N7N7mWnQ$ZMxQmf5gsUNXWD7NAKdnUYtvX/nEGNcF7BSv1Uczqdw",
};

function scrypt(pass: string, salt: Buffer, length: number, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(pass, salt, length, { N: 2 ** logN, r, p, maxmem: MAX_SCRYPT_MEMORY }, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

const scryptHashing: Hashing = {
  async generate(pass) {
    const salt = randomBytes(16);
    const key = await scrypt(pass, salt, 32, SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P);
    return `$scrypt$ln=${SCRYPT_LOG_N},r=${SCRYPT_R},p=${SCRYPT_P}$${b64(salt)}$${b64(key)}`;
  },
  prepare(hash) {
    const p = parsePhc(hash);
    if (!p || p.id !== "scrypt" || p.version !== undefined) return refuse("not a scrypt PHC string");
    const ln = intParam(p, "ln", 1, 30);
    const r = intParam(p, "r", 1, 64);
    const par = intParam(p, "p", 1, 16);
    const salt = fromB64(p.salt);
    const expected = fromB64(p.hash);
    if (ln === undefined || r === undefined || par === undefined || !salt || !expected) return refuse("scrypt parameters out of range");
    if (2 ** ln * r * par > MAX_SCRYPT_BLOCKS || 128 * 2 ** ln * r > MAX_SCRYPT_MEMORY) return refuse("scrypt parameters exceed the verification limit");
    if (expected.length < 10 || expected.length > 64 || salt.length > 64) return refuse("scrypt salt or hash out of range");
    return accept(async (pass) => timingSafeEqual(await scrypt(pass, salt, expected.length, ln, r, par), expected));
  },
  dummy: "$scrypt$ln=17,r=8,p=1$mcV3aWtFOilpRJkmw6Vfng$Do3EyFvRaTk5H5+dKljfPbw+r8USeYujdxzaA6R0UeI",
};

export const HASHING: Readonly<Record<PasswordAlgorithm, Hashing>> = {
  argon2: argon2Hashing,
  bcrypt: bcryptHashing,
  pbkdf2: pbkdf2Hashing,
  scrypt: scryptHashing,
};

/** A hash of `pass` with SurrealDB's parameters for `alg` (DEFINE USER PASSWORD uses argon2). */
export function generatePasswordHash(alg: PasswordAlgorithm, pass: string): Promise<string> {
  return HASHING[alg].generate(pass);
}

/** One verify against the dummy hash of `alg`, result ignored: a failure that computed no hash pays one. */
export async function dummyCompare(alg: PasswordAlgorithm, pass: string): Promise<void> {
  const prepared = HASHING[alg].prepare(HASHING[alg].dummy);
  if (prepared.ok) await prepared.verify(pass);
}
