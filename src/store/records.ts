// store/: records as KV entries (store/kv/keys.ts layout): a record under its table's key range, and for every
// edge (a record RELATE made: marked in its bytes) an edge key under its `in` and `out` nodes, so `->edge` walks keys, not tables.

import { RecordId } from "../value/types.js";
import type { RecordIdKey, RecordIdRange, ValueObject } from "../value/types.js";
import { decodeRecord, encodeRecord } from "./kv/codec.js";
import { databaseKey, decodeEdgeKey, decodeRecordKey, edgeKey, edgesRange, encodeRecordIdKey, namespaceKey, tableKey, tableRecordsRange } from "./kv/keys.js";
import type { EdgeDirection } from "./kv/keys.js";
import { concatBytes, prefixRange } from "./kv/bytes.js";
import type { Bytes, Key, KeyRange, KvTransaction } from "./kv/types.js";
import type { Transaction } from "./transaction.js";
import { defKey, levelDefs } from "./catalog-keys.js";

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

export type { EdgeDirection };

/** What a backend implements. Reads see the transaction's own writes; writes are undone with it. */
export interface RecordStore {
  get(txn: Transaction, t: TableRef, id: RecordId): Promise<ValueObject | undefined>;
  /** Store a record; `edge`: it is a graph edge (RELATE made it), see isEdge. */
  put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject, edge?: boolean): Promise<void>;
  delete(txn: Transaction, t: TableRef, id: RecordId): Promise<void>;
  /** The table's records (within `range` when given) in key order, in batches. */
  scan(txn: Transaction, t: TableRef, range?: RecordIdRange): AsyncIterable<readonly StoredRecord[]>;
  /**
   * Ids of the records in `table` whose `in` (dir "out": edges leaving the node) or `out` (dir "in") is the record
   * `id` of `t`, in key order. A hint: the caller reads each record and checks it still names the node.
   */
  edges(txn: Transaction, t: TableRef, id: RecordId, dir: EdgeDirection, table: string): Promise<RecordId[]>;
  /** Drop every record of a table (REMOVE TABLE) or of a namespace / database prefix. */
  clear(txn: Transaction, t: ScopeRef): Promise<void>;
}

/** Every record a scan yields, in its order. */
export async function scanAll(store: RecordStore, txn: Transaction, t: TableRef, range?: RecordIdRange): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for await (const batch of store.scan(txn, t, range)) for (const r of batch) out.push(r);
  return out;
}

/** The KV transaction under an engine transaction. */
export function kvOf(txn: Transaction): KvTransaction {
  if (!txn.kv) throw new Error("this transaction has no key-value transaction");
  return txn.kv;
}

/** Key prefixes (a table's records, an index's entries) by name: names are encoded once, not on every read. */
const prefixes = new Map<string, Key>();
const MAX_PREFIXES = 10_000;

export function cachedPrefix(name: string, build: () => Key): Key {
  let prefix = prefixes.get(name);
  if (!prefix) {
    if (prefixes.size >= MAX_PREFIXES) prefixes.clear();
    prefix = build();
    prefixes.set(name, prefix);
  }
  return prefix;
}

/** Encoded key parts of record ids (an id object is immutable and often read again: `$auth`, a session's record). */
const idKeys = new WeakMap<RecordId, Key>();

/** Encoded key parts of number and short string ids, by value (bounded: cleared when full). */
const primitiveKeys = new Map<string | bigint, Key>();
const MAX_PRIMITIVE_KEYS = 100_000;

function idKey(id: RecordId): Key {
  const v = id.id;
  // number and short string ids by value only: a fresh RecordId (an index lookup makes one) costs no WeakMap entry
  if (typeof v === "bigint" || (typeof v === "string" && v.length <= 64)) {
    let k = primitiveKeys.get(v);
    if (!k) {
      if (primitiveKeys.size >= MAX_PRIMITIVE_KEYS) primitiveKeys.clear();
      k = encodeRecordIdKey(v);
      primitiveKeys.set(v, k);
    }
    return k;
  }
  let k = idKeys.get(id);
  if (!k) {
    k = encodeRecordIdKey(v);
    idKeys.set(id, k);
  }
  return k;
}

/** `/*ns\0*db\0*tb\0*id`: a record's key. */
function recordKey(t: TableRef, id: RecordIdKey | RecordId): Key {
  const prefix = cachedPrefix(`*${t.ns}\0${t.db}\0${t.tb}`, () => tableRecordsRange(t.ns, t.db, t.tb).start);
  return concatBytes([prefix, id instanceof RecordId ? idKey(id) : encodeRecordIdKey(id)]);
}

/** The smallest key after `key` (record keys are self-delimiting: none extends another). */
const after = (key: Key): Key => concatBytes([key, Uint8Array.of(0)]);

/** The key range of a record-id range within its table. */
function rangeKeys(t: TableRef, range: RecordIdRange): KeyRange {
  const all = tableRecordsRange(t.ns, t.db, t.tb);
  const at = (id: RecordIdKey): Key => recordKey(t, id);
  const start = range.begin ? (range.begin.inclusive ? at(range.begin.value) : after(at(range.begin.value))) : all.start;
  const end = range.end ? (range.end.inclusive ? after(at(range.end.value)) : at(range.end.value)) : all.end;
  return { start, end };
}

/** The key prefix of everything under a namespace, a database or a table. */
export function scopeRange(s: ScopeRef): KeyRange {
  return prefixRange(s.db === undefined ? namespaceKey(s.ns) : s.tb === undefined ? databaseKey(s.ns, s.db) : tableKey(s.ns, s.db, s.tb));
}

/** The documents this node read or wrote that are edges (a document object is never mutated, and stands for its bytes). */
const edgeDocs = new WeakSet<ValueObject>();

/** Is this stored document (as get / scan return it) a graph edge: made by RELATE or INSERT RELATION, its `in` and `out` fixed? */
export function isEdge(doc: ValueObject | undefined): boolean {
  return doc !== undefined && edgeDocs.has(doc);
}

/** The edge keys a document's record-id ends stand for: under its `in` node (outgoing) and its `out` node (incoming). */
function edgeKeys(t: TableRef, id: RecordId, doc: ValueObject | undefined): Key[] {
  const out: Key[] = [];
  if (doc?.in instanceof RecordId) out.push(edgeKey(t.ns, t.db, doc.in.table, doc.in.id, "out", id));
  if (doc?.out instanceof RecordId) out.push(edgeKey(t.ns, t.db, doc.out.table, doc.out.id, "in", id));
  return out;
}

/** Records in the transaction's KV store; a decoded document is kept with its bytes (documents are never mutated). */
export class KvRecordStore implements RecordStore {
  private readonly docs = new WeakMap<Bytes, ValueObject>();

  private decode(bytes: Bytes): ValueObject {
    let doc = this.docs.get(bytes);
    if (!doc) {
      const rec = decodeRecord(bytes);
      doc = rec.doc;
      if (rec.edge) edgeDocs.add(doc);
      this.docs.set(bytes, doc);
    }
    return doc;
  }

  async get(txn: Transaction, t: TableRef, id: RecordId): Promise<ValueObject | undefined> {
    const bytes = await kvOf(txn).get(recordKey(t, id));
    return bytes && this.decode(bytes);
  }

  async put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject, edge = false): Promise<void> {
    const kv = kvOf(txn);
    trackTable(kv, t);
    // the previous version's keys go whatever it was (data stored before the marker kept keys for any record-id end)
    const prev = await this.get(txn, t, id);
    for (const k of edgeKeys(t, id, prev)) kv.delete(k);
    const bytes = encodeRecord(doc, edge);
    if (edge) edgeDocs.add(doc);
    else edgeDocs.delete(doc);
    this.docs.set(bytes, doc);
    kv.set(recordKey(t, id), bytes);
    if (edge) for (const k of edgeKeys(t, id, doc)) kv.set(k, new Uint8Array(0));
  }

  async delete(txn: Transaction, t: TableRef, id: RecordId): Promise<void> {
    const kv = kvOf(txn);
    trackTable(kv, t);
    for (const k of edgeKeys(t, id, await this.get(txn, t, id))) kv.delete(k);
    kv.delete(recordKey(t, id));
  }

  async *scan(txn: Transaction, t: TableRef, range?: RecordIdRange): AsyncIterable<readonly StoredRecord[]> {
    const keys = range ? rangeKeys(t, range) : tableRecordsRange(t.ns, t.db, t.tb);
    for await (const batch of kvOf(txn).scan(keys)) {
      yield batch.map(([k, v]) => {
        const doc = this.decode(v);
        return { id: doc.id instanceof RecordId ? doc.id : new RecordId(t.tb, decodeRecordKey(k).id), doc };
      });
    }
  }

  async edges(txn: Transaction, t: TableRef, id: RecordId, dir: EdgeDirection, table: string): Promise<RecordId[]> {
    const out: RecordId[] = [];
    for await (const batch of kvOf(txn).scan(edgesRange(t.ns, t.db, t.tb, id.id, dir, table))) for (const [k] of batch) out.push(decodeEdgeKey(k).other);
    return out;
  }

  async clear(txn: Transaction, t: ScopeRef): Promise<void> {
    kvOf(txn).deleteRange(scopeRange(t));
  }
}

/**
 * A write to a table's records conflicts with a concurrent change of that table's definition, fields, indexes or
 * events (an index defined meanwhile would miss the record), and with nothing else the catalog holds: a DEFINE of
 * another table, user or access method, in this tenant or another, leaves the write alone (attack pass 11, I8).
 */
function trackTable(kv: KvTransaction, t: TableRef): void {
  if (!kv.track) return;
  kv.track(levelDefs(t));
  const def = defKey({ ns: t.ns, db: t.db }, "tb", t.tb);
  kv.track({ start: def, end: concatBytes([def, Uint8Array.of(0)]) });
}
