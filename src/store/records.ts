// store/: the narrow storage interface for records (get/put/delete/scan by table) and its in-memory backend.
// Every call is async (a durable backend answers from disk or the network) and names the transaction it runs in.

import type { RecordId, RecordIdRange, ValueObject } from "../value/types.js";
import { compareRecordKeys, keyInRange, valueKey } from "./keys.js";
import type { Transaction } from "./transaction.js";

/** Where a table lives. */
export interface TableRef {
  readonly ns: string;
  readonly db: string;
  readonly tb: string;
}

/** A namespace, a database or a table: what REMOVE drops with everything under it. */
export interface ScopeRef {
  readonly ns: string;
  readonly db?: string;
  readonly tb?: string;
}

export interface StoredRecord {
  readonly id: RecordId;
  readonly doc: ValueObject;
}

/** What a backend implements. Reads see the transaction's own writes; writes are undone with it. */
export interface RecordStore {
  get(txn: Transaction, t: TableRef, id: RecordId): Promise<ValueObject | undefined>;
  put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject): Promise<void>;
  delete(txn: Transaction, t: TableRef, id: RecordId): Promise<void>;
  /** The table's records (within `range` when given) in key order, in batches. */
  scan(txn: Transaction, t: TableRef, range?: RecordIdRange): AsyncIterable<readonly StoredRecord[]>;
  /** Drop every record of a table (REMOVE TABLE) or of a namespace / database prefix. */
  clear(txn: Transaction, t: ScopeRef): Promise<void>;
}

/** Every record a scan yields, in its order. */
export async function scanAll(store: RecordStore, txn: Transaction, t: TableRef, range?: RecordIdRange): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for await (const batch of store.scan(txn, t, range)) for (const r of batch) out.push(r);
  return out;
}

const tableKey = (t: ScopeRef): string => [t.ns, t.db ?? "", t.tb ?? ""].join("\u0000");

/** Records in JS maps; a transaction's undo log reverts its writes. */
export class MemoryRecordStore implements RecordStore {
  private readonly tables = new Map<string, Map<string, StoredRecord>>();

  async get(_txn: Transaction, t: TableRef, id: RecordId): Promise<ValueObject | undefined> {
    return this.tables.get(tableKey(t))?.get(valueKey(id.id))?.doc;
  }

  async put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject): Promise<void> {
    const tk = tableKey(t);
    let table = this.tables.get(tk);
    if (!table) {
      table = new Map();
      this.tables.set(tk, table);
    }
    const key = valueKey(id.id);
    const prev = table.get(key);
    table.set(key, { id, doc });
    const tbl = table;
    txn.onCancel(() => (prev ? tbl.set(key, prev) : tbl.delete(key)));
  }

  async delete(txn: Transaction, t: TableRef, id: RecordId): Promise<void> {
    const table = this.tables.get(tableKey(t));
    const key = valueKey(id.id);
    const prev = table?.get(key);
    if (!table || !prev) return;
    table.delete(key);
    txn.onCancel(() => table.set(key, prev));
  }

  async *scan(_txn: Transaction, t: TableRef, range?: RecordIdRange): AsyncIterable<readonly StoredRecord[]> {
    const table = this.tables.get(tableKey(t));
    if (!table) return;
    const all = [...table.values()].sort((a, b) => compareRecordKeys(a.id.id, b.id.id));
    yield range ? all.filter((r) => keyInRange(r.id.id, range)) : all;
  }

  async clear(txn: Transaction, t: ScopeRef): Promise<void> {
    const prefix = t.tb !== undefined ? tableKey(t) : t.db !== undefined ? `${t.ns}\u0000${t.db}\u0000` : `${t.ns}\u0000`;
    for (const [k, v] of [...this.tables]) {
      if (t.tb !== undefined ? k === prefix : k.startsWith(prefix)) {
        this.tables.delete(k);
        txn.onCancel(() => this.tables.set(k, v));
      }
    }
  }
}
