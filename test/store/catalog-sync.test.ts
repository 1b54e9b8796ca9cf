// store/: definitions written through a transaction land in the store with a version bump; another node's snapshot
// reloads what changed (keeping unchanged objects), a restart loads everything, a cancelled transaction leaves no trace.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineFieldStatement, DefineTableStatement, DefineUserStatement } from "../../src/ast/nodes.js";
import type { DefinitionChange, StoredUser } from "../../src/exec/contract.js";
import { decodeVersion } from "../../src/store/catalog-journal.js";
import { VERSION_KEY, subtree } from "../../src/store/catalog-keys.js";
import { SyncedCatalog } from "../../src/store/catalog-sync.js";
import { deleteIn, newDatabaseEntry, newNamespaceEntry, newTableEntry, putIn, redefine } from "../../src/store/catalog.js";
import { Transaction } from "../../src/store/transaction.js";
import { catalogEntries, catalogSnapshot, withoutPositions } from "./catalog-helpers.js";
import { keyString } from "../../src/store/kv/bytes.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import type { Entry, KeyRange, KvStore, KvTransaction } from "../../src/store/kv/types.js";

/** h-kv's memory backend, counting the scans its transactions run. */
class CountingStore extends MemoryStore {
  scans = 0;
  override async begin(mode: "read" | "write"): Promise<KvTransaction> {
    const t = await super.begin(mode);
    const scan = t.scan.bind(t);
    t.scan = (range: KeyRange, options?: object) => {
      this.scans++;
      return scan(range, options);
    };
    return t;
  }
}

/** Every key (as text) and value in `range`. */
async function contents(store: KvStore, range: KeyRange = { start: Uint8Array.of(0), end: Uint8Array.of(0xff) }): Promise<Map<string, Uint8Array>> {
  const t = await store.begin("read");
  const out = new Map<string, Uint8Array>();
  for await (const batch of t.scan(range)) for (const [k, v] of batch as Entry[]) out.set(keyString(k), v);
  await t.cancel();
  return out;
}

const def = <T>(text: string): T => parse(text)[0] as T;
const user = (name: string, code: string): StoredUser => ({ def: def<DefineUserStatement>(`DEFINE USER ${name} ON ROOT PASSHASH 'h' ROLES OWNER`), code });

/** One transaction on `cat` against `store`: sync, write, commit (or cancel). */
async function txn(store: CountingStore, cat: SyncedCatalog, write: (t: Transaction) => void, cancel = false): Promise<void> {
  const kv = await store.begin("write");
  const t = new Transaction(kv, Infinity, await cat.sync(kv));
  write(t);
  // the engine's Transaction commits (or cancels) its KV transaction itself
  if (cancel) await t.cancel();
  else await t.commit();
}

const sync = (store: CountingStore, cat: SyncedCatalog) => txn(store, cat, () => {});

/** ns `n`, db `d`, table `t` with field `a` on `cat`. */
function schema(t: Transaction, cat: SyncedCatalog): void {
  putIn(t, cat.namespaces, "n", newNamespaceEntry(def("DEFINE NAMESPACE n")));
  const db = newDatabaseEntry("n", def("DEFINE DATABASE d"));
  putIn(t, cat.ns("n")!.databases, "d", db);
  putIn(t, db.tables, "t", newTableEntry("n", "d", def("DEFINE TABLE t SCHEMAFULL")));
  putIn(t, db.tables.get("t")!.fields, "a", def<DefineFieldStatement>("DEFINE FIELD a ON t TYPE int"));
}

describe("SyncedCatalog", () => {
  it("writes each definition and bumps the version in the same transaction; another node reloads it", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    const b = new SyncedCatalog();
    await sync(store, b);
    await txn(store, a, (t) => schema(t, a));
    expect(decodeVersion((await contents(store)).get(keyString(VERSION_KEY)))).toBe(1);
    expect(a.version).toBe(1);
    expect(b.table("n", "d", "t")).toBeUndefined();
    await sync(store, b);
    expect(b.version).toBe(1);
    expect(b.table("n", "d", "t")!.def.schemafull).toBe(true);
    expect(b.table("n", "d", "t")!.fields.get("a")).toStrictEqual(withoutPositions(a.table("n", "d", "t")!.fields.get("a")));
  });

  it("keeps the objects of unchanged definitions on reload and tells of changed users and accesses", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    const changes: DefinitionChange[] = [];
    const b = new SyncedCatalog((c) => changes.push(c));
    await txn(store, a, (t) => {
      schema(t, a);
      putIn(t, a.rootUsers, "root", user("root", "c1"));
    });
    await sync(store, b);
    const [u, table] = [b.rootUsers.get("root"), b.table("n", "d", "t")];
    expect(changes).toEqual([{ kind: "user", base: "ROOT", ns: undefined, db: undefined, name: "root" }]);
    // another definition changes: these stay the same objects
    await txn(store, a, (t) => putIn(t, a.table("n", "d", "t")!.fields, "b", def<DefineFieldStatement>("DEFINE FIELD b ON t")));
    await sync(store, b);
    expect(b.rootUsers.get("root")).toBe(u);
    expect(b.table("n", "d", "t")).toBe(table);
    expect(table!.fields.has("b")).toBe(true);
    // the user is redefined: a new object, and listeners hear of it
    await txn(store, a, (t) => putIn(t, a.rootUsers, "root", user("root", "c2")));
    await sync(store, b);
    expect(b.rootUsers.get("root")).not.toBe(u);
    expect(b.rootUsers.get("root")!.code).toBe("c2");
    expect(changes).toHaveLength(2);
  });

  it("does not reload after its own commit", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    await txn(store, a, (t) => schema(t, a));
    const scans = store.scans;
    await sync(store, a);
    expect(store.scans).toBe(scans);
  });

  it("removes a table with everything under it, in memory and in the store", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    const b = new SyncedCatalog();
    await txn(store, a, (t) => schema(t, a));
    await sync(store, b);
    await txn(store, a, (t) => deleteIn(t, a.db("n", "d")!.tables, "t"));
    expect((await contents(store, subtree({ ns: "n", db: "d", tb: "t" }))).size).toBe(0);
    await sync(store, b);
    expect(b.table("n", "d", "t")).toBeUndefined();
    expect(b.db("n", "d")).toBeDefined();
  });

  it("redefines a table in place: its fields stay", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    const b = new SyncedCatalog();
    await txn(store, a, (t) => schema(t, a));
    await sync(store, b);
    const entry = b.table("n", "d", "t");
    await txn(store, a, (t) => redefine(t, a.db("n", "d")!.tables, "t", def<DefineTableStatement>("DEFINE TABLE t SCHEMALESS")));
    await sync(store, b);
    expect(b.table("n", "d", "t")).toBe(entry);
    expect(entry!.def.schemafull).toBe(false);
    expect(entry!.fields.has("a")).toBe(true);
  });

  it("leaves store and memory unchanged when the transaction is cancelled", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    await txn(store, a, (t) => schema(t, a));
    const before = await contents(store);
    await txn(store, a, (t) => {
      putIn(t, a.rootUsers, "x", user("x", "c"));
      deleteIn(t, a.ns("n")!.databases, "d");
    }, true);
    expect(await contents(store)).toEqual(before);
    expect(a.rootUsers.has("x")).toBe(false);
    expect(a.db("n", "d")).toBeDefined();
    await sync(store, a);
    expect(a.version).toBe(1);
  });

  it("takes from the store what a failed transaction's undo restored over a concurrent commit", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    await txn(store, a, (t) => putIn(t, a.rootUsers, "x", user("x", "original")));
    const [k1, k2] = [await store.begin("write"), await store.begin("write")];
    const [t1, t2] = [new Transaction(k1, Infinity, await a.sync(k1)), new Transaction(k2, Infinity, await a.sync(k2))];
    putIn(t2, a.rootUsers, "x", user("x", "second"));
    putIn(t1, a.rootUsers, "x", user("x", "first"));
    await t1.commit();
    // the second read the version the first changed: its commit fails and its undo puts back what it saw
    await expect(t2.commit()).rejects.toThrow();
    expect(a.rootUsers.get("x")!.code).toBe("original");
    await sync(store, a);
    expect(a.rootUsers.get("x")!.code).toBe("first");
  });

  it("a cancelled transaction's keys reload from the store without replacing the objects its undo put back (F6)", async () => {
    const store = new CountingStore();
    const [a, b] = [new SyncedCatalog(), new SyncedCatalog()];
    await txn(store, a, (t) => {
      schema(t, a);
      putIn(t, a.rootUsers, "x", user("x", "kept"));
      putIn(t, a.ns("n")!.users, "y", user("y", "kept"));
    });
    const [x, y] = [a.rootUsers.get("x"), a.ns("n")!.users.get("y")];
    await txn(store, a, (t) => {
      putIn(t, a.rootUsers, "x", user("x", "cancelled"));
      deleteIn(t, a.ns("n")!.users, "y");
    }, true);
    await sync(store, a);
    // the same objects: a session standing on them goes on
    expect(a.rootUsers.get("x")).toBe(x);
    expect(a.ns("n")!.users.get("y")).toBe(y);
    // another node's committed change still replaces the object
    await sync(store, b);
    await txn(store, b, (t) => putIn(t, b.rootUsers, "x", user("x", "other node")));
    await sync(store, a);
    expect(a.rootUsers.get("x")!.code).toBe("other node");
  });

  it("committedDefinition: while a transaction is open, the user / access it replaced or removed (or whose database it removed) is the committed one", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    await txn(store, a, (t) => {
      schema(t, a);
      putIn(t, a.db("n", "d")!.users, "u", user("u", "c1"));
    });
    const u = a.db("n", "d")!.users.get("u");
    const committed = () => a.committedDefinition("user", "DATABASE", "n", "d", "u");
    const kv = await store.begin("write");
    const t = new Transaction(kv, Infinity, await a.sync(kv));
    putIn(t, a.db("n", "d")!.users, "u", user("u", "c2"));
    expect(a.getUser("DATABASE", "n", "d", "u")).not.toBe(u);
    expect(committed()).toBe(u);
    // the database goes, then comes back empty: the earliest write on the path still holds the committed user
    deleteIn(t, a.ns("n")!.databases, "d");
    putIn(t, a.ns("n")!.databases, "d", newDatabaseEntry("n", def("DEFINE DATABASE d")));
    expect(a.getUser("DATABASE", "n", "d", "u")).toBeUndefined();
    expect(committed()).toBe(u);
    await t.commit();
    // committed: the removal is what stands
    expect(committed()).toBeUndefined();
  });

  it("loads everything on a restart, generated secrets included", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    await txn(store, a, (t) => {
      schema(t, a);
      putIn(t, a.rootUsers, "root", user("root", "secret-code"));
    });
    const restarted = new SyncedCatalog();
    await sync(store, restarted);
    expect([...catalogEntries(restarted)]).toStrictEqual(withoutPositions([...catalogEntries(a)]));
    expect(restarted.rootUsers.get("root")!.code).toBe("secret-code");
  });

  it("refuses a definition written in a transaction that never read the version", async () => {
    const store = new CountingStore();
    const a = new SyncedCatalog();
    const t = new Transaction(await store.begin("write"));
    expect(() => putIn(t, a.rootUsers, "u", user("u", "c"))).toThrow(/did not read the catalog version/);
  });
});

describe("SyncedCatalog (property)", () => {
  type Op = { kind: "ns" | "db" | "tb" | "fd" | "us"; path: [number, number, number]; name: number; remove: boolean; cancel: boolean; syncB: boolean };
  const op: fc.Arbitrary<Op> = fc.record({
    kind: fc.constantFrom("ns", "db", "tb", "fd", "us"),
    path: fc.tuple(fc.nat(1), fc.nat(1), fc.nat(1)),
    name: fc.nat(2),
    remove: fc.boolean(),
    cancel: fc.boolean(),
    syncB: fc.boolean(),
  });

  /** Applies `o` to `cat` where its parents exist (a no-op otherwise). */
  function apply(t: Transaction, cat: SyncedCatalog, o: Op, n: number): void {
    const [ns, db, tb] = o.path.map((i) => `n${i}`) as [string, string, string];
    const name = `n${o.name}`;
    if (o.kind === "ns") {
      if (o.remove) deleteIn(t, cat.namespaces, name);
      else if (cat.ns(name)) redefine(t, cat.namespaces, name, def(`DEFINE NAMESPACE ${name} COMMENT 'v${n}'`));
      else putIn(t, cat.namespaces, name, newNamespaceEntry(def(`DEFINE NAMESPACE ${name}`)));
    } else if (o.kind === "db") {
      const map = cat.ns(ns)?.databases;
      if (!map) return;
      if (o.remove) deleteIn(t, map, name);
      else if (!map.has(name)) putIn(t, map, name, newDatabaseEntry(ns, def(`DEFINE DATABASE ${name}`)));
    } else if (o.kind === "tb") {
      const map = cat.db(ns, db)?.tables;
      if (!map) return;
      if (o.remove) deleteIn(t, map, name);
      else if (map.has(name)) redefine(t, map, name, def<DefineTableStatement>(`DEFINE TABLE ${name} COMMENT 'v${n}'`));
      else putIn(t, map, name, newTableEntry(ns, db, def(`DEFINE TABLE ${name}`)));
    } else if (o.kind === "fd") {
      const map = cat.table(ns, db, tb)?.fields;
      if (!map) return;
      if (o.remove) deleteIn(t, map, name);
      else putIn(t, map, name, def<DefineFieldStatement>(`DEFINE FIELD ${name} ON ${tb} COMMENT 'v${n}'`));
    } else {
      const map = o.path[0] === 0 ? cat.rootUsers : cat.ns(ns)?.users;
      if (!map) return;
      if (o.remove) deleteIn(t, map, name);
      else putIn(t, map, name, user(name, `code${n}`));
    }
  }

  it("another node and a restarted one end with what the writer has, whatever the order of changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { maxLength: 12 }), async (txns) => {
        const store = new CountingStore();
        const [a, b] = [new SyncedCatalog(), new SyncedCatalog()];
        let n = 0;
        for (const ops of txns) {
          await txn(store, a, (t) => ops.forEach((o) => apply(t, a, o, n++)), ops[0]!.cancel);
          if (ops[0]!.syncB) await sync(store, b);
        }
        await sync(store, a);
        await sync(store, b);
        const restarted = new SyncedCatalog();
        await sync(store, restarted);
        const want = catalogSnapshot(a);
        expect(catalogSnapshot(b)).toStrictEqual(want);
        expect(catalogSnapshot(restarted)).toStrictEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it("committedDefinition gives the user object of the last commit at every step of an open transaction, and after a cancel the same object stays (F6)", async () => {
    const names = ["n0", "n1", "n2"];
    /** Every user [base, ns, name] the ops can reach, and what memory or committedDefinition holds there. */
    const slots = names.flatMap((name) => [["ROOT", undefined, name] as const, ...["n0", "n1"].map((ns) => ["NAMESPACE", ns, name] as const)]);
    const live = (cat: SyncedCatalog) => slots.map(([base, ns, name]) => cat.getUser(base, ns, undefined, name));
    const committed = (cat: SyncedCatalog) => slots.map(([base, ns, name]) => cat.committedDefinition("user", base, ns, undefined, name));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 5 }), { maxLength: 10 }), async (txns) => {
        const store = new CountingStore();
        const a = new SyncedCatalog();
        let n = 0;
        for (const ops of txns) {
          const kv = await store.begin("write");
          const t = new Transaction(kv, Infinity, await a.sync(kv));
          const last = live(a);
          for (const o of ops) {
            apply(t, a, o, n++);
            committed(a).forEach((c, i) => expect(c).toBe(last[i]));
          }
          if (ops[0]!.cancel) await t.cancel();
          else await t.commit();
          await sync(store, a);
          committed(a).forEach((c, i) => expect(c).toBe(live(a)[i]));
          if (ops[0]!.cancel) live(a).forEach((c, i) => expect(c).toBe(last[i]));
        }
      }),
      { numRuns: 150 },
    );
  });
});
