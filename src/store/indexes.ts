// store/: index entries as KV keys (store/kv/keys.ts layout): `…+ix\0*values…id`, one key per record and value tuple,
// the record id as the value — a lookup is a key-range scan, maintained by doc/ on every write.

import { RecordId } from "../value/types.js";
import type { Value } from "../value/types.js";
import { decodeIndexEntryKey, encodeRecordIdKey, encodeValue, decodeRecordIdKey, indexRange, tableKey } from "./kv/keys.js";
import { concatBytes, prefixRange } from "./kv/bytes.js";
import { cachedPrefix, kvOf, scopeRange } from "./records.js";
import type { ScopeRef, TableRef } from "./records.js";
import type { Key } from "./kv/types.js";
import type { Transaction } from "./transaction.js";

/** One entry of an index: the indexed values and the record ids stored under them. */
export interface IndexEntry {
  readonly values: readonly Value[];
  readonly ids: RecordId[];
}

/** Index entries; every call is async and names its transaction, as RecordStore's. */
export interface IndexStore {
  /** Record ids stored under `values` (one value per indexed field), in key order. */
  lookup(txn: Transaction, t: TableRef, ix: string, values: readonly Value[]): Promise<RecordId[]>;
  add(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void>;
  remove(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void>;
  /** Every entry of an index of `fields` fields, in key order. */
  entries(txn: Transaction, t: TableRef, ix: string, fields: number): Promise<IndexEntry[]>;
  /** Forget an index (REMOVE INDEX) or every index under a namespace / database / table. */
  clear(txn: Transaction, t: ScopeRef, ix?: string): Promise<void>;
}

/** `…+ix\0*v1v2…`: the keys of one value tuple's entries (keys.ts indexEntryKey, the index's prefix encoded once). */
function valuesKey(t: TableRef, ix: string, values: readonly Value[]): Key {
  const prefix = cachedPrefix(`+${t.ns}\0${t.db}\0${t.tb}\0${ix}`, () => indexRange(t.ns, t.db, t.tb, ix).start);
  return concatBytes([prefix, ...values.map(encodeValue)]);
}

/** `+`: the table's index entries follow this byte (keys.ts layout). */
const INDEXES = Uint8Array.of(0x2b);

/**
 * Index entries in the transaction's KV store. Number kinds stay apart (1, 1.0 and 1dec are three entries), as
 * SurrealDB's keys do; a UNIQUE index is checked by its caller (NONE / NULL tuples may repeat), so every entry
 * carries its record id in the key.
 */
export class KvIndexStore implements IndexStore {
  async lookup(txn: Transaction, t: TableRef, ix: string, values: readonly Value[]): Promise<RecordId[]> {
    const kv = kvOf(txn);
    const range = prefixRange(valuesKey(t, ix, values));
    // nothing buffered there and a synchronous snapshot: read it directly, no async generator
    const now = kv.scanNow?.(range);
    if (now) return now.map(([, v]) => new RecordId(t.tb, decodeRecordIdKey(v)));
    const out: RecordId[] = [];
    for await (const batch of kv.scan(range)) {
      for (const [, v] of batch) out.push(new RecordId(t.tb, decodeRecordIdKey(v)));
    }
    return out;
  }

  async add(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void> {
    const rid = encodeRecordIdKey(id.id);
    kvOf(txn).set(concatBytes([valuesKey(t, ix, values), rid]), rid);
  }

  async remove(txn: Transaction, t: TableRef, ix: string, values: readonly Value[], id: RecordId): Promise<void> {
    kvOf(txn).delete(concatBytes([valuesKey(t, ix, values), encodeRecordIdKey(id.id)]));
  }

  async entries(txn: Transaction, t: TableRef, ix: string, fields: number): Promise<IndexEntry[]> {
    const out: { values: readonly Value[]; ids: RecordId[] }[] = [];
    let last: Uint8Array | undefined;
    for await (const batch of kvOf(txn).scan(indexRange(t.ns, t.db, t.tb, ix))) {
      for (const [k, v] of batch) {
        // the key is the values then the record id (the stored value): equal value bytes, one entry
        const head = k.subarray(0, k.length - v.length);
        const id = new RecordId(t.tb, decodeRecordIdKey(v));
        if (last && Buffer.compare(last, head) === 0) out[out.length - 1]!.ids.push(id);
        else out.push({ values: decodeIndexEntryKey(k, fields).values, ids: [id] });
        last = head;
      }
    }
    return out;
  }

  async clear(txn: Transaction, t: ScopeRef, ix?: string): Promise<void> {
    const kv = kvOf(txn);
    if (ix !== undefined && t.db !== undefined && t.tb !== undefined) kv.deleteRange(indexRange(t.ns, t.db, t.tb, ix));
    else if (t.db !== undefined && t.tb !== undefined) kv.deleteRange(prefixRange(concatBytes([tableKey(t.ns, t.db, t.tb), INDEXES])));
    else kv.deleteRange(scopeRange(t));
  }
}
