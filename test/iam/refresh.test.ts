// iam/refresh.ts through the embedded API with a fake clock: refresh tokens of a record access WITH REFRESH, rotation,
// the reuse grace window, theft detection (the whole family and its sessions end), revoke, and two nodes on one store.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SurqlAuth, type AuditEvent, type Connection } from "../../src/index.js";
import { REFRESH_GRACE_MS } from "../../src/iam/refresh.js";
import { stateRange } from "../../src/iam/sessions-keys.js";
import { FileStore } from "../../src/store/kv/file.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import type { KvStore } from "../../src/store/kv/types.js";

const CLAUSES = "SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email)";
const SCHEMA = `USE NS app DB app;
  DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
  DEFINE ACCESS account ON DATABASE TYPE RECORD ${CLAUSES} WITH REFRESH DURATION FOR GRANT 1d, FOR TOKEN 15m, FOR SESSION 1h;
  DEFINE ACCESS plain ON DATABASE TYPE RECORD ${CLAUSES};`;
const FORMAT = /^surreal-refresh-[A-Za-z0-9]{12}-[A-Za-z0-9]{24}$/;
const AUTH_FAILED = "There was a problem with authentication";
const creds = (email: string, ac = "account") => ({ NS: "app", DB: "app", AC: ac, email });

async function open(clock: { now(): number }, storage: KvStore = new MemoryStore(), events: AuditEvent[] = []) {
  const db = await SurqlAuth.open({ clock, storage, root: { user: "root", pass: "root" }, sessionSyncMs: 0, audit: [(e) => events.push(e)] });
  await db.importText(SCHEMA);
  return db;
}

/** The byte sizes of the stored values of one kind of refresh state. */
async function storedSizes(store: KvStore, kind: "rf" | "rt" | "ra"): Promise<number[]> {
  const kv = await store.begin("read");
  const sizes: number[] = [];
  for await (const batch of kv.scan(stateRange(kind))) for (const [, v] of batch) sizes.push(v.length);
  await kv.cancel();
  return sizes;
}

const whoAmI = async (c: Connection) => (await c.query("RETURN $auth"))[0]!.result;

describe("refresh tokens", () => {
  it("signin and signup of an access WITH REFRESH answer a refresh token; other accesses and compat 1 do not", async () => {
    const db = await open({ now: () => 1_800_000_000_000 });
    const up = await db.connect().signupTokens(creds("a@x"));
    expect(up.refresh).toMatch(FORMAT);
    const again = await db.connect().signinTokens(creds("a@x"));
    expect(again.refresh).toMatch(FORMAT);
    expect(again.refresh).not.toBe(up.refresh);
    expect((await db.connect().signupTokens(creds("p@x", "plain"))).refresh).toBeUndefined();
    const v1 = await SurqlAuth.open({ compat: 1, sessionSyncMs: 0 });
    await v1.importText(`USE NS app DB app; DEFINE SCOPE account SESSION 1h ${CLAUSES};`);
    expect(await v1.connect().signupTokens({ NS: "app", DB: "app", SC: "account", email: "a@x" })).toEqual({ access: expect.any(String) });
  });

  it("the grant rotates: a new pair, the session signs in as the family's record, the used token is spent", async () => {
    let now = 1_800_000_000_000;
    const db = await open({ now: () => now });
    const first = db.connect();
    const t0 = await first.signupTokens(creds("r@x"));
    const me = await whoAmI(first);
    const tab = db.connect();
    const t1 = await tab.refresh(t0.refresh!);
    expect(t1.refresh).toMatch(FORMAT);
    expect(t1.refresh).not.toBe(t0.refresh);
    expect(t1.access).not.toBe(t0.access);
    expect(await whoAmI(tab)).toEqual(me);
    // the grant as signin with NS / DB / AC and `refresh`, as SurrealDB 3 takes it
    now += REFRESH_GRACE_MS + 1;
    const t2 = await db.connect().signinTokens({ NS: "app", DB: "app", AC: "account", refresh: t1.refresh! });
    expect(t2.refresh).toMatch(FORMAT);
    await expect(db.connect().signinTokens({ NS: "app", DB: "app", AC: "plain", refresh: t2.refresh! })).rejects.toThrow("No record was returned");
  });

  it("two tabs using one token within the grace window get the same new pair", async () => {
    let now = 1_800_000_000_000;
    const db = await open({ now: () => now });
    const t0 = await db.connect().signupTokens(creds("g@x"));
    const a = db.connect();
    const b = db.connect();
    const fromA = await a.refresh(t0.refresh!);
    now += REFRESH_GRACE_MS;
    expect(await b.refresh(t0.refresh!)).toEqual(fromA);
    expect(await whoAmI(b)).toEqual(await whoAmI(a));
    // and the new token still rotates afterwards
    expect((await db.connect().refresh(fromA.refresh!)).refresh).toMatch(FORMAT);
  });

  it("a reuse after the grace window revokes the family: its refresh token, access tokens and sessions", async () => {
    let now = 1_800_000_000_000;
    const events: AuditEvent[] = [];
    const db = await open({ now: () => now }, new MemoryStore(), events);
    const victim = db.connect();
    const t0 = await victim.signupTokens(creds("v@x"));
    const t1 = await victim.refresh(t0.refresh!);
    // another tab signed in with the family's access token, not through a grant
    const tab = db.connect();
    await tab.authenticate(t1.access);
    const thief = db.connect();
    now += REFRESH_GRACE_MS + 1;
    await expect(thief.refresh(t0.refresh!)).rejects.toThrow(AUTH_FAILED);
    await expect(victim.query("RETURN 1")).rejects.toThrow("The session has expired");
    await expect(tab.query("RETURN 1")).rejects.toThrow("The session has expired");
    await expect(db.connect().refresh(t1.refresh!)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().authenticate(t1.access)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().authenticate(t0.access)).rejects.toThrow(AUTH_FAILED);
    // another family of the same user is untouched
    const other = await db.connect().signinTokens(creds("v@x"));
    expect((await db.connect().refresh(other.refresh!)).refresh).toMatch(FORMAT);
    // audited: the rotation, the refused reuse, the killed session; never a token
    expect(events.filter((e) => e.event === "refresh").map((e) => e.outcome)).toEqual(["success", "failure", "failure", "success"]);
    expect(events.find((e) => e.event === "session_killed")).toMatchObject({ reason: "refresh_reuse", identity: "record", access: "account" });
    const log = JSON.stringify(events);
    for (const secret of [t0.refresh!, t1.refresh!, t0.access, t1.access]) expect(log).not.toContain(secret);
  });

  it("revoke ends the family; a forged, malformed or unknown token is refused", async () => {
    const db = await open({ now: () => 1_800_000_000_000 });
    const c = db.connect();
    const t0 = await c.signupTokens(creds("k@x"));
    await c.revoke(t0.refresh!);
    await expect(c.query("RETURN 1")).rejects.toThrow("The session has expired");
    await expect(db.connect().refresh(t0.refresh!)).rejects.toThrow(AUTH_FAILED);
    const forged = t0.refresh!.slice(0, -1) + (t0.refresh!.endsWith("a") ? "b" : "a");
    await expect(db.connect().refresh(forged)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().refresh("surreal-refresh-x")).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().revoke(forged)).rejects.toThrow(AUTH_FAILED);
  });

  it("a family ends with its grant duration, a redefinition of the access, and the deletion of its record", async () => {
    let now = 1_800_000_000_000;
    const db = await open({ now: () => now });
    const expiring = await db.connect().signupTokens(creds("e@x"));
    now += 86_400_000 + 1;
    await expect(db.connect().refresh(expiring.refresh!)).rejects.toThrow(AUTH_FAILED);
    const redefined = await db.connect().signinTokens(creds("e@x"));
    await db.importText(`USE NS app DB app; DEFINE ACCESS OVERWRITE account ON DATABASE TYPE RECORD ${CLAUSES} WITH REFRESH;`);
    await expect(db.connect().refresh(redefined.refresh!)).rejects.toThrow(AUTH_FAILED);
    const deleted = await db.connect().signinTokens(creds("e@x"));
    await db.importText("USE NS app DB app; DELETE user WHERE email = 'e@x';");
    await expect(db.connect().refresh(deleted.refresh!)).rejects.toThrow(AUTH_FAILED);
  });

  it("ended families and their access token ids leave the store at a later signin's sweep", async () => {
    let now = 1_800_000_000_000;
    const store = new MemoryStore();
    const db = await open({ now: () => now }, store);
    const count = async (kind: "rf" | "ra") => (await storedSizes(store, kind)).length;
    const expiring = await db.connect().signupTokens(creds("s1@x"));
    await db.connect().refresh(expiring.refresh!);
    const revoked = await db.connect().signupTokens(creds("s2@x"));
    await db.connect().revoke(revoked.refresh!);
    expect([await count("rf"), await count("ra")]).toEqual([2, 3]);
    now += 86_400_000 + 1;
    const kept = await db.connect().signupTokens(creds("s3@x"));
    expect([await count("rf"), await count("ra")]).toEqual([1, 1]);
    expect((await db.connect().refresh(kept.refresh!)).refresh).toMatch(FORMAT);
  });

  it("two nodes on one store: a token rotated on A answers the same pair on B within the window, and theft on B ends A's session", async () => {
    let now = 1_800_000_000_000;
    const clock = { now: () => now };
    const store = new MemoryStore();
    const a = await open(clock, store);
    const b = await SurqlAuth.open({ clock, storage: store, sessionSyncMs: 0 });
    const onA = a.connect();
    const t0 = await onA.signupTokens(creds("n@x"));
    const t1 = await onA.refresh(t0.refresh!);
    expect(await b.connect().refresh(t0.refresh!)).toEqual(t1);
    now += REFRESH_GRACE_MS + 1;
    await expect(b.connect().refresh(t0.refresh!)).rejects.toThrow(AUTH_FAILED);
    await a.sessions.sync();
    await expect(onA.query("RETURN 1")).rejects.toThrow("The session has expired");
  });

  // Attack pass 6, D9: the refused token ids live in the store, so a restarted node refuses them until their expiry.
  it("a killed session's token and a revoked family's access token stay refused after a restart (file: store)", async () => {
    let now = 1_800_000_000_000;
    const clock = { now: () => now };
    const dir = mkdtempSync(join(tmpdir(), "revoked-"));
    try {
      let storage = await FileStore.open(join(dir, "data"));
      let db = await open(clock, storage);
      const killed = db.connect();
      const k = await killed.signupTokens(creds("killed@x"));
      expect(await db.sessions.kill({ user: String((await whoAmI(killed)) as object) })).toHaveLength(1);
      const victim = db.connect();
      const t0 = await victim.signupTokens(creds("theft@x"));
      const t1 = await victim.refresh(t0.refresh!);
      now += REFRESH_GRACE_MS + 1;
      await expect(db.connect().refresh(t0.refresh!)).rejects.toThrow(AUTH_FAILED);
      db.iam.close();
      await storage.close();
      storage = await FileStore.open(join(dir, "data"));
      db = await SurqlAuth.open({ clock, storage, sessionSyncMs: 0 });
      await expect(db.connect().authenticate(k.access)).rejects.toThrow(AUTH_FAILED);
      await expect(db.connect().authenticate(t1.access)).rejects.toThrow(AUTH_FAILED);
      await expect(db.connect().refresh(t1.refresh!)).rejects.toThrow(AUTH_FAILED);
      // the control: a token nobody refused still works after the restart
      const fine = await db.connect().signinTokens(creds("killed@x"));
      await db.connect().authenticate(fine.access);
      db.iam.close();
      await storage.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Attack pass 6, D6: an owner's kill naming an identity ends its refresh families, live socket or not.
  it("a kill by user or by access ends the identity's refresh families; a kill by session id the family it stood on", async () => {
    const db = await open({ now: () => 1_800_000_000_000 });
    const online = db.connect();
    const a = await online.signupTokens(creds("a@x"));
    const aUser = String((await whoAmI(online)) as object);
    // tokens of connections closed since: no session of theirs is live when the kill comes
    const closed = async (c: Connection, pair: Promise<{ access: string; refresh?: string }>) => {
      const p = await pair;
      await c.close();
      return p;
    };
    const spareConn = db.connect();
    const spare = await closed(spareConn, spareConn.signinTokens(creds("a@x")));
    const otherConn = db.connect();
    const other = await closed(otherConn, otherConn.signupTokens(creds("o@x")));
    expect(await db.sessions.kill({ user: aUser })).toHaveLength(1);
    await expect(online.refresh(a.refresh!)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().signinTokens({ NS: "app", DB: "app", AC: "account", refresh: spare.refresh! })).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().authenticate(spare.access)).rejects.toThrow(AUTH_FAILED);
    // another user's family is untouched; a kill by access ends it (no session of it is live)
    const freshConn = db.connect();
    const fresh = await closed(freshConn, freshConn.refresh(other.refresh!));
    expect(await db.sessions.kill({ access: "account" })).toEqual([]);
    await expect(db.connect().refresh(fresh.refresh!)).rejects.toThrow(AUTH_FAILED);
    // a kill by session id: the family that session was signed in by, not the user's others
    const one = db.connect();
    const b1 = await one.signinTokens(creds("o@x"));
    const b2Conn = db.connect();
    const b2 = await closed(b2Conn, b2Conn.signinTokens(creds("o@x")));
    const [entry] = await db.sessions.list();
    expect(await db.sessions.kill({ id: entry!.id })).toHaveLength(1);
    await expect(db.connect().refresh(b1.refresh!)).rejects.toThrow(AUTH_FAILED);
    expect((await db.connect().refresh(b2.refresh!)).refresh).toMatch(FORMAT);
    // a database owner of another database reaches none of them
    await db.importText("USE NS other DB other; DEFINE USER own ON DATABASE PASSWORD 'pw' ROLES OWNER;");
    const own = db.connect();
    await own.signin({ NS: "other", DB: "other", user: "own", pass: "pw" });
    const c = await db.connect().signinTokens(creds("o@x"));
    await db.sessions.kill("all", own);
    expect((await db.connect().refresh(c.refresh!)).refresh).toMatch(FORMAT);
  });

  // Attack pass 6, D10: a rotation writes a constant amount; the family's state does not grow with its refreshes.
  it("a family's stored state stays the same size across rotations; its access token ids leave with it", async () => {
    let now = 1_800_000_000_000;
    const store = new MemoryStore();
    const db = await open({ now: () => now }, store);
    const read = (kind: "rf" | "ra") => storedSizes(store, kind);
    const c = db.connect();
    let pair = await c.signupTokens(creds("d@x"));
    pair = await c.refresh(pair.refresh!);
    const [size] = await read("rf");
    const used = [pair.refresh!];
    for (let i = 0; i < 30; i++) used.push((pair = await c.refresh(pair.refresh!)).refresh!);
    expect((await read("rf"))[0]!).toBeLessThanOrEqual(size! + 4);
    expect(await read("ra")).toHaveLength(32);
    // nothing is kept per refresh token (D10), yet every used one is recognised: a forged secret on a used token's
    // family and generation is unknown (it ends nothing); the genuine one, past the window, is a reuse
    expect(await storedSizes(store, "rt")).toEqual([]);
    const old = used[3]!;
    const forged = old.slice(0, -1) + (old.endsWith("a") ? "b" : "a");
    now += REFRESH_GRACE_MS + 1;
    await expect(db.connect().refresh(forged)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().revoke(forged)).rejects.toThrow(AUTH_FAILED);
    expect((await c.query("RETURN 1"))[0]!.result).toBe(1n);
    now -= REFRESH_GRACE_MS + 1;
    // every access token of the family is still refused at a theft
    now += REFRESH_GRACE_MS + 1;
    const middle = pair.access;
    await expect(db.connect().refresh(pair.refresh!)).resolves.toBeDefined();
    now += REFRESH_GRACE_MS + 1;
    await expect(db.connect().refresh(pair.refresh!)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().authenticate(middle)).rejects.toThrow(AUTH_FAILED);
    // the grant ends: the next signin's sweep takes the family and its token ids
    now += 86_400_000 + 1;
    await db.connect().signupTokens(creds("e@x"));
    expect(await read("ra")).toHaveLength(1);
  });
  // Attack pass 6, D10: a used token is recognised from its family's generation, however many rotations ago.
  it("a token used many rotations ago ends the family; expired access token ids leave at a rotation", async () => {
    let now = 1_800_000_000_000;
    const store = new MemoryStore();
    const db = await open({ now: () => now }, store);
    const c = db.connect();
    let pair = await c.signupTokens(creds("g@x"));
    const first = pair.refresh!;
    for (let i = 0; i < 5; i++) pair = await c.refresh(pair.refresh!);
    expect(await storedSizes(store, "ra")).toHaveLength(6);
    // past the access tokens' 15 minutes, a rotation keeps only the live one
    now += 15 * 60_000 + 1000;
    pair = await c.refresh(pair.refresh!);
    expect(await storedSizes(store, "ra")).toHaveLength(1);
    await expect(db.connect().refresh(first)).rejects.toThrow(AUTH_FAILED);
    await expect(c.query("RETURN 1")).rejects.toThrow("The session has expired");
    await expect(db.connect().refresh(pair.refresh!)).rejects.toThrow(AUTH_FAILED);
    await expect(db.connect().authenticate(pair.access)).rejects.toThrow(AUTH_FAILED);
  });
});
