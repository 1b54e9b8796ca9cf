// A session ends once the access method / scope / token it signed in, signed up or authenticated with is removed or
// redefined, as it does when its record (F13) or system user (R4) goes (attack re-check R5; SurrealDB keeps it).

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { Session } from "../../src/exec/session.js";
import { newSession } from "../../src/exec/session.js";
import { SurqlAuth } from "../../src/index.js";

const CLAUSES = `SIGNUP (CREATE type::thing('tuser', $username) SET pass = crypto::argon2::generate($password))
  SIGNIN (SELECT * FROM type::thing('tuser', $username) WHERE crypto::argon2::compare(pass, $password))`;
const define = (compat: 1 | 2, name: string) =>
  compat === 1 ? `DEFINE SCOPE ${name} SESSION 1h ${CLAUSES}` : `DEFINE ACCESS OVERWRITE ${name} ON DATABASE TYPE RECORD ${CLAUSES} DURATION FOR TOKEN 1h`;
const remove = (compat: 1 | 2, name: string) => (compat === 1 ? `REMOVE SCOPE ${name}` : `REMOVE ACCESS ${name} ON DATABASE`);
/** A JWT definition with a known key: v2 DEFINE ACCESS … TYPE JWT, v1 DEFINE TOKEN ON DATABASE. */
const defineJwt = (compat: 1 | 2, name: string) =>
  compat === 1 ? `DEFINE TOKEN ${name} ON DATABASE TYPE HS512 VALUE 'jwt-secret'` : `DEFINE ACCESS OVERWRITE ${name} ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'jwt-secret'`;
const removeJwt = (compat: 1 | 2, name: string) => (compat === 1 ? `REMOVE TOKEN ${name} ON DATABASE` : `REMOVE ACCESS ${name} ON DATABASE`);
const EXPIRED = "The session has expired";

async function setup(compat: 1 | 2) {
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
  const root = db.connect({ ns: "app", db: "app" });
  await root.signin({ user: "root", pass: "root" });
  const run = async (q: string) => {
    for (const r of await root.query(q)) expect(r.status, `${q}: ${String(r.result)}`).toBe("OK");
  };
  await run(`DEFINE TABLE tuser SCHEMALESS PERMISSIONS FULL; ${define(compat, "tacc")}; ${define(compat, "other")}; ${defineJwt(compat, "jw")}`);
  const creds = (ac: string, username: string) => ({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, username, password: "pw" });
  /** A new connection authenticated with `token` whose `probe` query runs. */
  const openWith = async (token: string, probe: string) => {
    const c = db.connect();
    await c.authenticate(token);
    expect((await c.query(probe))[0]!.status).toBe("OK");
    return c;
  };
  /** Three record sessions of "ann" through tacc: by signup, by signin, and by authenticate with the signup's token. */
  const recordSessions = async () => {
    const up = db.connect();
    const token = await up.signup(creds("tacc", "ann"));
    const inn = db.connect();
    await inn.signin(creds("tacc", "ann"));
    const byToken = await openWith(token, "RETURN $auth.id");
    return { up, inn, byToken, token };
  };
  return { db, run, creds, openWith, recordSessions };
}

/** An HS512 token for `claims`, valid for an hour. */
const signed = (claims: Record<string, unknown>, key: string) =>
  new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 }).setProtectedHeader({ alg: "HS512" }).sign(new TextEncoder().encode(key));

describe.each([1, 2] as const)("sessions and their access method (compat %i)", (compat) => {
  it("removing the access / scope ends the sessions that signed up, signed in or authenticated with it; its tokens are refused", async () => {
    const { db, run, creds, recordSessions } = await setup(compat);
    const { up, inn, byToken, token } = await recordSessions();
    const bystander = db.connect();
    await bystander.signup(creds("other", "bob"));
    for (const c of [up, inn, byToken, bystander]) expect((await c.query("RETURN $auth.id"))[0]!.status).toBe("OK");

    await run(remove(compat, "tacc"));
    for (const c of [up, inn, byToken]) {
      await expect(c.query("RETURN $auth.id; SELECT * FROM tuser")).rejects.toThrow(EXPIRED);
      await expect(c.info()).rejects.toThrow(EXPIRED);
    }
    // the generic error, not "The access method 'tacc' does not exist …" (R9)
    await expect(db.connect().authenticate(token)).rejects.toThrow("There was a problem with authentication");
    // a session of another access goes on
    expect((await bystander.query("RETURN $auth.id"))[0]!.result).toEqual(expect.objectContaining({ table: "tuser" }));
  });

  it("redefining the access / scope ends its sessions too; a fresh signin works", async () => {
    const { db, run, creds } = await setup(compat);
    const live = db.connect();
    await live.signup(creds("tacc", "ann"));
    await run(define(compat, "tacc"));
    await expect(live.query("RETURN 1")).rejects.toThrow(EXPIRED);
    const again = db.connect();
    await again.signin(creds("tacc", "ann"));
    expect((await again.query("RETURN $auth.id"))[0]!.status).toBe("OK");
  });

  it("a removal or redefinition that does not commit (cancelled or failed) ends no session; the committed one does (F6)", async () => {
    const { db, run, creds } = await setup(compat);
    const root = db.connect({ ns: "app", db: "app" });
    await root.signin({ user: "root", pass: "root" });
    const live = db.connect();
    await live.signup(creds("tacc", "ann"));
    const alive = async () => expect((await live.query("RETURN $auth.id"))[0]!.status).toBe("OK");
    for (const change of [remove(compat, "tacc"), define(compat, "tacc")]) {
      expect((await root.query(`BEGIN; ${change}; CANCEL`))[0]!.result).toMatch(/cancelled transaction/);
      await alive();
      expect((await root.query(`BEGIN; ${change}; THROW 'no'; COMMIT`))[0]!.result).toMatch(/failed transaction/);
      await alive();
    }
    // while an open transaction holds the removal, the session stands on the committed definition
    const pending = root.query(`BEGIN; ${remove(compat, "tacc")}; SLEEP 1s; CANCEL`);
    while (db.engine.catalog.getAccess("DATABASE", "app", "app", "tacc")) await new Promise((r) => setTimeout(r, 5));
    await alive();
    await pending;
    await alive();
    await run(remove(compat, "tacc"));
    await expect(live.query("RETURN 1")).rejects.toThrow(EXPIRED);
  });

  it("a JWT access (1.x DEFINE TOKEN) session ends when the definition is removed or redefined", async () => {
    const { db, run, openWith } = await setup(compat);
    const token = await signed({ NS: "app", DB: "app", [compat === 1 ? "TK" : "AC"]: "jw", RL: ["Viewer"] }, "jwt-secret");
    const open = () => openWith(token, "SELECT * FROM tuser");
    const redefined = await open();
    await run(defineJwt(compat, "jw"));
    await expect(redefined.query("SELECT * FROM tuser")).rejects.toThrow(EXPIRED);
    // same key: the token itself still verifies against the new definition, and opens a new session
    const removed = await open();
    await run(removeJwt(compat, "jw"));
    await expect(removed.query("SELECT * FROM tuser")).rejects.toThrow(EXPIRED);
    await expect(db.connect().authenticate(token)).rejects.toThrow("There was a problem with authentication");
  });

  it("every iam/ path names the definitions its session stands on; a hand-built session names none", async () => {
    const { db, recordSessions } = await setup(compat);
    const names = (s: Session) => s.definitions.map((d) => `${d.kind}:${d.base}:${d.name}`);
    const { up, inn, byToken } = await recordSessions();
    for (const c of [up, inn, byToken]) expect(names(c.session)).toEqual(["access:DATABASE:tacc"]);
    const sys = db.connect();
    const rootToken = await sys.signin({ user: "root", pass: "root" });
    const sysToken = db.connect();
    await sysToken.authenticate(rootToken);
    for (const c of [sys, sysToken]) expect(names(c.session)).toEqual(["user:ROOT:root"]);
    const basic = newSession();
    await db.iam.basicAuth(basic, "root", "root");
    expect(names(basic)).toEqual(["user:ROOT:root"]);
    await up.invalidate();
    expect(up.session.definitions).toEqual([]);
    expect(newSession().definitions).toEqual([]);
  });
});

describe("compat 1 scope tokens (DEFINE TOKEN … ON SCOPE)", () => {
  it("stand on both the scope and the token: removing either ends the session", async () => {
    const { run, openWith } = await setup(1);
    await run(`DEFINE TOKEN st ON SCOPE tacc TYPE HS512 VALUE 'scope-secret'`);
    const token = await signed({ NS: "app", DB: "app", SC: "tacc", TK: "st", ID: "tuser:ann" }, "scope-secret");
    const open = () => openWith(token, "RETURN $auth");
    const first = await open();
    expect(first.session.definitions.map((d) => d.name)).toEqual(["tacc", "st"]);
    await run("REMOVE TOKEN st ON SCOPE tacc");
    await expect(first.query("RETURN $auth")).rejects.toThrow(EXPIRED);
    await run(`DEFINE TOKEN st ON SCOPE tacc TYPE HS512 VALUE 'scope-secret'`);
    const second = await open();
    await run(remove(1, "tacc"));
    await expect(second.query("RETURN $auth")).rejects.toThrow(EXPIRED);
  });
});
