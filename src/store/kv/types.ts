// store/kv/: the ordered transactional key-value contract every backend (memory, file:, postgres://) implements.
// Keys and values are bytes; keys sort bytewise (see keys encoding), so a table, an index or a prefix is a key range.

export type Key = Uint8Array;
export type Bytes = Uint8Array;

/** A half-open key range: every key k with start <= k < end (bytewise). */
export interface KeyRange {
  readonly start: Key;
  readonly end: Key;
}

export interface ScanOptions {
  /** Newest-last order is the default; reverse walks from the end of the range. */
  readonly reverse?: boolean;
  /** At most this many entries in all. */
  readonly limit?: number;
  /** Entries per batch handed out by the iterator (default chosen by the backend). */
  readonly batch?: number;
}

export type Entry = readonly [Key, Bytes];

export type TransactionMode = "read" | "write";

/**
 * One transaction. Writes are buffered in the transaction (it reads its own writes) and flushed as one batch at
 * commit. Reads see one consistent snapshot of committed data plus the transaction's own writes.
 */
export interface KvTransaction {
  readonly mode: TransactionMode;
  /** True once committed or cancelled; every further call throws. */
  readonly closed: boolean;
  get(key: Key): Promise<Bytes | undefined>;
  getMany(keys: readonly Key[]): Promise<(Bytes | undefined)[]>;
  set(key: Key, value: Bytes): void;
  delete(key: Key): void;
  /** Delete every key in the range (buffered like any write). */
  deleteRange(range: KeyRange): void;
  /** The range's entries in key order (or reverse), in batches. */
  scan(range: KeyRange, options?: ScanOptions): AsyncIterable<readonly Entry[]>;
  /** The whole range at once, synchronously, when the backend can (nothing buffered there, a synchronous
   *  snapshot); undefined otherwise — then use scan. A fast path for small lookups (an index probe). */
  scanNow?(range: KeyRange): Entry[] | undefined;
  /** A read whose key joins no read set, for a backend that validates reads itself (optimistic validation): the
   *  catalog version, whose changes a transaction validates only where they meet what it wrote (`track`). */
  peek?(key: Key): Promise<Bytes | undefined>;
  /** Validate `range` at commit as if read: the commit fails if another transaction wrote there since this began. */
  track?(range: KeyRange): void;
  /** A point to roll the buffered writes back to (SurrealDB's statement-level rollback inside BEGIN … COMMIT). */
  savepoint(): number;
  rollbackTo(mark: number): void;
  /** Flush the writes as one batch. Rejects with the catalogue's retryable-conflict error
   *  (SurrealDB: "… This transaction can be retried") when a concurrent commit changed what this one read. */
  commit(): Promise<void>;
  cancel(): Promise<void>;
}

export interface KvStore {
  /** "memory", "file" or "postgres": what `surql-auth start` was given. */
  readonly kind: string;
  /** Commits that wrote something, counted by a store only this process writes (memory, file:); undefined where
   *  others write too (postgres://). Unchanged: nothing anywhere changed since. */
  readonly commits?: number;
  begin(mode: TransactionMode): Promise<KvTransaction>;
  close(): Promise<void>;
}
