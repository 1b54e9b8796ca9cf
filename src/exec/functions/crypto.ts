// crypto:: builtins: password hashing (argon2, bcrypt, pbkdf2, scrypt) and hex digests; all hashing is async.

import { createHash, pbkdf2 as pbkdf2Cb, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import argon2 from "argon2";
import bcrypt from "bcryptjs";
import { fn, type BuiltinTable } from "./registry.js";

// SurrealDB's generation parameters.
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const BCRYPT_COST = 12;
const PBKDF2_ITERATIONS = 600_000;
const PBKDF2_LENGTH = 32;
const SCRYPT_LOG_N = 17;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

// Verification bounds: a stored hash may demand at most 4× SurrealDB's cost (rule 9).
const COST_FACTOR = 4;
const MAX_ARGON2_MEMORY = ARGON2_PARAMS.memoryCost * COST_FACTOR;
const MAX_ARGON2_TIME = ARGON2_PARAMS.timeCost * COST_FACTOR;
const MAX_ARGON2_PARALLELISM = 4;
const MAX_BCRYPT_COST = BCRYPT_COST + 2; // 2^2 = 4×
const MAX_PBKDF2_ITERATIONS = PBKDF2_ITERATIONS * COST_FACTOR;
const MAX_SCRYPT_BLOCKS = 2 ** SCRYPT_LOG_N * SCRYPT_R * SCRYPT_P * COST_FACTOR; // N·r·p
const MAX_SCRYPT_MEMORY = 128 * 2 ** SCRYPT_LOG_N * SCRYPT_R * COST_FACTOR + 1024 * 1024;

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

/** argon2id PHC string with parameters in SurrealDB's order (m, t, p). */
async function argon2Generate(pass: string): Promise<string> {
  const phc = await argon2.hash(pass, { type: argon2.argon2id, ...ARGON2_PARAMS });
  const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2_PARAMS;
  return phc.replace(/\$m=\d+,p=\d+,t=\d+\$/, `$m=${m},t=${t},p=${p}$`);
}

/** True when `hash` is a well-formed argon2 PHC string within our cost bounds and matches `pass`. */
export async function argon2Compare(hash: string, pass: string): Promise<boolean> {
  const p = parsePhc(hash);
  if (!p || !["argon2id", "argon2i", "argon2d"].includes(p.id)) return false;
  if (p.version !== undefined && p.version !== "19" && p.version !== "16") return false;
  const m = intParam(p, "m", 8, MAX_ARGON2_MEMORY);
  const t = intParam(p, "t", 1, MAX_ARGON2_TIME);
  const par = intParam(p, "p", 1, MAX_ARGON2_PARALLELISM);
  if (m === undefined || t === undefined || par === undefined || m < 8 * par) return false;
  if ([...p.params.keys()].some((k) => !["m", "t", "p", "keyid", "data"].includes(k))) return false;
  const salt = fromB64(p.salt);
  const out = fromB64(p.hash);
  if (!salt || !out || salt.length < 8 || salt.length > 64 || out.length < 4 || out.length > 64) return false;
  try {
    return await argon2.verify(hash, pass);
  } catch {
    return false;
  }
}

async function bcryptCompare(hash: string, pass: string): Promise<boolean> {
  const m = /^\$2[abxy]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(hash);
  if (!m || Number(m[1]) < 4 || Number(m[1]) > MAX_BCRYPT_COST) return false;
  try {
    // bcryptjs knows $2a$/$2b$/$2y$; $2x$ hashes are compared as $2a$.
    return await bcrypt.compare(pass, hash.replace(/^\$2x\$/, "$2a$"));
  } catch {
    return false;
  }
}

function pbkdf2(pass: string, salt: Buffer, iterations: number, length: number, digest: string): Promise<Buffer> {
  return new Promise((resolve, reject) => pbkdf2Cb(pass, salt, iterations, length, digest, (e, key) => (e ? reject(e) : resolve(key))));
}

async function pbkdf2Generate(pass: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await pbkdf2(pass, salt, PBKDF2_ITERATIONS, PBKDF2_LENGTH, "sha256");
  return `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS},l=${PBKDF2_LENGTH}$${b64(salt)}$${b64(key)}`;
}

// SurrealDB accepts the SHA-2 variants only (a "$pbkdf2$" SHA-1 hash compares false there).
const PBKDF2_DIGESTS: Record<string, string> = { "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };

async function pbkdf2Compare(hash: string, pass: string): Promise<boolean> {
  const p = parsePhc(hash);
  const digest = p && PBKDF2_DIGESTS[p.id];
  if (!p || !digest || p.version !== undefined) return false;
  const iterations = intParam(p, "i", 1, MAX_PBKDF2_ITERATIONS);
  const salt = fromB64(p.salt);
  const expected = fromB64(p.hash);
  if (iterations === undefined || !salt || !expected || expected.length < 10 || expected.length > 64 || salt.length > 64) return false;
  const l = p.params.has("l") ? intParam(p, "l", 10, 64) : expected.length;
  if (l !== expected.length) return false;
  try {
    return timingSafeEqual(await pbkdf2(pass, salt, iterations, expected.length, digest), expected);
  } catch {
    return false;
  }
}

function scrypt(pass: string, salt: Buffer, length: number, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(pass, salt, length, { N: 2 ** logN, r, p, maxmem: MAX_SCRYPT_MEMORY }, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

async function scryptGenerate(pass: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pass, salt, 32, SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P);
  return `$scrypt$ln=${SCRYPT_LOG_N},r=${SCRYPT_R},p=${SCRYPT_P}$${b64(salt)}$${b64(key)}`;
}

async function scryptCompare(hash: string, pass: string): Promise<boolean> {
  const p = parsePhc(hash);
  if (!p || p.id !== "scrypt" || p.version !== undefined) return false;
  const ln = intParam(p, "ln", 1, 30);
  const r = intParam(p, "r", 1, 64);
  const par = intParam(p, "p", 1, 16);
  const salt = fromB64(p.salt);
  const expected = fromB64(p.hash);
  if (ln === undefined || r === undefined || par === undefined || !salt || !expected) return false;
  if (2 ** ln * r * par > MAX_SCRYPT_BLOCKS || 128 * 2 ** ln * r > MAX_SCRYPT_MEMORY) return false;
  if (expected.length < 10 || expected.length > 64 || salt.length > 64) return false;
  try {
    return timingSafeEqual(await scrypt(pass, salt, expected.length, ln, r, par), expected);
  } catch {
    return false;
  }
}

const digest = (alg: string) => (args: unknown[]) => createHash(alg).update(args[0] as string, "utf8").digest("hex");

export const cryptoFunctions: BuiltinTable = {
  "crypto::argon2::generate": fn(["string"], ([pass]) => argon2Generate(pass as string)),
  "crypto::argon2::compare": fn(["string", "string"], ([hash, pass]) => argon2Compare(hash as string, pass as string)),
  "crypto::bcrypt::generate": fn(["string"], ([pass]) => bcrypt.hash(pass as string, BCRYPT_COST)),
  "crypto::bcrypt::compare": fn(["string", "string"], ([hash, pass]) => bcryptCompare(hash as string, pass as string)),
  "crypto::pbkdf2::generate": fn(["string"], ([pass]) => pbkdf2Generate(pass as string)),
  "crypto::pbkdf2::compare": fn(["string", "string"], ([hash, pass]) => pbkdf2Compare(hash as string, pass as string)),
  "crypto::scrypt::generate": fn(["string"], ([pass]) => scryptGenerate(pass as string)),
  "crypto::scrypt::compare": fn(["string", "string"], ([hash, pass]) => scryptCompare(hash as string, pass as string)),
  "crypto::md5": fn(["string"], digest("md5")),
  "crypto::sha1": fn(["string"], digest("sha1")),
  "crypto::sha256": fn(["string"], digest("sha256")),
  "crypto::sha512": fn(["string"], digest("sha512")),
};
