// store/kv/: optimistic concurrency control for the single-process backends (memory, file:). Commits are numbered;
// a committing transaction fails with TxRetryable when a transaction that committed after it began wrote a key it
// read or wrote, or into a range it scanned — backward validation, which makes committed transactions serializable.

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
  private log: CommitRecord[] = [];
  /** Start numbers of the open write transactions (a multiset: count per start). */
  private readonly active = new Map<number, number>();
  private openCount = 0;

  /** A write transaction begins: its start number (the commits it sees). */
  begin(): number {
    this.active.set(this.seq, (this.active.get(this.seq) ?? 0) + 1);
    this.openCount++;
    return this.seq;
  }

  /** A write transaction ends without committing. */
  end(start: number): void {
    const n = this.active.get(start) ?? 0;
    this.openCount--;
    if (n <= 1) this.active.delete(start);
    else this.active.set(start, n - 1);
    this.prune();
  }

  /** Throws TxRetryable when a commit after `start` touched what this transaction read or wrote. */
  validate(start: number, writes: PendingWrites, reads: ReadSet | undefined): void {
    if (this.seq === start) return;
    const myKeys = new Set<KeyString>(reads?.keys);
    for (const k of writes.deletes) myKeys.add(k);
    for (const [k] of writes.sets) myKeys.add(k);
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

  /** Record a successful commit (after its writes were applied). */
  committed(start: number, writes: PendingWrites): void {
    if (writes.sets.length === 0 && writes.deletes.length === 0 && writes.ranges.length === 0) return this.end(start);
    this.seq++;
    // only transactions still open (begun before this commit) need it
    if (this.openCount > 1) {
      const keys = [...writes.deletes, ...writes.sets.map(([k]) => k)];
      this.log.push({ seq: this.seq, keys, ranges: writes.ranges });
    }
    this.end(start);
  }

  /** Forget the commits every open transaction already sees. */
  private prune(): void {
    if (this.log.length === 0) return;
    if (this.active.size === 0) {
      this.log = [];
      return;
    }
    let oldest = Infinity;
    for (const s of this.active.keys()) if (s < oldest) oldest = s;
    let drop = 0;
    while (drop < this.log.length && this.log[drop]!.seq <= oldest) drop++;
    if (drop > 0) this.log = this.log.slice(drop);
  }
}

export function conflict(): Error {
  return queryError("TxRetryable");
}
