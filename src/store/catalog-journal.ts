// store/: the catalog writes of one transaction — each goes to the store with the bumped catalog version, and the
// node's snapshot learns of them at commit.

import { VERSION_KEY } from "./catalog-keys.js";
import { concatBytes, keyString } from "./kv/bytes.js";
import type { Bytes, Key, KeyRange, KvTransaction } from "./kv/types.js";

/** What catalog writes need from the engine's transaction. */
export interface CatalogTxn {
  /** The store transaction definitions are written to; undefined: a catalog that lives in memory only. */
  readonly kv: KvTransaction | undefined;
  /** Its catalog state, from the sync at its start (beginCatalogTxn); undefined: it read no catalog version. */
  readonly catalog?: CatalogState | undefined;
  onCancel(revert: () => void): void;
  onCommit(done: () => void): void;
}

/** One transaction's view of the catalog: the version it read and what it wrote (undefined = deleted). */
export interface TxnCatalog {
  readonly version: number;
  readonly writes: Map<string, Bytes | undefined>;
  /** What memory held at a key before this transaction first replaced or removed it there, in write order (`seq`). */
  readonly before: Map<string, Before>;
  readonly ranges: KeyRange[];
  hooked: boolean;
  /** The bumped version's bytes, made at the first write. */
  bumped: Bytes | undefined;
}

/** A committed in-memory value an open transaction replaced (undefined: there was none); `seq` orders writes. */
export interface Before {
  readonly seq: number;
  readonly value: unknown;
}

let writeSeq = 0;

/** The node's snapshot, told when a transaction that wrote definitions ends. */
export interface CatalogListener {
  opened(st: TxnCatalog): void;
  committed(st: TxnCatalog): void;
  closed(st: TxnCatalog): void;
}

const fromUtf8 = new TextDecoder();

/** A transaction's catalog state and the snapshot to tell (held by the transaction: no per-transaction WeakMap entry). */
export interface CatalogState {
  readonly st: TxnCatalog;
  readonly listener: CatalogListener;
}

/** The version as its decimal digits (ASCII: no TextEncoder call, once per writing transaction). */
export function encodeVersion(v: number): Bytes {
  const text = String(v);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

export function decodeVersion(b: Bytes | undefined): number {
  if (b === undefined) return 0;
  // decimal digits (what encodeVersion writes) without a TextDecoder call; anything else as its text says
  let v = 0;
  for (let i = 0; i < b.length; i++) {
    const d = b[i]! - 0x30;
    if (d < 0 || d > 9 || b.length > 15) return Number(fromUtf8.decode(b));
    v = v * 10 + d;
  }
  return b.length === 0 ? 0 : v;
}

/** The version key as a range, which a writing transaction tracks (made once). */
const VERSION_RANGE: KeyRange = { start: VERSION_KEY, end: concatBytes([VERSION_KEY, Uint8Array.of(0)]) };

/** The state of a transaction that read catalog version `version` (the engine's Transaction holds it). */
export function beginCatalogTxn(version: number, listener: CatalogListener): CatalogState {
  return { st: { version, writes: new Map(), before: new Map(), ranges: [], hooked: false, bumped: undefined }, listener };
}

/**
 * Write one definition (its bytes made only when there is a store), or delete it and everything in `range`,
 * and bump the version. `replaced`: the in-memory value this write replaces or removes (a redefinition that keeps
 * its object passes none), so the committed one stays known while the transaction is open.
 */
export function writeDefinition(txn: CatalogTxn, key: Key, encode: (() => Bytes) | undefined, range?: KeyRange, replaced?: { readonly value: unknown }): void {
  const kv = txn.kv;
  if (!kv) return;
  const bytes = encode?.();
  const state = txn.catalog;
  if (!state) throw new Error("a definition was written in a transaction that did not read the catalog version");
  const { st, listener } = state;
  // two transactions that both bump the version from the one they read must not both commit
  if (st.bumped === undefined) kv.track?.(VERSION_RANGE);
  // set on every write, so a statement rolled back to its save point cannot take the bump with it
  kv.set(VERSION_KEY, (st.bumped ??= encodeVersion(st.version + 1)));
  if (range) {
    kv.deleteRange(range);
    st.ranges.push(range);
  }
  if (bytes) kv.set(key, bytes);
  else kv.delete(key);
  const k = keyString(key);
  st.writes.set(k, bytes);
  if (replaced && !st.before.has(k)) st.before.set(k, { seq: ++writeSeq, value: replaced.value });
  if (!st.hooked) {
    st.hooked = true;
    listener.opened(st);
    txn.onCommit(() => listener.committed(st));
    txn.onCancel(() => {
      st.hooked = false;
      listener.closed(st);
    });
  }
}
