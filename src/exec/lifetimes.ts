// Record identity lifetimes (SECURITY.md, F13): the engine remembers when a record that served as a record user's
// identity was deleted, so a token or session issued for that incarnation dies with it, even if the id is reused.
// The book sits next to the records (a RecordStore decorator sees every delete and clear), so it can move with them.

import type { IdentityBook, IdentityEnd } from "./contract.js";
import type { RecordId, RecordIdRange, ValueObject } from "../value/types.js";
import { valueKey } from "../store/keys.js";
import type { EdgeDirection, RecordStore, ScopeRef, StoredRecord, TableRef } from "../store/records.js";
import { Transaction } from "../store/transaction.js";
import type { Key } from "../store/kv/types.js";
import type { Clock } from "./session.js";

/** Most ends remembered at once; beyond it the oldest are forgotten and become the fail-closed `floor`. */
export const MAX_ENDS = 100_000;

/** How long a record seen to exist is trusted without reading the store again, while this node saw no end of it. */
export const EXISTS_TTL_MS = 1000;

type Scope = ScopeRef;

const scopeKey = (s: Scope): string =>
  s.tb !== undefined ? `t\0${s.ns}\0${s.db}\0${s.tb}` : s.db !== undefined ? `d\0${s.ns}\0${s.db}` : `n\0${s.ns}`;
const recordKey = (t: TableRef, id: RecordId): string => `r\0${t.ns}\0${t.db}\0${t.tb}\0${valueKey(id.id)}`;

/** The book's keys of a record: its own, and its table's, database's and namespace's (scope keys). */
interface RecordKeys {
  readonly ns: string;
  readonly db: string;
  readonly record: string;
  readonly table: string;
  readonly database: string;
  readonly namespace: string;
}

/** Keys of the record ids asked about lately (a cached token's id is one object: authenticate asks on every use). */
const KEYS = new WeakMap<RecordId, RecordKeys>();

function keysOf(ns: string, db: string, rid: RecordId): RecordKeys {
  const known = KEYS.get(rid);
  if (known !== undefined && known.ns === ns && known.db === db) return known;
  const t = { ns, db, tb: rid.table };
  const keys = { ns, db, record: recordKey(t, rid), table: scopeKey(t), database: scopeKey({ ns, db }), namespace: scopeKey({ ns }) };
  KEYS.set(rid, keys);
  return keys;
}

/**
 * Where the book keeps what must outlive the process (attack pass 5, C1): outside every namespace's key range (so a
 * REMOVE of the table or database does not erase it), `\x01ie` + the book's key. Ends hold their time (ms, float64);
 * a table marker (`\x01iw` + its scope key) says that records of the table have served as identities.
 */
const utf8 = new TextEncoder();
const stored = (kind: "ie" | "iw", key: string): Key => utf8.encode(`\u0001${kind}\u0000${key}`);
const msBytes = (ms: number): Uint8Array => new Uint8Array(new Float64Array([ms]).buffer);
const bytesMs = (b: Uint8Array): number => new Float64Array(b.slice().buffer)[0]!;

const later = (a: IdentityEnd | undefined, b: IdentityEnd | undefined): IdentityEnd | undefined =>
  a === undefined ? b : b === undefined || a.seq >= b.seq ? a : b;

/**
 * Deletions of records in tables that served as identities (watched), and removals of whole tables / databases /
 * namespaces. Memory: at most MAX_ENDS entries (plus one key per watched table); past that the oldest entry is
 * dropped and its end raises `floor`, which then ends every identity older than it (re-signin, never a wrong accept).
 */
export class IdentityLifetimes implements IdentityBook {
  private readonly watched = new Set<string>();
  private readonly ends = new Map<string, IdentityEnd>();
  private floor: IdentityEnd | undefined;
  private seq = 0;
  /** Records seen to exist: the sequence number and time of the read (at most maxEnds, oldest dropped first). */
  private readonly seen = new Map<string, { readonly seq: number; readonly ms: number }>();
  /** Called once a deletion that ended identities has committed (the engine cancels their sessions' running queries). */
  onEnded: () => void = () => {};
  private readonly endingIn = new WeakSet<Transaction>();

  constructor(
    private readonly records: RecordStore,
    private readonly clock: Clock,
    private readonly maxEnds = MAX_ENDS,
    /** A read transaction of the engine's store. */
    private readonly begin: () => Promise<Transaction> = async () => new Transaction(),
    /** A write transaction of the engine's store (marks a table as holding identities; none: memory only). */
    private readonly beginWrite?: () => Promise<Transaction>,
  ) {}

  watch(ns: string, db: string, rid: RecordId): number {
    const { table } = keysOf(ns, db, rid);
    if (!this.watched.has(table)) {
      this.watched.add(table);
      void this.markStored(table);
    }
    return this.seq;
  }

  /** Stores that `table` holds identities, so its deletions are kept after a restart and on other nodes. */
  private async markStored(table: string): Promise<void> {
    if (!this.beginWrite) return;
    try {
      const txn = await this.beginWrite();
      txn.kv?.set(stored("iw", table), new Uint8Array(0));
      await txn.commit();
    } catch {
      // another node marks it too, or the store is closing: the in-memory mark still holds here
    }
  }

  /** Answered without a read (and without a promise) while the record was seen lately and nothing ended it since. */
  exists(ns: string, db: string, rid: RecordId): boolean | Promise<boolean> {
    const keys = keysOf(ns, db, rid);
    const now = this.clock.now();
    // 1. seen lately in a watched table, and no end of it (or of its table …) recorded since: still there
    const hit = this.seen.get(keys.record);
    if (hit && now - hit.ms < EXISTS_TTL_MS && this.watched.has(keys.table) && (this.endOf(keys)?.seq ?? -1) <= hit.seq) return true;
    return this.read(ns, db, rid, keys.record, now);
  }

  /** 2. a read of its own, outside any query's transaction (another node may have deleted it) */
  private async read(ns: string, db: string, rid: RecordId, key: string, now: number): Promise<boolean> {
    const t = { ns, db, tb: rid.table };
    const seq = this.seq;
    const txn = await this.begin();
    let found: boolean;
    try {
      found = (await this.records.get(txn, t, rid)) !== undefined;
      await this.loadStoredEnds(txn, ns, db, rid);
    } finally {
      await txn.cancel();
    }
    this.seen.delete(key);
    if (found) this.seen.set(key, { seq, ms: now });
    if (this.seen.size > this.maxEnds) this.seen.delete(this.seen.keys().next().value as string);
    return found;
  }

  /**
   * Ends stored by an earlier process or another node for this record and its table, database and namespace, taken
   * into the book with sequence 0: they refuse tokens issued before them (by time) and never end a session of this
   * node (sessions started after them have a later sequence; those before them ended with the process or are ours).
   */
  private async loadStoredEnds(txn: Transaction, ns: string, db: string, rid: RecordId): Promise<void> {
    if (!txn.kv) return;
    const t = { ns, db, tb: rid.table };
    const keys = [recordKey(t, rid), scopeKey(t), scopeKey({ ns, db }), scopeKey({ ns })];
    const values = await txn.kv.getMany(keys.map((k) => stored("ie", k)));
    keys.forEach((key, i) => {
      const v = values[i];
      if (v === undefined) return;
      const ms = bytesMs(v);
      const known = this.ends.get(key);
      if (known === undefined || known.ms < ms) this.ends.set(key, { seq: known?.seq ?? 0, ms });
    });
  }

  endedAt(ns: string, db: string, rid: RecordId): IdentityEnd | undefined {
    // (the common case: nothing that served as an identity was ever deleted)
    return this.ends.size === 0 ? this.floor : this.endOf(keysOf(ns, db, rid));
  }

  private endOf(keys: RecordKeys): IdentityEnd | undefined {
    if (this.ends.size === 0) return this.floor;
    const { ends } = this;
    return later(later(later(later(this.floor, ends.get(keys.record)), ends.get(keys.table)), ends.get(keys.database)), ends.get(keys.namespace));
  }

  /** A record was deleted (only recorded in tables that held identities, here or as stored). */
  async deleted(txn: Transaction, t: TableRef, id: RecordId): Promise<void> {
    const table = scopeKey(t);
    if (this.watched.has(table) || (txn.kv !== undefined && (await txn.kv.get(stored("iw", table))) !== undefined)) this.end(txn, recordKey(t, id));
  }

  /** A table, database or namespace was removed with all its records. */
  cleared(txn: Transaction, s: Scope): void {
    this.end(txn, scopeKey(s));
  }

  private end(txn: Transaction, key: string): void {
    const prev = this.ends.get(key);
    const now: IdentityEnd = { seq: ++this.seq, ms: this.clock.now() };
    // re-inserted so the Map's order stays oldest-first
    this.ends.delete(key);
    this.ends.set(key, now);
    // kept in the store with the deletion itself (a cancelled transaction writes neither)
    txn.kv?.set(stored("ie", key), msBytes(now.ms));
    // the sessions it ended stop their running queries once the deletion is kept (one look per transaction)
    if (!this.endingIn.has(txn)) {
      this.endingIn.add(txn);
      txn.onCommit(() => this.onEnded());
    }
    // a cancelled transaction deleted nothing
    txn.onCancel(() => {
      if (this.ends.get(key) !== now) return;
      this.ends.delete(key);
      if (prev) this.ends.set(key, prev);
    });
    while (this.ends.size > this.maxEnds) {
      const [oldest, end] = this.ends.entries().next().value as [string, IdentityEnd];
      this.ends.delete(oldest);
      this.floor = later(this.floor, end);
    }
  }
}

/** The engine's RecordStore: the real one, telling the identity book about every delete and clear. */
export class TrackedRecordStore implements RecordStore {
  constructor(
    private readonly inner: RecordStore,
    private readonly book: IdentityLifetimes,
  ) {}

  get(txn: Transaction, t: TableRef, id: RecordId): Promise<ValueObject | undefined> {
    return this.inner.get(txn, t, id);
  }

  put(txn: Transaction, t: TableRef, id: RecordId, doc: ValueObject, edge?: boolean): Promise<void> {
    return this.inner.put(txn, t, id, doc, edge);
  }

  async delete(txn: Transaction, t: TableRef, id: RecordId): Promise<void> {
    const existed = (await this.inner.get(txn, t, id)) !== undefined;
    await this.inner.delete(txn, t, id);
    if (existed) await this.book.deleted(txn, t, id);
  }

  scan(txn: Transaction, t: TableRef, range?: RecordIdRange): AsyncIterable<readonly StoredRecord[]> {
    return this.inner.scan(txn, t, range);
  }

  edges(txn: Transaction, t: TableRef, id: RecordId, dir: EdgeDirection, table: string): Promise<RecordId[]> {
    return this.inner.edges(txn, t, id, dir, table);
  }

  async clear(txn: Transaction, t: Scope): Promise<void> {
    await this.inner.clear(txn, t);
    this.book.cleared(txn, t);
  }
}
