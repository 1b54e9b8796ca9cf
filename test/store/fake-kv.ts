// test/store: a small in-memory KvStore for catalog tests (snapshot at begin, buffered writes, no conflict checks).

import type { Bytes, Entry, Key, KeyRange, KvStore, KvTransaction, ScanOptions, TransactionMode } from "../../src/store/kv/types.js";

const text = (k: Key): string => Buffer.from(k).toString("latin1");
const bytes = (s: string): Key => Uint8Array.from(Buffer.from(s, "latin1"));

type Op = { kind: "set"; key: string; value: Bytes } | { kind: "delete"; key: string } | { kind: "range"; start: string; end: string };

class FakeTxn implements KvTransaction {
  closed = false;
  private ops: Op[] = [];
  constructor(
    readonly mode: TransactionMode,
    private readonly store: FakeKvStore,
    private readonly snapshot: Map<string, Bytes>,
  ) {}

  private view(): Map<string, Bytes> {
    return this.applyTo(new Map(this.snapshot));
  }

  private applyTo(m: Map<string, Bytes>): Map<string, Bytes> {
    for (const op of this.ops) {
      if (op.kind === "set") m.set(op.key, op.value);
      else if (op.kind === "delete") m.delete(op.key);
      else for (const k of [...m.keys()]) if (k >= op.start && k < op.end) m.delete(k);
    }
    return m;
  }

  private open(): void {
    if (this.closed) throw new Error("transaction closed");
  }

  async get(key: Key): Promise<Bytes | undefined> {
    this.open();
    return this.view().get(text(key));
  }
  async getMany(keys: readonly Key[]): Promise<(Bytes | undefined)[]> {
    const v = this.view();
    return keys.map((k) => v.get(text(k)));
  }
  set(key: Key, value: Bytes): void {
    this.open();
    this.ops.push({ kind: "set", key: text(key), value });
  }
  delete(key: Key): void {
    this.open();
    this.ops.push({ kind: "delete", key: text(key) });
  }
  deleteRange(range: KeyRange): void {
    this.open();
    this.ops.push({ kind: "range", start: text(range.start), end: text(range.end) });
  }
  async *scan(range: KeyRange, options: ScanOptions = {}): AsyncIterable<readonly Entry[]> {
    this.open();
    this.store.scans++;
    const [lo, hi] = [text(range.start), text(range.end)];
    let rows = [...this.view()].filter(([k]) => k >= lo && k < hi).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (options.reverse) rows.reverse();
    if (options.limit !== undefined) rows = rows.slice(0, options.limit);
    const batch = options.batch ?? 100;
    for (let i = 0; i < rows.length; i += batch) yield rows.slice(i, i + batch).map(([k, v]) => [bytes(k), v] as const);
  }
  savepoint(): number {
    return this.ops.length;
  }
  rollbackTo(mark: number): void {
    this.ops.length = mark;
  }
  async commit(): Promise<void> {
    this.open();
    this.closed = true;
    this.applyTo(this.store.data);
    this.store.commits++;
  }
  async cancel(): Promise<void> {
    this.closed = true;
  }
}

export class FakeKvStore implements KvStore {
  readonly kind = "memory";
  data = new Map<string, Bytes>();
  commits = 0;
  scans = 0;
  async begin(mode: TransactionMode): Promise<KvTransaction> {
    return new FakeTxn(mode, this, new Map(this.data));
  }
  async close(): Promise<void> {}
}
