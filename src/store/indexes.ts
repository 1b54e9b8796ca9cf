// store/: index entries (unique and non-unique) keyed by the indexed values; maintained by doc/ on every write.

import type { RecordId, Value } from "../value/types.js";
import { valueKey } from "./keys.js";
import type { ScopeRef, TableRef } from "./records.js";
import type { Transaction } from "./transaction.js";

/** One entry of an index: the indexed values and the record ids stored under them. */
export interface IndexEntry {
  readonly values: readonly Value[];
  readonly ids: RecordId[];
}

/** Index entries; every call is async and names its transaction, as RecordStore's. */
export interface IndexStore {
  /** Record ids stored under `values` (one value per indexed field). */
  lookup(txn: Transaction, t: TableRef, ix: string, values: readonly Value[]): Promise<RecordId[]>;
  add(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void>;
  remove(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void>;
  /** Every entry of an index (in no particular order). */
  entries(txn: Transaction, t: TableRef, ix: string): Promise<IndexEntry[]>;
  /** Forget an index (REMOVE INDEX / TABLE) or everything under a namespace / database / table. */
  clear(txn: Transaction, t: ScopeRef, ix?: string): Promise<void>;
}

/** Index entry keys keep number kinds apart (1, 1.0 and 1dec are three entries), as SurrealDB's keys do. */
function entryKey(values: readonly Value[]): string {
  return values.map((v) => (typeof v === "number" ? `f${v}` : valueKey(v))).join("\u0001");
}

const ixKey = (t: ScopeRef, ix?: string): string => [t.ns, t.db ?? "", t.tb ?? "", ix ?? ""].join("\u0000");

export class MemoryIndexStore implements IndexStore {
  private readonly indexes = new Map<string, Map<string, Map<string, RecordId>>>();
  /** The values each entry key stands for (kept while the key exists). */
  private readonly keyValues = new Map<string, readonly Value[]>();

  async entries(_txn: Transaction, t: TableRef, ix: string): Promise<IndexEntry[]> {
    const index = this.indexes.get(ixKey(t, ix));
    if (!index) return [];
    const out: IndexEntry[] = [];
    for (const [vk, entry] of index) {
      const values = this.keyValues.get(vk);
      if (values && entry.size > 0) out.push({ values, ids: [...entry.values()] });
    }
    return out;
  }

  async lookup(_txn: Transaction, t: TableRef, ix: string, values: readonly Value[]): Promise<RecordId[]> {
    const entry = this.indexes.get(ixKey(t, ix))?.get(entryKey(values));
    return entry ? [...entry.values()] : [];
  }

  async add(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void> {
    const k = ixKey(t, ix);
    let index = this.indexes.get(k);
    if (!index) {
      index = new Map();
      this.indexes.set(k, index);
    }
    const vk = entryKey(values);
    if (!this.keyValues.has(vk)) this.keyValues.set(vk, [...values]);
    let entry = index.get(vk);
    if (!entry) {
      entry = new Map();
      index.set(vk, entry);
    }
    const rk = valueKey(id);
    if (entry.has(rk)) return;
    entry.set(rk, id);
    const e = entry;
    txn.onCancel(() => e.delete(rk));
  }

  async remove(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void> {
    const entry = this.indexes.get(ixKey(t, ix))?.get(entryKey(values));
    const rk = valueKey(id);
    if (!entry || !entry.has(rk)) return;
    entry.delete(rk);
    txn.onCancel(() => entry.set(rk, id));
  }

  async clear(txn: Transaction, t: ScopeRef, ix?: string): Promise<void> {
    const parts = [t.ns, t.db, t.tb, ix];
    const n = parts.findIndex((p) => p === undefined);
    const depth = n === -1 ? 4 : n;
    const want = parts.slice(0, depth).join("\u0000");
    for (const [k, v] of [...this.indexes]) {
      if (k.split("\u0000").slice(0, depth).join("\u0000") === want) {
        this.indexes.delete(k);
        txn.onCancel(() => this.indexes.set(k, v));
      }
    }
  }
}
