// The identity book: which deletions it remembers, cancelled deletions, and its memory bound (fail-closed floor).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import { FileStore } from "../../src/store/kv/file.js";
import { IdentityLifetimes, TrackedRecordStore } from "../../src/exec/lifetimes.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import { KvRecordStore } from "../../src/store/records.js";
import { Transaction } from "../../src/store/transaction.js";
import { RecordId } from "../../src/value/types.js";

function setup(maxEnds?: number) {
  let ms = 1_000_000;
  const kv = new MemoryStore();
  const begin = async () => new Transaction(await kv.begin("write"));
  const inner = new KvRecordStore();
  const book = new IdentityLifetimes(inner, { now: () => ms }, maxEnds, begin);
  const store = new TrackedRecordStore(inner, book);
  /** Each write in its own committed transaction (or in `txn`, left open). */
  const inTxn = async (write: (t: Transaction) => Promise<void>, txn?: Transaction) => {
    const t = txn ?? (await begin());
    await write(t);
    if (!txn) await t.commit();
  };
  const put = (rid: RecordId) => inTxn((t) => store.put(t, { ns: "n", db: "d", tb: rid.table }, rid, { id: rid }));
  const del = (rid: RecordId, txn?: Transaction) => inTxn((t) => store.delete(t, { ns: "n", db: "d", tb: rid.table }, rid), txn);
  return { book, store, inner, put, del, begin, inTxn, tick: () => (ms += 1000) };
}

const user = (id: string) => new RecordId("user", id);

describe("IdentityLifetimes", () => {
  it("remembers deletions only in watched tables, and only of records that existed", async () => {
    const { book, put, del } = setup();
    await put(user("a"));
    await put(new RecordId("note", "1"));
    await del(user("a"));
    expect(book.endedAt("n", "d", user("a"))).toBeUndefined();
    const since = book.watch("n", "d", user("b"));
    await put(user("a"));
    await del(user("a"));
    await del(user("ghost"));
    await del(new RecordId("note", "1"));
    expect(book.endedAt("n", "d", user("a"))?.seq).toBeGreaterThan(since);
    expect(book.endedAt("n", "d", user("ghost"))).toBeUndefined();
    expect(book.endedAt("n", "d", new RecordId("note", "1"))).toBeUndefined();
    expect(await book.exists("n", "d", user("a"))).toBe(false);
  });

  it("a cancelled deletion is forgotten; a removed table or database ends every id in it", async () => {
    const { book, store, put, del, begin } = setup();
    book.watch("n", "d", user("a"));
    await put(user("a"));
    const txn = await begin();
    await del(user("a"), txn);
    await txn.cancel();
    expect(book.endedAt("n", "d", user("a"))).toBeUndefined();
    expect(await book.exists("n", "d", user("a"))).toBe(true);
    await store.clear(await begin(), { ns: "n", db: "d" });
    expect(book.endedAt("n", "d", user("zzz"))).toBeDefined();
    expect(book.endedAt("n", "other", user("zzz"))).toBeUndefined();
  });

  it("past its bound the oldest ends are forgotten and raise the floor: older identities end, newer ones live", async () => {
    const { book, put, del, tick } = setup(3);
    book.watch("n", "d", user("x"));
    const early = book.watch("n", "d", user("x"));
    for (const id of ["a", "b", "c", "d"]) {
      await put(user(id));
      tick();
      await del(user(id));
    }
    const late = book.watch("n", "d", user("x"));
    // "a" was forgotten: its end is now the floor, which every id (even one never deleted) reports
    const floor = book.endedAt("n", "d", user("never"));
    expect(floor).toBeDefined();
    expect(floor!.seq).toBeGreaterThan(early);
    expect(floor!.seq).toBeLessThanOrEqual(late);
    expect(book.endedAt("n", "d", user("d"))!.seq).toBe(late);
  });

  it("trusts a record seen to exist for a second while no end of it was recorded; a deletion here ends it at once", async () => {
    const { book, inner, put, del, inTxn, tick } = setup();
    book.watch("n", "d", user("a"));
    await put(user("a"));
    await put(user("b"));
    expect(await book.exists("n", "d", user("a"))).toBe(true);
    expect(await book.exists("n", "d", user("b"))).toBe(true);
    // deleted where this book does not see it (another node): still trusted within the second, read again after it
    await inTxn((t) => inner.delete(t, { ns: "n", db: "d", tb: "user" }, user("a")));
    expect(await book.exists("n", "d", user("a"))).toBe(true);
    tick();
    expect(await book.exists("n", "d", user("a"))).toBe(false);
    // deleted here: the recorded end voids the trust at once
    await del(user("b"));
    expect(await book.exists("n", "d", user("b"))).toBe(false);
  });
});

const SCHEMA = { 1: "examples/schema-v1.surql", 2: "examples/schema-v2.surql" } as const;

// Attack pass 5, C1: the book's ends are stored with the deletion, so a restart (or another node) still refuses a
// token issued for a deleted record once the same id is created again.
describe("identity ends outlive the process (file: store)", () => {
  for (const compat of [1, 2] as const) {
    for (const when of ["before", "after"] as const) {
      it(`a deleted record user's token stays refused after a restart, the record deleted ${when} it and re-created after (compat ${compat})`, async () => {
        const dir = mkdtempSync(join(tmpdir(), "ends-"));
        const start = async () => {
          const storage = await FileStore.open(join(dir, "data"));
          return { storage, db: await SurqlAuth.open({ compat, storage, root: { user: "root", pass: "root" }, import: [SCHEMA[compat]] }) };
        };
        try {
          let { storage, db } = await start();
          const ac = compat === 1 ? { SC: "account" } : { AC: "account" };
          const token = await db.connect().signup({ NS: "app", DB: "app", ...ac, name: "Mal", email: "mal@example.com", password: "pw" });
          const mal = db.connect();
          await mal.authenticate(token);
          const [me] = await mal.query("RETURN $auth.id");
          const id = me!.result as RecordId;
          const root = async () => {
            const r = db.connect({ ns: "app", db: "app" });
            await r.signin({ user: "root", pass: "root" });
            return r;
          };
          if (when === "before") await (await root()).query("DELETE $id", { id });
          // the deletion must be on disk before the restart (a commit is acknowledged once written)
          await storage.close();
          ({ storage, db } = await start());
          if (when === "after") {
            // a signin on the restarted node watches the table again only through the stored mark
            await (await root()).query("DELETE $id", { id });
          }
          const [created] = await (await root()).query("CREATE $id SET email = 'victim@example.com', name = 'Victim', password = 'x'", { id });
          expect(created!.result).toEqual([expect.objectContaining({ email: "victim@example.com" })]);
          await expect(db.connect().authenticate(token)).rejects.toThrow("There was a problem with authentication");
          await storage.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
