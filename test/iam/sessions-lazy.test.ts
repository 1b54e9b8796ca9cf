// iam/sessions.ts, issue #10 §5: registering writes nothing (authenticate's hot path); entries reach the store at the
// next sync. This node's list and kill see a session at once, another node's after that sync; a kill by identity on
// another node still ends a session registered here before it, at this node's next sync.

import { describe, expect, it } from "vitest";
import { SurqlAuth, type Connection } from "../../src/index.js";
import { stateRange } from "../../src/iam/sessions-keys.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import type { KvStore, KvTransaction, TransactionMode } from "../../src/store/kv/types.js";

const SCHEMA = `
  USE NS a DB a;
  DEFINE USER ann ON DATABASE PASSWORD 'pw' ROLES OWNER;
  DEFINE USER bob ON DATABASE PASSWORD 'pw' ROLES VIEWER;
  DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) DURATION FOR SESSION 1h;`;

/** A store that counts the write transactions begun on it. */
class CountingStore implements KvStore {
  writes = 0;
  constructor(readonly inner: KvStore) {}
  get kind(): string {
    return this.inner.kind;
  }
  begin(mode: TransactionMode): Promise<KvTransaction> {
    if (mode === "write") this.writes++;
    return this.inner.begin(mode);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const clock = () => ({ ms: 1_800_000_000_000, now(): number { return this.ms; } });

async function twoNodes() {
  const c = clock();
  const store = new CountingStore(new MemoryStore());
  const a = await SurqlAuth.open({ clock: c, storage: store, root: { user: "root", pass: "root" }, sessionSyncMs: 0 });
  await a.importText(SCHEMA);
  const b = await SurqlAuth.open({ clock: c, storage: store, sessionSyncMs: 0 });
  return { a, b, store, clock: c };
}

async function signedIn(db: SurqlAuth, creds: Record<string, string>): Promise<Connection> {
  const conn = db.connect();
  await conn.signin(creds);
  return conn;
}

/** The session entries in the store. */
async function storedEntries(store: KvStore): Promise<number> {
  const kv = await store.begin("read");
  let n = 0;
  for await (const batch of kv.scan(stateRange("ss"))) n += batch.length;
  await kv.cancel();
  return n;
}

describe("session registry, lazy registration", () => {
  it("an authenticate, first or cached, on a new connection or the same one, begins no write transaction", async () => {
    const { a, store } = await twoNodes();
    const token = await a.connect().signin({ NS: "a", DB: "a", user: "ann", pass: "pw" });
    const record = await a.connect().signup({ NS: "a", DB: "a", AC: "account", email: "r@x" });
    const conn = a.connect();
    await conn.authenticate(record); // the record's table is marked as holding identities once
    const before = store.writes;
    for (const t of [token, token, record, record]) {
      await conn.authenticate(t);
      await a.connect().authenticate(t);
    }
    expect(store.writes).toBe(before);
    expect((await a.sessions.list()).length).toBeGreaterThanOrEqual(2);
  });

  it("list and kill see a just-registered session on its node at once, on another node after the sync", async () => {
    const { a, b, store } = await twoNodes();
    const ann = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    expect(await storedEntries(store)).toBe(0);
    expect((await a.sessions.list()).map((e) => e.user)).toEqual(["ann"]);
    expect(await b.sessions.list()).toEqual([]);
    await a.sessions.sync();
    expect(await storedEntries(store)).toBe(1);
    expect((await b.sessions.list()).map((e) => e.user)).toEqual(["ann"]);
    // a kill by id on the other node, applied here at the next sync
    const [entry] = await b.sessions.list();
    expect(await b.sessions.kill({ id: entry!.id })).toHaveLength(1);
    await a.sessions.sync();
    await expect(ann.query("RETURN 1")).rejects.toThrow("The session has expired");
    // a kill on the same node reaches a session not written yet
    const bob = await signedIn(a, { NS: "a", DB: "a", user: "bob", pass: "pw" });
    expect((await a.sessions.kill({ user: "bob" })).map((e) => e.user)).toEqual(["bob"]);
    await expect(bob.query("RETURN 1")).rejects.toThrow("The session has expired");
    await a.sessions.sync();
    expect(await storedEntries(store)).toBe(0);
  });

  it("a kill by identity on another node ends a session registered here before it, not yet written", async () => {
    const { a, b, clock } = await twoNodes();
    const ann = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    clock.ms += 10;
    expect(await b.sessions.kill({ user: "ann" })).toEqual([]);
    await a.sessions.sync();
    await expect(ann.query("RETURN 1")).rejects.toThrow("The session has expired");
    expect(await b.sessions.list()).toEqual([]);
    // a session registered after the kill is not touched
    const again = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await a.sessions.sync();
    expect((await again.query("RETURN 1"))[0]!.result).toBe(1n);
    expect((await b.sessions.list()).map((e) => e.user)).toEqual(["ann"]);
  });

  it("a session closed before the sync is never written; one closed after leaves the store at the next sync", async () => {
    const { a, b, store } = await twoNodes();
    const first = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await first.close();
    const writes = store.writes;
    await a.sessions.sync();
    expect(await storedEntries(store)).toBe(0);
    expect(store.writes).toBe(writes + 1);
    const second = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await a.sessions.sync();
    await second.invalidate();
    // its node lists it no more at once; the store keeps it until the next sync
    expect(await a.sessions.list()).toEqual([]);
    expect((await b.sessions.list()).length).toBe(1);
    expect(await a.sessions.kill({ user: "ann" })).toEqual([]);
    await a.sessions.sync();
    expect(await storedEntries(store)).toBe(0);
  });
});
