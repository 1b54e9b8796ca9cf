// store/: undo-log transactions over records, indexes and the catalog; key order of scans.

import { describe, expect, it } from "vitest";
import { Catalog, deleteIn, putIn } from "../../src/store/catalog.js";
import { MemoryIndexStore } from "../../src/store/indexes.js";
import { compareRecordKeys, valueKey } from "../../src/store/keys.js";
import { MemoryRecordStore, scanAll } from "../../src/store/records.js";
import { Transaction } from "../../src/store/transaction.js";
import { RecordId, Uuid } from "../../src/value/types.js";

const T = { ns: "n", db: "d", tb: "t" };

describe("MemoryRecordStore", () => {
  it("undoes puts and deletes of a cancelled transaction, in reverse order", async () => {
    const store = new MemoryRecordStore();
    const setup = new Transaction();
    await store.put(setup, T, new RecordId("t", 1n), { id: new RecordId("t", 1n), a: 1n });
    await setup.commit();
    const txn = new Transaction();
    await store.put(txn, T, new RecordId("t", 1n), { id: new RecordId("t", 1n), a: 2n });
    await store.put(txn, T, new RecordId("t", 1n), { id: new RecordId("t", 1n), a: 3n });
    await store.put(txn, T, new RecordId("t", 2n), { id: new RecordId("t", 2n) });
    await store.delete(txn, T, new RecordId("t", 1n));
    expect(await store.get(txn, T, new RecordId("t", 1n))).toBeUndefined();
    await txn.cancel();
    expect(await store.get(txn, T, new RecordId("t", 1n))).toEqual({ id: new RecordId("t", 1n), a: 1n });
    expect(await store.get(txn, T, new RecordId("t", 2n))).toBeUndefined();
  });

  it("scans in SurrealDB's key order: numbers, strings, uuids, arrays", async () => {
    const store = new MemoryRecordStore();
    const txn = new Transaction();
    const keys = [["x"], "b", new Uuid("00000000-0000-0000-0000-000000000001"), 10n, "a", 2n];
    for (const k of keys) store.put(txn, T, new RecordId("t", k as never), {});
    expect((await scanAll(store, txn, T)).map((r) => r.id.id)).toEqual([2n, 10n, "a", "b", new Uuid("00000000-0000-0000-0000-000000000001"), ["x"]]);
  });

  it("clears a table, a database or a namespace, undoably", async () => {
    const store = new MemoryRecordStore();
    const txn = new Transaction();
    await store.put(txn, T, new RecordId("t", 1n), {});
    await store.put(txn, { ns: "n", db: "d", tb: "u" }, new RecordId("u", 1n), {});
    await store.put(txn, { ns: "n", db: "e", tb: "t" }, new RecordId("t", 1n), {});
    await txn.commit();
    const drop = new Transaction();
    await store.clear(drop, { ns: "n", db: "d" });
    expect(await scanAll(store, txn, T)).toEqual([]);
    expect(await scanAll(store, txn, { ns: "n", db: "e", tb: "t" })).toHaveLength(1);
    await drop.cancel();
    expect(await scanAll(store, txn, T)).toHaveLength(1);
  });
});

describe("MemoryIndexStore", () => {
  it("looks up records by indexed values and forgets removed entries", async () => {
    const ix = new MemoryIndexStore();
    const txn = new Transaction();
    await ix.add(txn, T, "email", ["a@b.c"], new RecordId("t", 1n));
    await ix.add(txn, T, "email", ["a@b.c"], new RecordId("t", 2n));
    expect(await ix.lookup(txn, T, "email", ["a@b.c"])).toEqual([new RecordId("t", 1n), new RecordId("t", 2n)]);
    await ix.remove(txn, T, "email", ["a@b.c"], new RecordId("t", 1n));
    expect(await ix.lookup(txn, T, "email", ["a@b.c"])).toEqual([new RecordId("t", 2n)]);
    await txn.cancel();
    expect(await ix.lookup(txn, T, "email", ["a@b.c"])).toEqual([]);
  });

  it("treats 1 (int) and 1.0 (float) as the same key, strings apart", async () => {
    expect(valueKey(1n)).toBe(valueKey(1));
    expect(valueKey("1")).not.toBe(valueKey(1n));
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

  it("finds nothing on levels that do not exist", async () => {
    const c = new Catalog();
    expect(c.getUser("NAMESPACE", "nope", undefined, "u")).toBeUndefined();
    expect(c.getAccess("DATABASE", "n", "d", "a")).toBeUndefined();
  });
});
