// exec/: the one source of randomness for SurrealQL (rand(), rand::float, shuffles, ORDER BY RAND(), generated ids).
// Always the operating system's CSPRNG: V8's Math.random is xorshift128+, whose state a client can recover from a few
// outputs and then predict every other session's values (attack finding F12).

import { randomBytes, randomInt } from "node:crypto";

const POOL_BYTES = 8192;
let pool = randomBytes(POOL_BYTES);
let offset = POOL_BYTES;

/** Where the next `n` (≤ POOL_BYTES) unused bytes of the pool start; the pool is refilled when it runs short. */
function take(n: number): number {
  if (offset + n > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += n;
  return offset - n;
}

/** A uniform float in [0, 1) with 53 random bits, as Math.random() would give, from the CSPRNG. */
export function randomFloat(): number {
  const at = take(7);
  const hi = pool.readUInt32BE(at) >>> 11; // 21 bits
  const lo = pool.readUInt32BE(at + 3); // 32 bits (overlapping byte masked off by the shift above)
  return (hi * 2 ** 32 + lo) / 2 ** 53;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random alphanumeric secret (user codes, default access keys): uniform, bytes ≥ 248 (4 × 62) are skipped. */
export function randomCode(len = 128): string {
  // the characters' codes first, then one string (not a string per character)
  const codes = new Array<number>(len);
  let got = 0;
  while (got < len) {
    const n = len - got + 16;
    const at = take(n);
    for (let i = at; i < at + n && got < len; i++) if (pool[i]! < 248) codes[got++] = ALNUM.charCodeAt(pool[i]! % ALNUM.length);
  }
  return String.fromCharCode(...codes);
}

/** A uniform integer in [0, n) from the CSPRNG. */
export function randomIndex(n: number): number {
  return n <= 1 ? 0 : randomInt(n);
}

/** Fisher–Yates shuffle in place (uniform, unlike a sort with a random comparator). */
export function shuffleInPlace<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
