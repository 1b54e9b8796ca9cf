// store/kv/: the `memory` backend — committed data in one sorted B+ tree; a transaction reads the tree as it was
// when it began (commits build a copy-on-write clone and publish it), and commits are validated optimistically.

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

  /** The published tree's snapshot and read-only backend, made once per commit (not per transaction). */
  private reader: { tree: Tree; snapshot: Snapshot; backend: TransactionBackend } | undefined;

  private current(): { snapshot: Snapshot; backend: TransactionBackend } {
    if (this.reader?.tree !== this.tree) {
      const snapshot = treeSnapshot(this.tree);
      this.reader = { tree: this.tree, snapshot, backend: { snapshot, batch: BATCH, commit: async () => {}, cancel: async () => {} } };
    }
    return this.reader;
  }

  async begin(mode: TransactionMode): Promise<KvTransaction> {
    const { snapshot, backend } = this.current();
    if (mode === "read") return new BufferedTransaction(mode, backend, false);
    return new BufferedTransaction(mode, new WriteBackend(this, snapshot, this.log.begin()), true);
  }

  async close(): Promise<void> {}

  /** A write transaction ends without committing (WriteBackend's cancel). */
  endAt(start: number): void {
    this.log.end(start);
  }

  /** Validate and publish a write transaction's batch (WriteBackend's commit). */
  commitAt(start: number, writes: PendingWrites, reads: ReadSet | undefined): void {
    // nothing written: the snapshot it read is a consistent point, nothing to validate
    if (writes.sets.length === 0 && writes.deletes.length === 0 && writes.ranges.length === 0) return this.log.committed(start, writes);
    try {
      this.log.validate(start, writes, reads);
    } catch (e) {
      this.log.end(start);
      throw e;
    }
    if (writes.sets.length > 0 || writes.deletes.length > 0 || writes.ranges.length > 0) {
      // the published tree is never mutated: open snapshots keep reading it
      const next = this.tree.clone();
      applyWrites(next, writes);
      this.tree = next;
      this.commits++;
    }
    this.log.committed(start, writes);
  }
}

/** One write transaction's side of the store (a class, not closures per transaction: begin stays cheap). */
class WriteBackend implements TransactionBackend {
  readonly batch = BATCH;
  constructor(
    private readonly store: MemoryStore,
    readonly snapshot: Snapshot,
    private readonly start: number,
  ) {}

  async commit(writes: PendingWrites, reads: ReadSet | undefined): Promise<void> {
    this.store.commitAt(this.start, writes, reads);
  }

  async cancel(): Promise<void> {
    this.store.endAt(this.start);
  }
}
