// store/kv/: byte-key helpers shared by the backends — key ranges, and the latin1 string form the in-process
// maps sort on (one char per byte, so string order is bytewise order).

import type { Key, KeyRange } from "./types.js";

/** A key as a binary string: char i is byte i. JS string comparison on it is bytewise key order. */
export type KeyString = string;

/** Node's latin1 decoder of a byte view (what Buffer#toString("latin1") calls), where this Node has it. */
const latin1Slice = (Buffer.prototype as { latin1Slice?: (this: Uint8Array, start: number, end: number) => string }).latin1Slice;

export function keyString(key: Key): KeyString {
  // straight from the bytes: no Buffer made around them, no argument list of char codes (fromCharCode.apply)
  if (latin1Slice !== undefined) return latin1Slice.call(key, 0, key.length);
  if (key.length < 256) return String.fromCharCode.apply(null, key as unknown as number[]);
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");
}

export function keyBytes(s: KeyString): Key {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function compareKeys(a: Key, b: Key): number {
  return Buffer.compare(a, b);
}

export function compareKeyStrings(a: KeyString, b: KeyString): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The smallest key greater than every key that starts with `prefix` (undefined: no such key, all 0xff). */
export function prefixEnd(prefix: Key): Key | undefined {
  let n = prefix.length;
  while (n > 0 && prefix[n - 1] === 0xff) n--;
  if (n === 0) return undefined;
  const end = new Uint8Array(prefix.subarray(0, n)); // a copy: a Buffer's slice would be a view
  end[n - 1]! += 1;
  return end;
}

/** Every key that starts with `prefix`. */
export function prefixRange(prefix: Key): KeyRange {
  const end = prefixEnd(prefix);
  if (end === undefined) throw new RangeError("a prefix of 0xff bytes only has no range");
  return { start: prefix, end };
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
