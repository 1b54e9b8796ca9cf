// store/: records and index entries as KV entries — transactions, key order of scans and ranges, edge keys, clears.

import { describe, expect, it } from "vitest";
import { Catalog, deleteIn, putIn } from "../../src/store/catalog.js";
import { KvIndexStore } from "../../src/store/indexes.js";
import { compareRecordKeys, valueKey } from "../../src/store/keys.js";
import { indexEntryKey, indexRange } from "../../src/store/kv/keys.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import { KvRecordStore, isEdge, scanAll } from "../../src/store/records.js";
import { Transaction } from "../../src/store/transaction.js";
import { RecordId, RecordIdRange, Uuid } from "../../src/value/types.js";

const T = { ns: "n", db: "d", tb: "t" };
const rid = (k: bigint | string) => new RecordId("t", k);

function setup() {
  const kv = new MemoryStore();
  const begin = async () => new Transaction(await kv.begin("write"));
  return { begin, store: new KvRecordStore(), ix: new KvIndexStore() };
}

describe("KvRecordStore", () => {
  it("a transaction reads its own writes; a cancelled one leaves the committed records, save points roll back", async () => {
    const { begin, store } = setup();
    const setupTxn = await begin();
    await store.put(setupTxn, T, rid(1n), { id: rid(1n), a: 1n });
    await setupTxn.commit();
    const txn = await begin();
    await store.put(txn, T, rid(1n), { id: rid(1n), a: 2n });
    const mark = txn.savepoint();
    await store.put(txn, T, rid(2n), { id: rid(2n) });
    await store.delete(txn, T, rid(1n));
    expect(await store.get(txn, T, rid(1n))).toBeUndefined();
    txn.rollbackTo(mark);
    expect(await store.get(txn, T, rid(1n))).toEqual({ id: rid(1n), a: 2n });
    expect(await store.get(txn, T, rid(2n))).toBeUndefined();
    await txn.cancel();
    const after = await begin();
    expect(await store.get(after, T, rid(1n))).toEqual({ id: rid(1n), a: 1n });
    expect(await store.get(after, T, rid(2n))).toBeUndefined();
  });

  it("scans in SurrealDB's key order (numbers, strings, uuids, arrays) and record-id ranges as key ranges", async () => {
    const { begin, store } = setup();
    const txn = await begin();
    const keys = [["x"], "b", new Uuid("00000000-0000-0000-0000-000000000001"), 10n, "a", 2n, 3n];
    for (const k of keys) await store.put(txn, T, new RecordId("t", k as never), { id: new RecordId("t", k as never) });
    expect((await scanAll(store, txn, T)).map((r) => r.id.id)).toEqual([2n, 3n, 10n, "a", "b", new Uuid("00000000-0000-0000-0000-000000000001"), ["x"]]);
    const ids = async (r: RecordIdRange) => (await scanAll(store, txn, T, r)).map((x) => x.id.id);
    expect(await ids(new RecordIdRange({ value: 2n, inclusive: false }, { value: 10n, inclusive: true }))).toEqual([3n, 10n]);
    expect(await ids(new RecordIdRange({ value: 2n, inclusive: true }, { value: 10n, inclusive: false }))).toEqual([2n, 3n]);
    expect(await ids(new RecordIdRange({ value: "a", inclusive: true }, undefined))).toEqual(["a", "b", new Uuid("00000000-0000-0000-0000-000000000001"), ["x"]]);
    expect(await ids(new RecordIdRange(undefined, { value: 3n, inclusive: true }))).toEqual([2n, 3n]);
  });

  it("keeps an edge key under each node an edge's in / out names, and moves it when they change", async () => {
    const { begin, store } = setup();
    const txn = await begin();
    const a = new RecordId("person", "a");
    const b = new RecordId("person", "b");
    const e = new RecordId("likes", 1n);
    const L = { ns: "n", db: "d", tb: "likes" };
    const P = { ns: "n", db: "d", tb: "person" };
    await store.put(txn, L, e, { id: e, in: a, out: b }, true);
    expect(await store.edges(txn, P, a, "out", "likes")).toEqual([e]);
    expect(await store.edges(txn, P, b, "in", "likes")).toEqual([e]);
    expect(await store.edges(txn, P, a, "in", "likes")).toEqual([]);
    expect(await store.edges(txn, P, a, "out", "other")).toEqual([]);
    await store.put(txn, L, e, { id: e, in: b, out: a }, true);
    expect(await store.edges(txn, P, a, "out", "likes")).toEqual([]);
    expect(await store.edges(txn, P, b, "out", "likes")).toEqual([e]);
    await store.delete(txn, L, e);
    expect(await store.edges(txn, P, b, "out", "likes")).toEqual([]);
  });

  it("marks an edge as such on read (isEdge), and gives a record that is none no edge key, its ends as they may be", async () => {
    const { begin, store } = setup();
    const txn = await begin();
    const [a, b, e, f] = [new RecordId("person", "a"), new RecordId("person", "b"), new RecordId("likes", 1n), new RecordId("likes", 2n)];
    const L = { ns: "n", db: "d", tb: "likes" };
    await store.put(txn, L, e, { id: e, in: a, out: b }, true);
    await store.put(txn, L, f, { id: f, in: a, out: b });
    expect(await store.edges(txn, { ns: "n", db: "d", tb: "person" }, a, "out", "likes")).toEqual([e]);
    await txn.commit();
    // a store of its own decodes the bytes again (no document object shared with the writer)
    const read = await begin();
    const reader = new KvRecordStore();
    expect([isEdge(await reader.get(read, L, e)), isEdge(await reader.get(read, L, f))]).toEqual([true, false]);
  });

  it("clears a table, a database or a namespace, undoably", async () => {
    const { begin, store } = setup();
    const txn = await begin();
    await store.put(txn, T, rid(1n), { id: rid(1n) });
    await store.put(txn, { ns: "n", db: "d", tb: "u" }, new RecordId("u", 1n), { id: new RecordId("u", 1n) });
    await store.put(txn, { ns: "n", db: "e", tb: "t" }, rid(1n), { id: rid(1n) });
    await txn.commit();
    const drop = await begin();
    await store.clear(drop, { ns: "n", db: "d" });
    expect(await scanAll(store, drop, T)).toEqual([]);
    expect(await scanAll(store, drop, { ns: "n", db: "e", tb: "t" })).toHaveLength(1);
    await drop.cancel();
    expect(await scanAll(store, await begin(), T)).toHaveLength(1);
  });
});

describe("KvIndexStore", () => {
  it("looks up records by indexed values, lists entries grouped in key order, forgets removed entries", async () => {
    const { begin, ix } = setup();
    const txn = await begin();
    await ix.add(txn, T, "email", ["a@b.c"], rid(2n));
    await ix.add(txn, T, "email", ["a@b.c"], rid(1n));
    await ix.add(txn, T, "email", ["0@b.c"], rid(3n));
    expect(await ix.lookup(txn, T, "email", ["a@b.c"])).toEqual([rid(1n), rid(2n)]);
    expect(await ix.entries(txn, T, "email", 1)).toEqual([
      { values: ["0@b.c"], ids: [rid(3n)] },
      { values: ["a@b.c"], ids: [rid(1n), rid(2n)] },
    ]);
    await ix.remove(txn, T, "email", ["a@b.c"], rid(1n));
    expect(await ix.lookup(txn, T, "email", ["a@b.c"])).toEqual([rid(2n)]);
    await ix.clear(txn, T, "email");
    expect(await ix.lookup(txn, T, "email", ["0@b.c"])).toEqual([]);
  });

  it("writes keys.ts's index entry layout (the prefix encoded once, then values and record id)", async () => {
    const { begin, ix } = setup();
    const txn = await begin();
    await ix.add(txn, T, "pair", ["a", 2n], rid("x"));
    const keys: Uint8Array[] = [];
    for await (const batch of txn.kv!.scan(indexRange("n", "d", "t", "pair"))) for (const [k] of batch) keys.push(k);
    expect(keys.map((k) => Buffer.from(k).toString("hex"))).toEqual([Buffer.from(indexEntryKey("n", "d", "t", "pair", ["a", 2n], "x")).toString("hex")]);
  });

  it("keeps number kinds apart in entries (1 and 1.0 are two), as SurrealDB's index keys do", async () => {
    const { begin, ix } = setup();
    const txn = await begin();
    await ix.add(txn, T, "n", [1n], rid(1n));
    await ix.add(txn, T, "n", [1], rid(2n));
    expect(await ix.lookup(txn, T, "n", [1n])).toEqual([rid(1n)]);
    expect(await ix.lookup(txn, T, "n", [1])).toEqual([rid(2n)]);
    expect(valueKey(1n)).toBe(valueKey(1));
    expect(compareRecordKeys(2n, 10n)).toBeLessThan(0);
  });
});

describe("Catalog", () => {
  it("undoes putIn / deleteIn of a cancelled transaction", async () => {
    const c = new Catalog();
    const txn = new Transaction();
    putIn(txn, c.rootUsers, "u", { def: {} as never, code: "x" });
    expect(c.getUser("ROOT", undefined, undefined, "u")).toBeDefined();
    await txn.cancel();
    expect(c.getUser("ROOT", undefined, undefined, "u")).toBeUndefined();
    const t2 = new Transaction();
    putIn(t2, c.rootUsers, "u", { def: {} as never, code: "y" });
    await t2.commit();
    const t3 = new Transaction();
    deleteIn(t3, c.rootUsers, "u");
    await t3.cancel();
    expect(c.getUser("ROOT", undefined, undefined, "u")?.code).toBe("y");
  });

  it("finds nothing on levels that do not exist", () => {
    const c = new Catalog();
    expect(c.getUser("NAMESPACE", "nope", undefined, "u")).toBeUndefined();
    expect(c.getAccess("DATABASE", "n", "d", "a")).toBeUndefined();
  });
});
