// store/kv/: optimistic concurrency control for the single-process backends (memory, file:). Commits are numbered;
// a committing transaction fails with TxRetryable when a transaction that committed after it began wrote a key it
// read, or into a range it scanned — backward validation, which makes committed transactions serializable.
// A backend that writes after validating (file:, in its writer thread) publishes a commit once new snapshots show it:
// until then transactions begin before it, so they are validated against it.

import { queryError } from "../../errors/index.js";
import type { PendingWrites } from "./buffer.js";
import type { KeyString } from "./bytes.js";
import type { ReadSet } from "./transaction.js";

type Range = readonly [KeyString, KeyString];

interface CommitRecord {
  readonly seq: number;
  readonly keys: readonly KeyString[];
  readonly ranges: readonly Range[];
}

const inRange = (k: KeyString, [s, e]: Range): boolean => k >= s && k < e;
const overlaps = (a: Range, b: Range): boolean => a[0] < b[1] && b[0] < a[1];

export class CommitLog {
  /** Number of the last commit. */
  private seq = 0;
  /** Number of the last commit that new read snapshots show (where a transaction begins). */
  private visible = 0;
  private log: CommitRecord[] = [];
  /**
   * Start numbers of the open write transactions, one entry each (a few at a time: a list, not a Map whose key
   * changed with every commit, each transaction inserting and deleting an entry of its own).
   */
  private readonly active: number[] = [];

  private get openCount(): number {
    return this.active.length;
  }

  /** A write transaction begins: its start number (the commits it sees). */
  begin(): number {
    this.active.push(this.visible);
    return this.visible;
  }

  /** A write transaction ends without committing. */
  end(start: number): void {
    const i = this.active.lastIndexOf(start);
    if (i >= 0) {
      this.active[i] = this.active[this.active.length - 1]!;
      this.active.pop();
    }
    this.prune();
  }

  /**
   * Throws TxRetryable when a commit after `start` wrote what this transaction read (a key, or into a range it scanned
   * or deletes). A key it only wrote, never read, is a blind write: committing it after the other is the serial order
   * (the later value stays), so two blind writes of one key (a node's heartbeat) do not conflict.
   */
  validate(start: number, writes: PendingWrites, reads: ReadSet | undefined): void {
    if (this.seq === start) return;
    const myKeys: ReadonlySet<KeyString> = reads?.keys ?? new Set();
    const myRanges: Range[] = [...(reads?.ranges ?? []), ...writes.ranges];
    for (const record of this.log) {
      if (record.seq <= start) continue;
      for (const k of record.keys) if (myKeys.has(k) || myRanges.some((r) => inRange(k, r))) throw conflict();
      for (const r of record.ranges) {
        for (const k of myKeys) if (inRange(k, r)) throw conflict();
        if (myRanges.some((m) => overlaps(m, r))) throw conflict();
      }
    }
  }

  /** Record a successful commit: applied already (`publish`, the default), or to be published once written. */
  committed(start: number, writes: PendingWrites, publish = true): void {
    if (writes.sets.length === 0 && writes.deletes.length === 0 && writes.ranges.length === 0) return this.end(start);
    this.seq++;
    if (publish) this.visible = this.seq;
    // only transactions still open (begun before this commit), or yet to begin before its publication, need it
    if (this.openCount > 1 || this.visible < this.seq) {
      const keys = [...writes.deletes, ...writes.sets.map(([k]) => k)];
      this.log.push({ seq: this.seq, keys, ranges: writes.ranges });
    }
    this.end(start);
  }

  /** New snapshots show every commit recorded so far: transactions begin after them. */
  publish(): void {
    this.visible = this.seq;
    this.prune();
  }

  /** Forget the commits every open transaction, and every one yet to begin, already sees. */
  private prune(): void {
    if (this.log.length === 0) return;
    let oldest = this.visible;
    for (const s of this.active) if (s < oldest) oldest = s;
    let drop = 0;
    while (drop < this.log.length && this.log[drop]!.seq <= oldest) drop++;
    if (drop > 0) this.log = this.log.slice(drop);
  }
}

export function conflict(): Error {
  return queryError("TxRetryable");
}
