// store/kv/: the transaction every backend hands out — buffered writes over a backend's snapshot, merged reads
// (get / getMany / scan read their own writes), savepoints, the read set for optimistic validation, one flush at commit.

import { queryError } from "../../errors/index.js";
import { WriteBuffer, type PendingWrites } from "./buffer.js";
import { keyBytes, keyString, type KeyString } from "./bytes.js";
import type { Bytes, Entry, Key, KeyRange, KvTransaction, ScanOptions, TransactionMode } from "./types.js";

/** A committed entry: its key as a KeyString, the value, and the key bytes when the backend has them at hand. */
export type StringEntry = readonly [KeyString, Bytes, Key?];

/** A backend's consistent view of committed data for one transaction. */
export interface Snapshot {
  get(key: KeyString): Bytes | undefined | Promise<Bytes | undefined>;
  getMany(keys: readonly KeyString[]): (Bytes | undefined)[] | Promise<(Bytes | undefined)[]>;
  /** Committed entries of [start, end), ascending or descending, in batches of about `batch`. */
  scan(start: KeyString, end: KeyString, reverse: boolean, batch: number): AsyncIterable<readonly StringEntry[]> | Iterable<readonly StringEntry[]>;
}

/** What the transaction read, for optimistic validation at commit: point keys and scanned ranges [start, end). */
export interface ReadSet {
  readonly keys: ReadonlySet<KeyString>;
  readonly ranges: readonly (readonly [KeyString, KeyString])[];
}

/** The backend side of one transaction. */
export interface TransactionBackend {
  readonly snapshot: Snapshot;
  /** Default entries per scan batch. */
  readonly batch: number;
  /** Validate and write atomically, or reject with TxRetryable. `reads` is given when the backend asked to track them. */
  commit(writes: PendingWrites, reads: ReadSet | undefined): Promise<void>;
  cancel(): Promise<void>;
  /** It holds something (a connection, a read snapshot, a commit-log slot): cancel it if the transaction is
   *  garbage-collected without commit or cancel — a backstop, not a way to end transactions. */
  readonly releaseIfDropped?: boolean;
}

const NOTHING_READ: ReadonlySet<KeyString> = new Set();

/** Cancels the backends of transactions dropped while still open. */
const dropped = new FinalizationRegistry<TransactionBackend>((backend) => {
  backend.cancel().catch(() => {});
});

export class BufferedTransaction implements KvTransaction {
  private readonly buffer = new WriteBuffer();
  /** What it read, for the backend's validation (made at the first read: many transactions read nothing tracked). */
  private readKeys: Set<KeyString> | undefined;
  private readRanges: [KeyString, KeyString][] | undefined;
  /** Starts of the ranges `track` added. */
  private tracked: Set<KeyString> | undefined;
  private readonly tracking: boolean;
  private done = false;

  constructor(
    readonly mode: TransactionMode,
    private readonly backend: TransactionBackend,
    /** Record reads for the backend's optimistic validation (single-process backends). */
    trackReads: boolean,
  ) {
    this.tracking = trackReads && mode === "write";
    if (backend.releaseIfDropped) dropped.register(this, backend, this);
  }

  get closed(): boolean {
    return this.done;
  }

  async get(key: Key): Promise<Bytes | undefined> {
    this.open();
    const k = keyString(key);
    const own = this.buffer.lookup(k);
    if (own !== undefined) return own ?? undefined;
    this.readKey(k);
    return this.backend.snapshot.get(k);
  }

  async getMany(keys: readonly Key[]): Promise<(Bytes | undefined)[]> {
    this.open();
    const out: (Bytes | undefined)[] = new Array(keys.length);
    const ask: KeyString[] = [];
    const at: number[] = [];
    keys.forEach((key, i) => {
      const k = keyString(key);
      const own = this.buffer.lookup(k);
      if (own !== undefined) out[i] = own ?? undefined;
      else {
        this.readKey(k);
        ask.push(k);
        at.push(i);
      }
    });
    if (ask.length > 0) {
      const got = await this.backend.snapshot.getMany(ask);
      at.forEach((i, j) => (out[i] = got[j]));
    }
    return out;
  }

  async peek(key: Key): Promise<Bytes | undefined> {
    this.open();
    const k = keyString(key);
    const own = this.buffer.lookup(k);
    return own !== undefined ? (own ?? undefined) : this.backend.snapshot.get(k);
  }

  track(range: KeyRange): void {
    this.open();
    if (!this.tracking) return;
    const start = keyString(range.start);
    // a write loop tracks its table's range once per record: keep one
    if ((this.tracked ??= new Set()).has(start)) return;
    this.tracked.add(start);
    this.readRange([start, keyString(range.end)]);
  }

  set(key: Key, value: Bytes): void {
    this.writable();
    this.buffer.set(keyString(key), value);
  }

  delete(key: Key): void {
    this.writable();
    this.buffer.delete(keyString(key));
  }

  deleteRange(range: KeyRange): void {
    this.writable();
    this.buffer.deleteRange(keyString(range.start), keyString(range.end));
  }

  scan(range: KeyRange, options: ScanOptions = {}): AsyncIterable<readonly Entry[]> {
    this.open();
    return this.merged(keyString(range.start), keyString(range.end), options);
  }

  scanNow(range: KeyRange): Entry[] | undefined {
    this.open();
    const start = keyString(range.start);
    const end = keyString(range.end);
    if (start >= end) return [];
    if (!this.buffer.untouched(start, end)) return undefined;
    const batches = this.backend.snapshot.scan(start, end, false, this.backend.batch);
    if (!(Symbol.iterator in batches)) return undefined;
    // the whole range is read: tracked like a full scan
    this.readRange([start, end]);
    const out: Entry[] = [];
    for (const batch of batches) for (const [k, v, bytes] of batch) out.push([bytes ?? keyBytes(k), v]);
    return out;
  }

  savepoint(): number {
    this.open();
    return this.buffer.savepoint();
  }

  rollbackTo(mark: number): void {
    this.open();
    this.buffer.rollbackTo(mark);
  }

  async commit(): Promise<void> {
    this.open();
    this.done = true;
    if (this.backend.releaseIfDropped) dropped.unregister(this);
    const reads = this.tracking ? { keys: this.readKeys ?? NOTHING_READ, ranges: this.readRanges ?? [] } : undefined;
    await this.backend.commit(this.buffer.pending(), reads);
  }

  async cancel(): Promise<void> {
    if (this.done) return;
    this.done = true;
    if (this.backend.releaseIfDropped) dropped.unregister(this);
    await this.backend.cancel();
  }

  private open(): void {
    if (this.done) throw queryError("TxFinished");
  }

  private readKey(k: KeyString): void {
    if (this.tracking) (this.readKeys ??= new Set()).add(k);
  }

  private readRange(range: [KeyString, KeyString]): void {
    if (this.tracking) (this.readRanges ??= []).push(range);
  }

  private writable(): void {
    this.open();
    if (this.mode === "read") throw queryError("TxReadonly");
  }

  /** The snapshot's entries merged with the buffer's (buffer wins, deletes hide), limited and re-batched. */
  private async *merged(start: KeyString, end: KeyString, options: ScanOptions): AsyncGenerator<readonly Entry[]> {
    if (start >= end) return;
    const reverse = options.reverse === true;
    const limit = options.limit ?? Infinity;
    const size = Math.max(1, options.batch ?? this.backend.batch);
    if (limit <= 0) return;
    // record the whole range now (safe if the caller abandons the iterator), narrow it when we stop early
    const read: [KeyString, KeyString] | undefined = this.tracking ? [start, end] : undefined;
    if (read) this.readRange(read);
    const own = this.buffer.entriesIn(start, end);
    if (reverse) own.reverse();
    const hidden = this.buffer.rangesIn(start, end);
    const before = reverse ? (a: KeyString, b: KeyString) => a > b : (a: KeyString, b: KeyString) => a < b;
    let out: Entry[] = [];
    let count = 0;
    let last: KeyString | undefined;
    let i = 0;
    const emit = (k: KeyString, v: Bytes, bytes?: Key): boolean => {
      out.push([bytes ?? keyBytes(k), v]);
      last = k;
      count++;
      return count >= limit;
    };
    let full = false;
    try {
      scan: for await (const batch of this.backend.snapshot.scan(start, end, reverse, Math.min(size, limit))) {
        for (const [k, v, bytes] of batch) {
          for (; i < own.length && before(own[i]![0], k); i++) {
            const value = own[i]![1];
            if (value !== null && emit(own[i]![0], value)) break scan;
          }
          if (i < own.length && own[i]![0] === k) {
            const value = own[i++]![1];
            if (value !== null && emit(k, value)) break scan;
          } else if (!hidden.some(([s, e]) => k >= s && k < e) && emit(k, v, bytes)) break scan;
          if (out.length >= size) {
            yield out;
            out = [];
          }
        }
      }
      if (count < limit) {
        for (; i < own.length; i++) {
          const value = own[i]![1];
          if (value !== null && emit(own[i]![0], value)) break;
          if (out.length >= size) {
            yield out;
            out = [];
          }
        }
      }
      if (out.length > 0) yield out;
      full = count < limit;
    } finally {
      // stopped early: only the keys up to the last one handed out were read
      if (read && !full && last !== undefined) {
        if (reverse) read[0] = last;
        else read[1] = `${last}\0`;
      }
    }
  }
}
