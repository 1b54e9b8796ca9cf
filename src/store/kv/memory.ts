// store/kv/: the `memory` backend — committed data in one sorted B+ tree; a transaction reads the tree as it was
// when it began (a commit builds a copy-on-write clone and publishes it, or writes the tree in place when no other
// open transaction reads it), and commits are validated optimistically.

import type { PendingWrites } from "./buffer.js";
import { compareKeyStrings, keyBytes, type KeyString } from "./bytes.js";
import { CommitLog } from "./occ.js";
import { SortedMap } from "./sorted.js";
import { BufferedTransaction, type ReadSet, type Snapshot, type StringEntry, type TransactionBackend } from "./transaction.js";
import type { Bytes, Key, KvStore, KvTransaction, TransactionMode } from "./types.js";

/** Each entry keeps its key bytes too, made once at commit rather than at every scan. */
type Tree = SortedMap<KeyString, readonly [Key, Bytes]>;

const BATCH = 1000;

function* scanTree(tree: Tree, start: KeyString, end: KeyString, reverse: boolean, batch: number): Iterable<StringEntry[]> {
  let out: StringEntry[] = [];
  for (const [k, [bytes, v]] of reverse ? tree.entriesReversed(end) : tree.entries(start)) {
    if (reverse ? k < start : k >= end) break;
    if (k >= end) continue; // reverse starts at `end` itself when present
    out.push([k, v, bytes]);
    if (out.length >= batch) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

function treeSnapshot(tree: Tree): Snapshot {
  return {
    get: (k) => tree.get(k)?.[1],
    getMany: (keys) => keys.map((k) => tree.get(k)?.[1]),
    scan: (start, end, reverse, batch) => scanTree(tree, start, end, reverse, batch),
  };
}

/** Writes a resolved batch into a tree: range deletes, deletes, then sets. */
export function applyWrites(tree: Tree, writes: PendingWrites): void {
  for (const [s, e] of writes.ranges) tree.deleteRange(s, e, false);
  for (const k of writes.deletes) tree.delete(k);
  for (const [k, v] of writes.sets) tree.set(k, [keyBytes(k), v]);
}

export class MemoryStore implements KvStore {
  readonly kind = "memory";
  commits = 0;
  private tree: Tree = new SortedMap<KeyString, readonly [Key, Bytes]>(undefined, compareKeyStrings);
  private readonly log = new CommitLog();
  /** Open transactions that read the published tree (those that read an older one do not count). */
  private holders = 0;
  /** Bumped when a commit publishes a new tree: which tree a transaction read. */
  private generation = 0;

  /** The published tree's snapshot, made once per tree (not per transaction). */
  private reader: { tree: Tree; snapshot: Snapshot } | undefined;

  private snapshot(): Snapshot {
    if (this.reader?.tree !== this.tree) this.reader = { tree: this.tree, snapshot: treeSnapshot(this.tree) };
    return this.reader.snapshot;
  }

  async begin(mode: TransactionMode): Promise<KvTransaction> {
    const snapshot = this.snapshot();
    this.holders++;
    if (mode === "read") return new BufferedTransaction(mode, new ReadBackend(this, snapshot, this.generation), false);
    return new BufferedTransaction(mode, new WriteBackend(this, snapshot, this.log.begin(), this.generation), true);
  }

  async close(): Promise<void> {}

  /** A transaction that read tree `generation` ended (committed or cancelled). */
  release(generation: number): void {
    if (generation === this.generation) this.holders--;
  }

  /** A write transaction ends without committing (WriteBackend's cancel). */
  endAt(start: number): void {
    this.log.end(start);
  }

  /** Validate and publish the batch of a write transaction that read tree `generation` (WriteBackend's commit). */
  commitAt(start: number, writes: PendingWrites, reads: ReadSet | undefined, generation: number): void {
    // nothing written: the snapshot it read is a consistent point, nothing to validate
    if (writes.sets.length === 0 && writes.deletes.length === 0 && writes.ranges.length === 0) return this.log.committed(start, writes);
    try {
      this.log.validate(start, writes, reads);
    } catch (e) {
      this.log.end(start);
      throw e;
    }
    if (this.holders === 1 && generation === this.generation) {
      // the committing transaction is the tree's only reader: write it in place (no copy of the paths written)
      applyWrites(this.tree, writes);
    } else {
      // open snapshots keep reading the published tree: it is never changed under them
      const next = this.tree.clone();
      applyWrites(next, writes);
      this.tree = next;
      this.generation++;
      this.holders = 0;
    }
    this.commits++;
    this.log.committed(start, writes);
  }
}

/** One read transaction's side of the store: it tells the store when it ends. */
class ReadBackend implements TransactionBackend {
  readonly batch = BATCH;
  constructor(
    private readonly store: MemoryStore,
    readonly snapshot: Snapshot,
    private readonly generation: number,
  ) {}

  async commit(): Promise<void> {
    this.store.release(this.generation);
  }

  async cancel(): Promise<void> {
    this.store.release(this.generation);
  }
}

/** One write transaction's side of the store (a class, not closures per transaction: begin stays cheap). */
class WriteBackend implements TransactionBackend {
  readonly batch = BATCH;
  constructor(
    private readonly store: MemoryStore,
    readonly snapshot: Snapshot,
    private readonly start: number,
    private readonly generation: number,
  ) {}

  async commit(writes: PendingWrites, reads: ReadSet | undefined): Promise<void> {
    try {
      this.store.commitAt(this.start, writes, reads, this.generation);
    } finally {
      this.store.release(this.generation);
    }
  }

  async cancel(): Promise<void> {
    this.store.endAt(this.start);
    this.store.release(this.generation);
  }
}
