// F13: a record user's token or session lives only as long as its record, and only for the incarnation it was issued
// for (stricter than SurrealDB, which accepts both; SECURITY.md). Real Datastore + Iam, both compats.

import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession, type Session } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { FakeClock } from "./fake-engine.js";

const CLAUSES = `SIGNUP (CREATE type::thing('acct2', $username) SET pass = crypto::argon2::generate($password))
  SIGNIN (SELECT * FROM type::thing('acct2', $username) WHERE crypto::argon2::compare(pass, $password))`;
const SCHEMA = {
  1: `DEFINE SCOPE acct2 SESSION 1h ${CLAUSES};`,
  2: `DEFINE ACCESS acct2 ON DATABASE TYPE RECORD ${CLAUSES} DURATION FOR TOKEN 1h;
      DEFINE ACCESS acct3 ON DATABASE TYPE RECORD ${CLAUSES} AUTHENTICATE { RETURN $auth } DURATION FOR TOKEN 1h;`,
};
const TABLES = `DEFINE TABLE acct2 SCHEMALESS PERMISSIONS FOR select, update, delete WHERE id = $auth.id;
  DEFINE FIELD pass ON acct2 TYPE string PERMISSIONS FOR select NONE;
  DEFINE TABLE note SCHEMALESS PERMISSIONS FULL;`;
const AUTH_ERROR = "There was a problem with authentication";
const EXPIRED = "The session has expired";

async function setup(compat: 1 | 2) {
  const clock = new FakeClock();
  const ds = new Datastore({ compat, clock });
  const iam = new Iam(ds);
  const root = newSession({ ns: "app", db: "app", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  await run(ds, `${TABLES} ${SCHEMA[compat]}`, root);
  const creds = (username: string, password: string, ac = "acct2") => ({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, username, password });
  return { ds, iam, clock, root, creds };
}

async function run(ds: Datastore, q: string, s: Session) {
  const res = await ds.execute(q, s);
  for (const r of res) if (r.status === "ERR") throw r.error;
  return res.map((r) => r.result);
}

describe.each([1, 2] as const)("record identity lifetime, compat %i", (compat) => {
  it("F13: squat, self-delete, keep the token: the next registrant's account stays out of reach", async () => {
    const { ds, iam, clock, creds } = await setup(compat);
    const attacker = newSession();
    const { token } = await iam.signup(attacker, creds("carol", "attacker"));
    await run(ds, "DELETE $auth.id", attacker);
    clock.advance(1);
    const carol = newSession();
    const { token: carolToken } = await iam.signup(carol, creds("carol", "carols-real-pw"));
    await run(ds, "UPDATE $auth.id SET diary = 'SECRET_carol_diary'", carol);
    // the attacker's token is refused, and its live session has ended
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
    await expect(ds.execute("SELECT * FROM acct2", attacker)).rejects.toThrow(EXPIRED);
    await expect(ds.execute("UPDATE acct2:carol SET diary = 'overwritten'", attacker)).rejects.toThrow(EXPIRED);
    // Carol's own session and token work
    expect(await run(ds, "SELECT VALUE diary FROM acct2", carol)).toEqual([["SECRET_carol_diary"]]);
    const again = newSession();
    await iam.authenticate(again, carolToken);
    expect(await run(ds, "SELECT VALUE diary FROM acct2", again)).toEqual([["SECRET_carol_diary"]]);
  });

  it("a token (even a cached one) and its sessions are refused once root deletes the record", async () => {
    const { ds, iam, clock, root, creds } = await setup(compat);
    const { token } = await iam.signup(newSession(), creds("dave", "pw"));
    clock.advance(1);
    const live = newSession();
    await iam.authenticate(live, token);
    expect(iam.cachedTokens).toBe(1);
    expect(await run(ds, "RETURN $auth.id = acct2:dave", live)).toEqual([true]);
    await run(ds, "DELETE acct2:dave", root);
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
    await expect(ds.execute("RETURN $auth", live)).rejects.toThrow(EXPIRED);
    await expect(iam.info(live)).rejects.toThrow(EXPIRED);
    // other record users are untouched
    const erin = newSession();
    await iam.signup(erin, creds("erin", "pw"));
    expect(await run(ds, "SELECT VALUE id FROM acct2", erin)).toHaveLength(1);
  });

  it("a record created again with the same id does not revive the old token or session; a fresh signin works", async () => {
    const { ds, iam, clock, root, creds } = await setup(compat);
    const live = newSession();
    const { token } = await iam.signup(live, creds("dave", "pw"));
    clock.advance(5);
    await run(ds, "DELETE acct2:dave", root);
    clock.advance(5);
    await run(ds, "CREATE acct2:dave SET pass = crypto::argon2::generate('pw2')", root);
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
    await expect(ds.execute("SELECT * FROM acct2", live)).rejects.toThrow(EXPIRED);
    clock.advance(1);
    const fresh = newSession();
    const { token: freshToken } = await iam.signin(fresh, creds("dave", "pw2"));
    expect(await run(ds, "SELECT VALUE id FROM acct2", fresh)).toHaveLength(1);
    const viaToken = newSession();
    await iam.authenticate(viaToken, freshToken);
    expect(await run(ds, "SELECT VALUE id FROM acct2", viaToken)).toHaveLength(1);
  });

  it("a deletion in the token's own second refuses it (iat has whole seconds); its session lives on", async () => {
    const { ds, iam, root, creds } = await setup(compat);
    await run(ds, "CREATE acct2:dave SET pass = crypto::argon2::generate('pw')", root);
    await iam.signin(newSession(), creds("dave", "pw"));
    await run(ds, "DELETE acct2:dave; CREATE acct2:dave SET pass = crypto::argon2::generate('pw')", root);
    const s = newSession();
    const { token } = await iam.signin(s, creds("dave", "pw"));
    expect(await run(ds, "SELECT VALUE id FROM acct2", s)).toHaveLength(1);
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
  });

  it("a cancelled DELETE ends nothing; REMOVE TABLE ends every identity in it", async () => {
    const { ds, iam, clock, root, creds } = await setup(compat);
    const live = newSession();
    const { token } = await iam.signup(live, creds("dave", "pw"));
    clock.advance(1);
    await ds.execute("BEGIN; DELETE acct2:dave; CANCEL;", root);
    await iam.authenticate(newSession(), token);
    expect(await run(ds, "SELECT VALUE id FROM acct2", live)).toHaveLength(1);
    await run(ds, "REMOVE TABLE acct2", root);
    await expect(ds.execute("RETURN 1", live)).rejects.toThrow(EXPIRED);
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
  });

  it("deleting other records (any table) ends no one", async () => {
    const { ds, iam, clock, root, creds } = await setup(compat);
    const live = newSession();
    const { token } = await iam.signup(live, creds("dave", "pw"));
    await iam.signup(newSession(), creds("erin", "pw"));
    clock.advance(1);
    await run(ds, "CREATE note:1; DELETE note:1; DELETE acct2:erin; DELETE acct2:nobody", root);
    await iam.authenticate(newSession(), token);
    expect(await run(ds, "SELECT VALUE id FROM acct2", live)).toHaveLength(1);
  });

  it.runIf(compat === 2)("with an AUTHENTICATE clause the deleted record's token is refused too", async () => {
    const { ds, iam, clock, root, creds } = await setup(compat);
    const { token } = await iam.signup(newSession(), creds("dave", "pw", "acct3"));
    clock.advance(1);
    await iam.authenticate(newSession(), token);
    await run(ds, "DELETE acct2:dave", root);
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow(AUTH_ERROR);
  });

  it.runIf(compat === 2)("an outside issuer's token may name a record that never existed (as SurrealDB), but not one deleted since", async () => {
    const { ds, iam, clock, root } = await setup(compat);
    await run(ds, "DEFINE ACCESS ext ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS256 KEY 'ext-key'", root);
    const sign = (id: string) =>
      new SignJWT({ NS: "app", DB: "app", AC: "ext", ID: id, exp: Math.floor(clock.now() / 1000) + 60 })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .sign(new TextEncoder().encode("ext-key"));
    const ghost = newSession();
    await iam.authenticate(ghost, await sign("acct2:ghost"));
    await run(ds, "CREATE acct2:fay SET pass = 'x'", root);
    const fay = await sign("acct2:fay");
    const live = newSession();
    await iam.authenticate(live, fay);
    clock.advance(1);
    await run(ds, "DELETE acct2:fay; CREATE acct2:fay SET pass = 'x'", root);
    await expect(iam.authenticate(newSession(), fay)).rejects.toThrow(AUTH_ERROR);
    await expect(ds.execute("RETURN 1", live)).rejects.toThrow(EXPIRED);
    expect(await run(ds, "RETURN 1", ghost)).toEqual([1n]);
  });
});
