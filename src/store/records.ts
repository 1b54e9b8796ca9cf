// store/: the narrow storage interface for records (get/put/delete/scan by table) and its in-memory backend.

import type { RecordId, ValueObject } from "../value/types.js";
import { compareRecordKeys, valueKey } from "./keys.js";
import type { Transaction } from "./transaction.js";

/** Where a table lives. */
export interface TableRef {
  readonly ns: string;
  readonly db: string;
  readonly tb: string;
}

export interface StoredRecord {
  readonly id: RecordId;
  readonly doc: ValueObject;
}

/** What a durable backend would implement. Every write names the transaction that may undo it. */
export interface RecordStore {
  get(t: TableRef, id: RecordId): ValueObject | undefined;
  put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject): void;
  delete(txn: Transaction, t: TableRef, id: RecordId): void;
  /** Every record of the table in key order. */
  scan(t: TableRef): StoredRecord[];
  /** Drop every record of a table (REMOVE TABLE) or of a namespace / database prefix. */
  clear(txn: Transaction, t: { ns: string; db?: string; tb?: string }): void;
}

const tableKey = (t: { ns: string; db?: string; tb?: string }): string => [t.ns, t.db ?? "", t.tb ?? ""].join("\u0000");

export class MemoryRecordStore implements RecordStore {
  private readonly tables = new Map<string, Map<string, StoredRecord>>();

  get(t: TableRef, id: RecordId): ValueObject | undefined {
    return this.tables.get(tableKey(t))?.get(valueKey(id.id))?.doc;
  }

  put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject): void {
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

  delete(txn: Transaction, t: TableRef, id: RecordId): void {
    const table = this.tables.get(tableKey(t));
    const key = valueKey(id.id);
    const prev = table?.get(key);
    if (!table || !prev) return;
    table.delete(key);
    txn.onCancel(() => table.set(key, prev));
  }

  scan(t: TableRef): StoredRecord[] {
    const table = this.tables.get(tableKey(t));
    if (!table) return [];
    return [...table.values()].sort((a, b) => compareRecordKeys(a.id.id, b.id.id));
  }

  clear(txn: Transaction, t: { ns: string; db?: string; tb?: string }): void {
    const prefix = t.tb !== undefined ? tableKey(t) : t.db !== undefined ? `${t.ns}\u0000${t.db}\u0000` : `${t.ns}\u0000`;
    for (const [k, v] of [...this.tables]) {
      if (t.tb !== undefined ? k === prefix : k.startsWith(prefix)) {
        this.tables.delete(k);
        txn.onCancel(() => this.tables.set(k, v));
      }
    }
  }
}
