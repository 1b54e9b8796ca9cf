// store/kv/: a transaction's pending writes — a sorted map of sets and deletes plus range deletes, with savepoints
// (O(1) copy-on-write clones). Reads consult it before the snapshot, so a transaction reads its own writes.

import { compareKeyStrings, type KeyString } from "./bytes.js";
import { SortedMap } from "./sorted.js";
import type { Bytes } from "./types.js";

/** A buffered write: the new value, or null for a delete. */
export type Pending = Bytes | null;

/** What a commit flushes, already resolved: range deletes first, then deletes, then sets. */
export interface PendingWrites {
  readonly ranges: readonly (readonly [KeyString, KeyString])[];
  readonly deletes: readonly KeyString[];
  /** In key order. */
  readonly sets: readonly (readonly [KeyString, Bytes])[];
}

type Tree = SortedMap<KeyString, Pending>;

const EMPTY: Tree = new SortedMap<KeyString, Pending>(undefined, compareKeyStrings);

export class WriteBuffer {
  /** The shared empty tree until the first write (most transactions only read: no tree of their own). */
  private entries: Tree = EMPTY;
  private ranges: (readonly [KeyString, KeyString])[] = [];
  private readonly marks: { entries: Tree; ranges: (readonly [KeyString, KeyString])[] }[] = [];

  get empty(): boolean {
    return this.entries.size === 0 && this.ranges.length === 0;
  }

  set(key: KeyString, value: Bytes): void {
    this.writable().set(key, value);
  }

  delete(key: KeyString): void {
    this.writable().set(key, null);
  }

  private writable(): Tree {
    if (this.entries === EMPTY) this.entries = new SortedMap<KeyString, Pending>(undefined, compareKeyStrings);
    return this.entries;
  }

  /** Drops the buffered writes inside the range and hides the snapshot's keys there; later sets show again. */
  deleteRange(start: KeyString, end: KeyString): void {
    if (start >= end) return;
    if (this.entries !== EMPTY) this.entries.deleteRange(start, end, false);
    this.ranges.push([start, end]);
  }

  /** The buffer's say on a key: a value, null (deleted), or undefined (ask the snapshot). */
  lookup(key: KeyString): Pending | undefined {
    const p = this.entries.get(key);
    if (p !== undefined) return p;
    return this.inDeletedRange(key) ? null : undefined;
  }

  inDeletedRange(key: KeyString): boolean {
    for (const [s, e] of this.ranges) if (key >= s && key < e) return true;
    return false;
  }

  /** Buffered entries of [start, end) in key order (a copy: the caller may write while it reads). */
  entriesIn(start: KeyString, end: KeyString): [KeyString, Pending][] {
    return this.entries.getRange(start, end, false);
  }

  /** Nothing buffered (no write, no range delete) inside [start, end). */
  untouched(start: KeyString, end: KeyString): boolean {
    if (this.empty) return true;
    const first = this.entries.has(start) ? start : this.entries.nextHigherKey(start);
    return (first === undefined || first >= end) && !this.ranges.some(([s, e]) => s < end && e > start);
  }

  /** The deleted ranges overlapping [start, end). */
  rangesIn(start: KeyString, end: KeyString): (readonly [KeyString, KeyString])[] {
    return this.ranges.filter(([s, e]) => s < end && e > start);
  }

  savepoint(): number {
    this.marks.push({ entries: this.entries === EMPTY ? EMPTY : this.entries.clone(), ranges: this.ranges.slice() });
    return this.marks.length - 1;
  }

  /** Back to the state at `mark`; the mark stays usable, later marks are dropped. */
  rollbackTo(mark: number): void {
    const saved = this.marks[mark];
    if (saved === undefined) throw new RangeError(`no savepoint ${mark}`);
    this.entries = saved.entries === EMPTY ? EMPTY : saved.entries.clone();
    this.ranges = saved.ranges.slice();
    this.marks.length = mark + 1;
  }

  /** Every key this transaction writes (sets and deletes), in key order. */
  writtenKeys(): KeyString[] {
    return this.entries.keysArray();
  }

  writtenRanges(): readonly (readonly [KeyString, KeyString])[] {
    return this.ranges;
  }

  pending(): PendingWrites {
    const deletes: KeyString[] = [];
    const sets: [KeyString, Bytes][] = [];
    this.entries.forEachPair((k, v) => {
      if (v === null) deletes.push(k);
      else sets.push([k, v]);
    });
    return { ranges: this.ranges.slice(), deletes, sets };
  }
}
