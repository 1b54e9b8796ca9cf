// The seed's typical set-up end to end on the real Datastore and parser: DEFINE, signup, signin, authenticate.

import { decodeJwt, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession, type Session } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { RecordId } from "../../src/value/types.js";
import { DAY, FakeClock } from "./fake-engine.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1d
        SIGNUP (CREATE user SET name = $name, email = $email, password = crypto::argon2::generate($password))
        SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password));`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD
        SIGNUP (CREATE user SET name = $name, email = $email, password = crypto::argon2::generate($password))
        SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password))
        DURATION FOR TOKEN 15m, FOR SESSION 1d;`,
};
const TABLES = `DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update, delete WHERE id = $auth.id;
  DEFINE FIELD name ON user TYPE string;
  DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value);
  DEFINE FIELD password ON user TYPE string;
  DEFINE INDEX email ON user FIELDS email UNIQUE;`;

async function setup(compat: 1 | 2) {
  const clock = new FakeClock();
  const ds = new Datastore({ compat, clock });
  const iam = new Iam(ds);
  const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  const res = await ds.execute(`DEFINE USER root ON ROOT PASSWORD 'root' ROLES OWNER; ${TABLES} ${SCHEMA[compat]}`, root);
  for (const r of res) if (r.status === "ERR") throw r.error;
  return { ds, iam, clock };
}

const SC = (compat: 1 | 2) => (compat === 1 ? "SC" : "AC");
const value = async (ds: Datastore, q: string, s: Session) => {
  const [r] = await ds.execute(q, s);
  if (!r || r.status === "ERR") throw r?.error ?? new Error("no response");
  return r.result;
};

describe.each([1, 2] as const)("end to end on the Datastore, compat %i", (compat) => {
  it("signup, signin, authenticate on a fresh session, permissions by $auth, expiry", async () => {
    const { ds, iam, clock } = await setup(compat);
    const alice = { NS: "test", DB: "test", [SC(compat)]: "account", name: "Alice", email: "alice@example.com", password: "alice-pass" };
    const s1 = newSession();
    const up = await iam.signup(s1, alice);
    expect(s1.rd).toBeInstanceOf(RecordId);
    await iam.signup(newSession(), { ...alice, name: "Bob", email: "bob@example.com" });
    // duplicate email and invalid email are refused by the index / assertion (generic query failure)
    const failed = compat === 1 ? "The signup query failed" : "The record access signup query failed";
    await expect(iam.signup(newSession(), alice)).rejects.toThrow(failed);
    await expect(iam.signup(newSession(), { ...alice, email: "not-an-email" })).rejects.toThrow(failed);
    await expect(iam.signin(newSession(), { ...alice, password: "wrong" })).rejects.toThrow("No record was returned");

    const s2 = newSession();
    const { token } = await iam.signin(s2, alice);
    expect(decodeJwt(token).ID).toBe(decodeJwt(up.token).ID);
    expect(await value(ds, "SELECT VALUE email FROM user", s2)).toEqual(["alice@example.com"]);

    const s3 = newSession();
    await iam.authenticate(s3, token);
    expect(s3.rd).toEqual(s2.rd);
    expect(await value(ds, "SELECT VALUE name FROM user", s3)).toEqual(["Alice"]);
    expect(await iam.info(s3)).toMatchObject({ name: "Alice", email: "alice@example.com" });

    clock.advance(DAY + 1);
    await expect(ds.execute("SELECT * FROM user", s2)).rejects.toThrow("The session has expired");
    await iam.signin(s2, alice);
    expect(await value(ds, "SELECT VALUE name FROM user", s2)).toEqual(["Alice"]);
  });

  it("root signin with the defined password", async () => {
    const { iam } = await setup(compat);
    const s = newSession();
    await iam.signin(s, { user: "root", pass: "root" });
    expect(s.actor).toMatchObject({ level: "Root", roles: ["OWNER"] });
  });
});

describe("defined tokens and accesses through the parser", () => {
  it("v1 DEFINE TOKEN ON DATABASE / ON SCOPE, v2 DEFINE ACCESS TYPE JWT and DURATION on users", async () => {
    const sign = (key: string, alg: string, claims: Record<string, unknown>, clock: FakeClock) =>
      new SignJWT({ exp: Math.floor(clock.now() / 1000) + 60, ...claims }).setProtectedHeader({ alg }).sign(new TextEncoder().encode(key));

    const v1 = await setup(1);
    const root1 = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    for (const r of await v1.ds.execute("DEFINE TOKEN dbtk ON DATABASE TYPE HS256 VALUE 'dbsecret'; DEFINE TOKEN sctk ON SCOPE account TYPE HS384 VALUE 'scsecret';", root1))
      if (r.status === "ERR") throw r.error;
    const s1 = newSession();
    await v1.iam.authenticate(s1, await sign("dbsecret", "HS256", { NS: "test", DB: "test", TK: "dbtk", RL: ["Editor"] }, v1.clock));
    expect(s1.actor).toMatchObject({ level: "Database", id: "dbtk", roles: ["EDITOR"] });
    await v1.iam.authenticate(s1, await sign("scsecret", "HS384", { NS: "test", DB: "test", SC: "account", TK: "sctk", ID: "user:x" }, v1.clock));
    expect(s1).toMatchObject({ ac: "account", rd: new RecordId("user", "x"), actor: { level: "Scope", id: "sctk" } });

    const v2 = await setup(2);
    const root2 = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    for (const r of await v2.ds.execute(
      "DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS256 KEY 'apisecret' DURATION FOR SESSION 2h; DEFINE USER short ON ROOT PASSWORD 'pw' DURATION FOR TOKEN 5m, FOR SESSION 30m;",
      root2,
    ))
      if (r.status === "ERR") throw r.error;
    const s2 = newSession();
    await v2.iam.authenticate(s2, await sign("apisecret", "HS256", { NS: "test", DB: "test", AC: "api" }, v2.clock));
    expect(s2.exp).toBe(Math.floor(v2.clock.now() / 1000) + 7200);
    await expect(v2.iam.signin(newSession(), { NS: "test", DB: "test", AC: "api" })).rejects.toThrow(
      "The access method cannot be used in the requested operation",
    );
    const s3 = newSession();
    const { token } = await v2.iam.signin(s3, { user: "short", pass: "pw" });
    const c = decodeJwt(token);
    expect([c.exp! - c.iat!, s3.exp! - c.iat!]).toEqual([300, 1800]);
  });
});

describe("v2 reads DEFINE SCOPE as a record access", () => {
  it("SESSION sets the session duration only; the token keeps 1h; SC is not a v2 credential", async () => {
    const clock = new FakeClock();
    const ds = new Datastore({ compat: 2, clock });
    const iam = new Iam(ds);
    const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    for (const r of await ds.execute("DEFINE SCOPE legacy SESSION 1d SIGNUP (CREATE user SET email = $email);", root)) if (r.status === "ERR") throw r.error;
    const s = newSession();
    const { token } = await iam.signup(s, { NS: "test", DB: "test", AC: "legacy", email: "a@b.c" });
    const c = decodeJwt(token);
    expect(c.exp! - c.iat!).toBe(3600);
    expect(s.exp).toBe(c.iat! + DAY);
    await expect(iam.signup(newSession(), { NS: "test", DB: "test", SC: "legacy", email: "a@b.c" })).rejects.toThrow(
      "There was a problem with signing up",
    );
  });
});
