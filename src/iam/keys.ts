// Keys for signing and verifying tokens, imported once per (algorithm, key text) and kept in a bounded cache.

import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { JwtAlgorithm } from "../ast/nodes.js";

/**
 * The JWS `alg` SurrealDB really uses for a configured algorithm. Quirk kept from SurrealDB (both versions):
 * ES512 maps to ES384, because its JWT library has no ES512.
 */
export function joseAlgorithm(alg: JwtAlgorithm): string {
  if (alg === "EDDSA") return "EdDSA";
  if (alg === "ES512") return "ES384";
  return alg;
}

export function isHmac(alg: JwtAlgorithm): boolean {
  return alg.startsWith("HS");
}

export type JoseKey = KeyObject | Uint8Array;

const encoder = new TextEncoder();

/** Bounded cache of imported keys; HS keys are the raw secret bytes, others PEM (public to verify, private to sign). */
export class KeyStore {
  private readonly cache = new LRUCache<string, JoseKey>({ max: 1000 });

  /** Key to verify `alg` signatures with; throws when the PEM does not parse. */
  verifyKey(alg: JwtAlgorithm, key: string): JoseKey {
    return this.get("v", alg, key, () => createPublicKey(key));
  }

  /** Key to sign `alg` tokens with. */
  signKey(alg: JwtAlgorithm, key: string): JoseKey {
    return this.get("s", alg, key, () => createPrivateKey(key));
  }

  clear(): void {
    this.cache.clear();
  }

  private get(use: string, alg: JwtAlgorithm, key: string, importAsymmetric: () => KeyObject): JoseKey {
    const id = `${use}\0${alg}\0${key}`;
    let k = this.cache.get(id);
    if (k === undefined) {
      k = isHmac(alg) ? encoder.encode(key) : importAsymmetric();
      this.cache.set(id, k);
    }
    return k;
  }
}
