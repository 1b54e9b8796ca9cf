// iam/sessions.ts: who may list and kill which sessions, what a filter matches, what ends an entry (invalidate,
// expiry, a new signin on the connection), and the sweep of a node gone silent — through the embedded API.

import { describe, expect, it } from "vitest";
import { SurqlAuth, type AuditEvent, type Connection } from "../../src/index.js";
import { NODE_SILENCE_MS, REVOKED_STALENESS_MS } from "../../src/iam/sessions.js";
import { newSession } from "../../src/exec/session.js";
import { MemoryStore } from "../../src/store/kv/memory.js";

const SCHEMA = `
  DEFINE USER rootv ON ROOT PASSWORD 'pw' ROLES VIEWER;
  USE NS a DB a;
  DEFINE USER ann ON DATABASE PASSWORD 'pw' ROLES OWNER;
  DEFINE USER nsa ON NAMESPACE PASSWORD 'pw' ROLES OWNER;
  DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) DURATION FOR SESSION 1h;
  USE NS b DB b;
  DEFINE USER ben ON DATABASE PASSWORD 'pw' ROLES OWNER;`;

async function open(clock = { now: () => 1_800_000_000_000 }, storage = new MemoryStore(), events: AuditEvent[] = []) {
  const db = await SurqlAuth.open({ clock, storage, root: { user: "root", pass: "root" }, sessionSyncMs: 0, audit: [(e) => events.push(e)] });
  await db.importText(SCHEMA);
  return db;
}

/** A fake clock the test moves by hand. */
const movable = () => ({ ms: 1_800_000_000_000, now(): number { return this.ms; } });

/** Two nodes on one store: `a` holds the schema, `b` joins it. */
async function twoNodes(clock: { now(): number }) {
  const store = new MemoryStore();
  return { a: await open(clock, store), b: await SurqlAuth.open({ clock, storage: store, sessionSyncMs: 0 }) };
}

async function signedIn(db: SurqlAuth, creds: Record<string, string>): Promise<Connection> {
  const c = db.connect();
  await c.signin(creds);
  return c;
}

describe("session registry", () => {
  it("a root owner sees every session; namespace and database owners theirs; others are refused", async () => {
    const db = await open();
    const ann = await signedIn(db, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    const nsa = await signedIn(db, { NS: "a", user: "nsa", pass: "pw" });
    const ben = await signedIn(db, { NS: "b", DB: "b", user: "ben", pass: "pw" });
    const rootv = await signedIn(db, { user: "rootv", pass: "pw" });
    await db.connect().signup({ NS: "a", DB: "a", AC: "account", email: "r@x" });
    const users = async (as?: Connection) => (await db.sessions.list("all", as)).map((e) => e.user).sort();
    expect(await users()).toEqual(["ann", "ben", "nsa", "rootv", expect.stringMatching(/^user:/)]);
    expect((await users(nsa)).some((u) => u.startsWith("user:"))).toBe(true);
    expect((await users(nsa)).filter((u) => !u.startsWith("user:"))).toEqual(["ann", "nsa"]);
    expect((await users(ann)).filter((u) => !u.startsWith("user:"))).toEqual(["ann"]);
    expect(await users(ben)).toEqual(["ben"]);
    await expect(db.sessions.list("all", rootv)).rejects.toThrow("IAM error: Not enough permissions to perform this action");
    await expect(db.sessions.kill("all", db.connect())).rejects.toThrow("IAM error: Not enough permissions to perform this action");
    // a database owner cannot kill another database's session
    expect(await db.sessions.kill({ user: "ben" }, ann)).toEqual([]);
    expect((await ben.query("RETURN 1"))[0]!.result).toBe(1n);
  });

  it("a filter matches on every field it names; an empty filter matches nothing; a kill is audited", async () => {
    const events: AuditEvent[] = [];
    const db = await open(undefined, undefined, events);
    await signedIn(db, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await signedIn(db, { NS: "b", DB: "b", user: "ben", pass: "pw" });
    expect(await db.sessions.list({})).toEqual([]);
    expect((await db.sessions.list({ ns: "b" })).map((e) => e.user)).toEqual(["ben"]);
    expect(await db.sessions.list({ ns: "b", user: "ann" })).toEqual([]);
    expect(await db.sessions.kill({})).toEqual([]);
    expect((await db.sessions.list()).length).toBe(2);
    const [killed] = await db.sessions.kill({ user: "ben" });
    expect(events.filter((e) => e.event === "session_killed")).toEqual([
      expect.objectContaining({ outcome: "success", reason: "killed", identity: "database", user: "ben", ns: "b", db: "b", killed: killed!.id, by: "surql-auth" }),
    ]);
  });

  it("invalidate, expiry and a new signin on the same connection end an entry; a killed session revives by signing in", async () => {
    let now = 1_800_000_000_000;
    const db = await open({ now: () => now });
    const a = db.connect();
    await a.signup({ NS: "a", DB: "a", AC: "account", email: "e@x" });
    const [first] = await db.sessions.list();
    await a.signin({ NS: "a", DB: "a", user: "ann", pass: "pw" });
    const after = await db.sessions.list();
    expect(after.map((e) => e.user)).toEqual(["ann"]);
    expect(after[0]!.id).not.toBe(first!.id);
    await a.invalidate();
    expect(await db.sessions.list()).toEqual([]);
    const r = db.connect();
    await r.signin({ NS: "a", DB: "a", AC: "account", email: "e@x" });
    expect((await db.sessions.list()).length).toBe(1);
    now += 3_601_000;
    expect(await db.sessions.list()).toEqual([]);
    await db.sessions.sync();
    await expect(r.query("RETURN 1")).rejects.toThrow("The session has expired");
    // the methods an expired session may still call work once the sync has dropped its entry (differential: use)
    expect(await r.rpc("ping")).toBeUndefined();
    await r.use("a", "a");
    const k = await signedIn(db, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await db.sessions.kill({ user: "ann" });
    await expect(k.info()).rejects.toThrow("The session has expired");
    await k.signin({ NS: "a", DB: "a", user: "ann", pass: "pw" });
    expect((await k.query("RETURN 1"))[0]!.result).toBe(1n);
  });

  it("last seen moves with calls: on its node at once, on another at the next sync", async () => {
    const clock = movable();
    const { a, b } = await twoNodes(clock);
    const c = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await a.sessions.sync();
    clock.ms += 5000;
    await c.query("RETURN 1");
    expect((await a.sessions.list())[0]!.lastSeen).toBe(new Date(clock.ms).toISOString());
    expect((await b.sessions.list())[0]!.lastSeen).toBe(new Date(clock.ms - 5000).toISOString());
    await a.sessions.sync();
    expect((await b.sessions.list())[0]!.lastSeen).toBe(new Date(clock.ms).toISOString());
  });

  it("a node silent for NODE_SILENCE_MS is swept by another; a node swept while alive writes its entries back", async () => {
    const clock = movable();
    const { a, b } = await twoNodes(clock);
    const c = await signedIn(b, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    await b.sessions.sync();
    expect((await a.sessions.list()).length).toBe(1);
    clock.ms += NODE_SILENCE_MS + 1;
    await a.sessions.sync();
    expect(await a.sessions.list()).toEqual([]);
    // b was only slow: its session is not killed, and its entry comes back
    await b.sessions.sync();
    expect((await c.query("RETURN 1"))[0]!.result).toBe(1n);
    expect((await a.sessions.list()).map((e) => e.node)).toEqual([b.sessions.node]);
  });

  it("a node holding no sockets refuses a killed session's token within REVOKED_STALENESS_MS of the kill", async () => {
    const clock = movable();
    const { a, b } = await twoNodes(clock);
    const token = await a.connect().signin({ NS: "a", DB: "a", user: "ann", pass: "pw" });
    // b checks a token (an HTTP request with Bearer: not registered), reading the revoked list once
    await b.iam.authenticate(newSession(), token);
    await a.sessions.kill({ user: "ann" });
    await b.iam.authenticate(newSession(), token);
    clock.ms += REVOKED_STALENESS_MS;
    await expect(b.iam.authenticate(newSession(), token)).rejects.toThrow("There was a problem with authentication");
  });

  // Attack pass 6, D1: a kill refuses the token it stood on for every session standing on it, here or on another node.
  it("a kill by id ends every session standing on the killed session's token, on this node and another", async () => {
    const clock = movable();
    const { a, b } = await twoNodes(clock);
    const issuer = a.connect();
    const token = await issuer.signin({ NS: "a", DB: "a", user: "ann", pass: "pw" });
    await issuer.close();
    const [first, sibling, elsewhere] = [a.connect(), a.connect(), b.connect()];
    await first.authenticate(token);
    const [entry] = await a.sessions.list();
    await sibling.authenticate(token);
    await elsewhere.authenticate(token);
    const other = await signedIn(a, { NS: "a", DB: "a", user: "ann", pass: "pw" });
    expect(await a.sessions.kill({ id: entry!.id })).toHaveLength(1);
    await expect(first.query("RETURN 1")).rejects.toThrow("The session has expired");
    await expect(sibling.query("RETURN 1")).rejects.toThrow("The session has expired");
    clock.ms += REVOKED_STALENESS_MS;
    await b.sessions.sync();
    await expect(elsewhere.query("RETURN 1")).rejects.toThrow("The session has expired");
    // a session on another token of the same user is not touched; the siblings' entries leave at the sync
    expect((await other.query("RETURN 1"))[0]!.result).toBe(1n);
    await a.sessions.sync();
    expect((await a.sessions.list()).length).toBe(1);
  });
});
