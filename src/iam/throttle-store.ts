// The throttle's marks in the shared key-value store, so nodes on one store (PostgreSQL, file:) count together. Like the
// identity book (exec/lifetimes.ts) they live outside every namespace's key range: `\x01tk` + bucket + time + id, and a
// time index `\x01tt` + time + bucket + id by which marks older than every window are swept.

import { randomBytes } from "node:crypto";
import { concatBytes, prefixEnd } from "../store/kv/bytes.js";
import type { Key, KvStore } from "../store/kv/types.js";

/** One counted attempt: when (clock ms) and a random id that tells two marks of one millisecond apart. */
export interface ThrottleMark {
  readonly ms: number;
  readonly id: string;
}

export function newMark(ms: number): ThrottleMark {
  return { ms: Math.floor(ms), id: randomBytes(8).toString("hex") };
}

/** What one settled attempt adds: its mark in each bucket that keeps it. */
export type ThrottleAdds = readonly (readonly [bucket: string, mark: ThrottleMark])[];

const ascii = new TextEncoder();
const BY_BUCKET = ascii.encode("\u0001tk\u0000");
const BY_TIME = ascii.encode("\u0001tt\u0000");
/** Bucket keys are 22 base64url characters (throttle-keys.ts); ids 8 bytes. */
const BUCKET_BYTES = 22;
const ID_BYTES = 8;

function msBytes(ms: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(Math.max(0, Math.floor(ms))));
  return out;
}

const readMs = (key: Key, at: number): number => Number(new DataView(key.buffer, key.byteOffset + at, 8).getBigUint64(0));
const idBytes = (id: string): Uint8Array => Uint8Array.from(Buffer.from(id, "hex"));
const idText = (key: Key, at: number): string => Buffer.from(key.subarray(at, at + ID_BYTES)).toString("hex");

/** The secret credential buckets are keyed with (throttle-keys.ts), one for every node on the store. */
const SECRET = ascii.encode("\u0001tks\u0000");

const bucketPrefix = (bucket: string): Key => concatBytes([BY_BUCKET, ascii.encode(bucket)]);
const bucketMarkKey = (bucket: string, mark: ThrottleMark): Key => concatBytes([bucketPrefix(bucket), msBytes(mark.ms), idBytes(mark.id)]);
const timeMarkKey = (bucket: string, mark: ThrottleMark): Key => concatBytes([BY_TIME, msBytes(mark.ms), ascii.encode(bucket), idBytes(mark.id)]);

export class KvThrottleStore {
  constructor(private readonly kv: KvStore) {}

  /** The marks of each bucket from `sinceMs` on, oldest first. */
  async read(buckets: readonly string[], sinceMs: number): Promise<ThrottleMark[][]> {
    const txn = await this.kv.begin("read");
    try {
      const out: ThrottleMark[][] = [];
      for (const bucket of buckets) {
        const prefix = bucketPrefix(bucket);
        const marks: ThrottleMark[] = [];
        for await (const batch of txn.scan({ start: concatBytes([prefix, msBytes(sinceMs)]), end: prefixEnd(prefix)! })) {
          for (const [key] of batch) marks.push({ ms: readMs(key, prefix.length), id: idText(key, prefix.length + 8) });
        }
        out.push(marks);
      }
      return out;
    } finally {
      await txn.cancel();
    }
  }

  /** The store's throttle secret, made at first use (a node racing another to make it retries and reads the winner's). */
  async secret(): Promise<Uint8Array> {
    for (let attempt = 0; ; attempt++) {
      const txn = await this.kv.begin("write");
      try {
        const stored = await txn.get(SECRET);
        if (stored !== undefined && stored.length === 32) {
          await txn.cancel();
          return stored;
        }
        const made = Uint8Array.from(randomBytes(32));
        txn.set(SECRET, made);
        await txn.commit();
        return made;
      } catch (e) {
        if (!txn.closed) await txn.cancel();
        if (attempt >= 3) throw e;
      }
    }
  }

  /** Adds marks in one transaction (appends of unique keys: no conflict between nodes); they leave only by sweep. */
  async write(add: ThrottleAdds): Promise<void> {
    if (add.length === 0) return;
    const txn = await this.kv.begin("write");
    try {
      for (const [bucket, mark] of add) {
        txn.set(bucketMarkKey(bucket, mark), new Uint8Array(0));
        txn.set(timeMarkKey(bucket, mark), new Uint8Array(0));
      }
      await txn.commit();
    } catch (e) {
      if (!txn.closed) await txn.cancel();
      throw e;
    }
  }

  /** Deletes up to `limit` marks older than `beforeMs` (of every bucket); returns how many. */
  async sweep(beforeMs: number, limit = 1000): Promise<number> {
    const txn = await this.kv.begin("write");
    let n = 0;
    try {
      for await (const batch of txn.scan({ start: BY_TIME, end: concatBytes([BY_TIME, msBytes(beforeMs)]) }, { limit })) {
        for (const [key] of batch) {
          const at = BY_TIME.length;
          const bucket = Buffer.from(key.subarray(at + 8, at + 8 + BUCKET_BYTES)).toString("latin1");
          const mark = { ms: readMs(key, at), id: idText(key, at + 8 + BUCKET_BYTES) };
          txn.delete(key);
          txn.delete(bucketMarkKey(bucket, mark));
          n++;
        }
      }
      await txn.commit();
      return n;
    } catch (e) {
      if (!txn.closed) await txn.cancel();
      throw e;
    }
  }
}
