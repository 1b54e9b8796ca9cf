// JWKS for access methods defined with `URL`: fetched with a 1 s timeout, cached 12 h, refetched on an unknown kid at most every 5 min.

import { LocalError } from "../errors/index.js";
import { importJWK, type JWK } from "jose";
import type { Clock } from "../exec/session.js";
import type { JoseKey } from "./keys.js";

export interface JwksOptions {
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
  readonly ttlMs?: number;
  readonly refetchMinMs?: number;
  /** Outbound-network capability: may this JWKS URL be fetched? Only http(s) is ever fetched. Default: any. */
  readonly allowUrl?: (url: URL) => boolean;
  /** Largest JWKS body read (default 256 KiB). */
  readonly maxBytes?: number;
}

interface JwksEntry {
  fetchedAt: number;
  keys: JWK[];
  imported: Map<string, JoseKey>;
}

/** Thrown for every JWKS problem; authenticate reports it as InvalidAuth with this reason. */
export class JwksError extends LocalError {
  constructor(message: string) {
    super("Jwks", message);
  }
}

const KTY_ALGS: Record<string, (jwk: JWK) => string[]> = {
  RSA: () => ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"],
  EC: (jwk) => (jwk.crv === "P-256" ? ["ES256"] : jwk.crv === "P-384" ? ["ES384"] : []),
  OKP: (jwk) => (jwk.crv === "Ed25519" ? ["EdDSA"] : []),
  oct: () => [],
};

export class JwksCache {
  private readonly entries = new Map<string, JwksEntry>();
  private readonly inflight = new Map<string, Promise<JwksEntry>>();
  private readonly clock: Clock;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly refetchMinMs: number;
  private readonly allowUrl: (url: URL) => boolean;
  private readonly maxBytes: number;

  constructor(opts: JwksOptions) {
    this.clock = opts.clock;
    this.fetchImpl = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 1000;
    this.ttlMs = opts.ttlMs ?? 12 * 3600_000;
    this.refetchMinMs = opts.refetchMinMs ?? 5 * 60_000;
    this.allowUrl = opts.allowUrl ?? (() => true);
    this.maxBytes = opts.maxBytes ?? 256 * 1024;
  }

  /** The verification key for `kid` and the token's `alg`, fetching the set when needed. */
  async getKey(url: string, kid: string, alg: string): Promise<JoseKey> {
    let entry = this.entries.get(url);
    const now = this.clock.now();
    if (!entry || now - entry.fetchedAt >= this.ttlMs) entry = await this.load(url);
    let jwk = entry.keys.find((k) => k.kid === kid);
    if (!jwk && this.clock.now() - entry.fetchedAt >= this.refetchMinMs) {
      entry = await this.load(url);
      jwk = entry.keys.find((k) => k.kid === kid);
    }
    if (!jwk) throw new JwksError(`no JWK with kid '${kid}' in ${url}`);
    checkJwk(jwk, alg);
    const id = `${kid}\0${alg}`;
    let key = entry.imported.get(id);
    if (!key) {
      try {
        key = (await importJWK(jwk, alg)) as JoseKey;
      } catch (e) {
        throw new JwksError(`JWK '${kid}' does not import: ${(e as Error).message}`);
      }
      entry.imported.set(id, key);
    }
    return key;
  }

  /** Forgets every fetched set (definition changes). */
  clear(): void {
    this.entries.clear();
  }

  private load(url: string): Promise<JwksEntry> {
    let p = this.inflight.get(url);
    if (!p) {
      p = this.fetchSet(url).finally(() => this.inflight.delete(url));
      this.inflight.set(url, p);
    }
    return p;
  }

  private async fetchSet(url: string): Promise<JwksEntry> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new JwksError(`JWKS URL ${url} is not a URL`);
    }
    if ((parsed.protocol !== "https:" && parsed.protocol !== "http:") || !this.allowUrl(parsed))
      throw new JwksError(`JWKS URL ${url} is not allowed by the network capabilities`);
    let body: unknown;
    try {
      const signal = AbortSignal.timeout(this.timeoutMs);
      const res = await this.fetchImpl(url, { signal, redirect: "error" });
      if (!res.ok) throw new JwksError(`JWKS ${url} answered ${res.status}`);
      body = JSON.parse(await readLimited(res, this.maxBytes));
    } catch (e) {
      if (e instanceof JwksError) throw e;
      throw new JwksError(`JWKS ${url} could not be fetched: ${(e as Error).message}`);
    }
    const keys = (body as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw new JwksError(`JWKS ${url} has no keys array`);
    const entry: JwksEntry = {
      fetchedAt: this.clock.now(),
      keys: keys.filter((k): k is JWK => typeof k === "object" && k !== null),
      imported: new Map(),
    };
    this.entries.set(url, entry);
    return entry;
  }
}

/** The body as text, refusing more than `max` bytes. */
async function readLimited(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new JwksError(`JWKS body exceeds ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `use` must be `sig` and `key_ops` contain `verify` when present; the JWK's `alg` (or else its key type) decides the algorithm. */
function checkJwk(jwk: JWK, alg: string): void {
  if (jwk.use !== undefined && jwk.use !== "sig") throw new JwksError(`JWK '${jwk.kid}' is not for signatures`);
  if (jwk.key_ops !== undefined && !jwk.key_ops.includes("verify")) throw new JwksError(`JWK '${jwk.kid}' cannot verify`);
  if (alg === "none" || alg.startsWith("HS")) throw new JwksError(`algorithm ${alg} not allowed with JWKS`);
  if (jwk.alg !== undefined) {
    if (jwk.alg !== alg) throw new JwksError(`token alg ${alg} differs from JWK alg ${jwk.alg}`);
    return;
  }
  const fits = KTY_ALGS[jwk.kty ?? ""]?.(jwk) ?? [];
  if (!fits.includes(alg)) throw new JwksError(`token alg ${alg} does not fit JWK key type ${jwk.kty}`);
}
