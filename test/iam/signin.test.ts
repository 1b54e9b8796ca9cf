import { decodeJwt, decodeProtectedHeader } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import { InvalidAuth, ThrownError } from "../../src/errors/index.js";
import { newSession, type Session } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { Audit, type AuditEvent } from "../../src/iam/audit.js";
import { RecordId, Table, type Value } from "../../src/value/types.js";
import { clause, DAY, FakeEngine, HOUR, sec } from "./fake-engine.js";

const alice = new RecordId("user", "alice");

async function setup(compat: 1 | 2) {
  const engine = new FakeEngine(compat);
  const logs: AuditEvent[] = [];
  // many failed signins of one identity: the throttle (tested in throttle.test.ts) stays out of the way
  const iam = new Iam(engine, { audit: new Audit([(e) => logs.push(e)]), throttle: { enabled: false } });
  await engine.defineUser("ROOT", "root", { password: "rootpw", roles: ["OWNER"] });
  await engine.defineUser("NAMESPACE", "nsu", { ns: "test", password: "nspw", roles: ["EDITOR"] });
  await engine.defineUser("DATABASE", "dbu", { ns: "test", db: "test", password: "dbpw", roles: ["VIEWER"] });
  const signinFn = clause((_s, vars) => (vars?.email === "alice@example.com" && vars?.password === "pw" ? [{ id: alice, email: "alice@example.com" }] : []));
  const signupFn = clause(() => ({ id: alice }));
  if (compat === 1) engine.defineScope("test", "test", "account", { session: sec(DAY), signin: signinFn, signup: signupFn });
  else engine.defineRecordAccess("test", "test", "account", { signin: signinFn, signup: signupFn, token: sec(15 * 60), session: sec(DAY) });
  return { engine, iam, logs, session: newSession() };
}

const SC = (compat: 1 | 2) => (compat === 1 ? "SC" : "AC");

describe.each([1, 2] as const)("signin dispatch, compat %i", (compat) => {
  let env: Awaited<ReturnType<typeof setup>>;
  beforeEach(async () => {
    env = await setup(compat);
  });

  it("ROOT user: token {ID}, actor Root with stored roles, ns/db untouched", async () => {
    env.session.ns = "keep";
    const { token } = await env.iam.signin(env.session, { user: "root", pass: "rootpw" });
    const c = decodeJwt(token);
    expect(Object.keys(c)).toEqual(["iat", "nbf", "exp", "iss", "jti", "ID"]);
    expect(c.exp! - c.iat!).toBe(compat === 1 ? 24 * HOUR : HOUR);
    expect(env.session.actor).toEqual({ level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] });
    expect(env.session.ns).toBe("keep");
    expect(env.session.exp).toBeUndefined();
    expect(env.session.tk).toMatchObject({ ID: "root", iss: "SurrealDB", exp: BigInt(c.exp!) });
  });

  it("NS user with ns (or NS), DB user with NS+DB", async () => {
    const ns = await env.iam.signin(env.session, { ns: "test", user: "nsu", pass: "nspw" });
    expect(decodeJwt(ns.token)).toMatchObject({ NS: "test", ID: "nsu" });
    expect(env.session.actor).toMatchObject({ level: "Namespace", ns: "test", id: "nsu", roles: ["EDITOR"] });
    expect(env.session.ns).toBe("test");
    const db = await env.iam.signin(env.session, { NS: "test", DB: "test", user: "dbu", pass: "dbpw" });
    expect(Object.keys(decodeJwt(db.token))).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "DB", "ID"]);
    expect(env.session).toMatchObject({ ns: "test", db: "test", actor: { level: "Database", id: "dbu" } });
  });

  it("wrong password and unknown user are the same InvalidAuth, with the reason only in the log", async () => {
    for (const vars of [{ user: "root", pass: "nope" }, { user: "ghost", pass: "nope" }, { ns: "test", db: "test", user: "dbu", pass: "" }]) {
      const e = await env.iam.signin(env.session, vars).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidAuth);
      expect((e as Error).message).toBe("There was a problem with authentication");
    }
    expect(env.logs.map((e) => [e.event, e.outcome, e.reason, e.user])).toEqual([
      ["signin", "failure", "InvalidAuth", "root"],
      ["signin", "failure", "InvalidAuth", "ghost"],
      ["signin", "failure", "InvalidAuth", "dbu"],
    ]);
    expect(env.logs.map((e) => e.detail)).toEqual([
      expect.stringMatching(/^password did not verify for user 'root'/),
      "no root user 'ghost'",
      expect.stringMatching(/^password did not verify for user 'dbu'/),
    ]);
    expect(JSON.stringify(env.logs)).not.toContain("nope");
    expect(env.session.actor.level).toBe("No");
  });

  it("a non-PHC PASSHASH fails like a wrong password", async () => {
    await env.engine.defineUser("ROOT", "odd", { passhash: "plaintext" });
    await expect(env.iam.signin(env.session, { user: "odd", pass: "plaintext" })).rejects.toThrow("There was a problem with authentication");
  });

  it("missing user or pass on a user path", async () => {
    await expect(env.iam.signin(env.session, { user: "root" })).rejects.toThrow("Username or Password was not provided");
    await expect(env.iam.signin(env.session, { NS: "test", DB: "test", pass: "x" })).rejects.toThrow("Username or Password was not provided");
  });

  it("no signin target: DB without NS, SC/AC without NS", async () => {
    await expect(env.iam.signin(env.session, { DB: "test", user: "x", pass: "y" })).rejects.toThrow("No signin target to either SC or DB or NS or KV");
    await expect(env.iam.signin(env.session, { [SC(compat)]: "account", user: "x", pass: "y" })).rejects.toThrow(
      "No signin target to either SC or DB or NS or KV",
    );
  });

  it("NS + SC/AC: v1 no target, v2 NS access lookup", async () => {
    const p = env.iam.signin(env.session, { NS: "test", [SC(compat)]: "account" });
    await expect(p).rejects.toThrow(compat === 1 ? "No signin target to either SC or DB or NS or KV" : "The access method does not exist");
  });

  it("only exact key names count (namespace/username are SDK aliases)", async () => {
    await expect(env.iam.signin(env.session, { namespace: "test", username: "root", password: "rootpw" })).rejects.toThrow(
      "Username or Password was not provided",
    );
  });

  it("scope/record signin: every payload field is a variable, clause runs privileged, token and session per version", async () => {
    env.session.ip = "10.0.0.1";
    const vars = { NS: "test", DB: "test", [SC(compat)]: "account", email: "alice@example.com", password: "pw" };
    const { token } = await env.iam.signin(env.session, vars);
    const call = env.engine.evalCalls.at(-1)!;
    expect(call.vars).toEqual(vars);
    expect(call.session.actor.roles).toEqual(["EDITOR"]);
    expect(call.session.actor.level).toBe(compat === 1 ? "Root" : "Database");
    expect([call.session.ns, call.session.db, call.session.ip]).toEqual(["test", "test", "10.0.0.1"]);
    const c = decodeJwt(token);
    expect(Object.keys(c)).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "DB", SC(compat), "ID"]);
    expect(c.ID).toBe("user:alice");
    const now = Math.floor(env.engine.clock.now() / 1000);
    if (compat === 1) {
      expect(c.exp! - c.iat!).toBe(DAY);
      expect(env.session.exp).toBe(c.exp);
    } else {
      expect(c.exp! - c.iat!).toBe(15 * 60);
      expect(env.session.exp).toBe(now + DAY);
    }
    expect(env.session).toMatchObject({ ns: "test", db: "test", ac: "account", rd: alice });
    expect(env.session.actor).toEqual({ level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: "user:alice", roles: [] });
  });

  it("signin clause errors: no record, THROW passes through, other errors are the generic query failure", async () => {
    const base = { NS: "test", DB: "test", [SC(compat)]: "account" };
    await expect(env.iam.signin(env.session, { ...base, email: "x" })).rejects.toThrow("No record was returned");
    const results: [Value, string | undefined][] = [
      [[{ id: alice }, { id: new RecordId("user", "bob") }], "No record was returned"],
      [1n, "No record was returned"],
      [{ id: "user:alice" }, "No record was returned"],
      [[[alice]], undefined],
      [alice, undefined],
    ];
    for (const [result, error] of results) {
      const signin = clause(() => result);
      if (compat === 1) env.engine.defineScope("test", "test", "s2", { signin });
      else env.engine.defineRecordAccess("test", "test", "s2", { signin });
      const p = env.iam.signin(env.session, { NS: "test", DB: "test", [SC(compat)]: "s2" });
      if (error) await expect(p).rejects.toThrow(error);
      else await expect(p).resolves.toHaveProperty("token");
    }
    const thrower = clause(() => {
      throw new ThrownError("nope");
    });
    const failing = clause(() => {
      throw new Error("Found 'x' for field `email`, but expected a string");
    });
    if (compat === 1) env.engine.defineScope("test", "test", "bad", { signin: thrower, signup: failing });
    else env.engine.defineRecordAccess("test", "test", "bad", { signin: thrower, signup: failing });
    const bad = { NS: "test", DB: "test", [SC(compat)]: "bad" };
    await expect(env.iam.signin(env.session, bad)).rejects.toThrow("An error occurred: nope");
    await expect(env.iam.signup(env.session, bad)).rejects.toThrow(compat === 1 ? "The signup query failed" : "The record access signup query failed");
  });

  it("protected variable names fail as the generic query failure and never reach the clause", async () => {
    const names = compat === 1 ? ["auth", "scope", "token", "session"] : ["access", "auth", "token", "session"];
    const before = env.engine.evalCalls.length;
    for (const n of names) {
      await expect(env.iam.signin(env.session, { NS: "test", DB: "test", [SC(compat)]: "account", [n]: "x" })).rejects.toThrow(
        compat === 1 ? "The signin query failed" : "The record access signin query failed",
      );
    }
    expect(env.engine.evalCalls.length).toBe(before);
  });

  it("missing scope/access and missing clauses", async () => {
    await expect(env.iam.signin(env.session, { NS: "test", DB: "test", [SC(compat)]: "nope" })).rejects.toThrow(
      compat === 1 ? "The scope does not exist" : "The access method does not exist",
    );
    if (compat === 1) env.engine.defineScope("test", "test", "empty");
    else env.engine.defineRecordAccess("test", "test", "empty");
    const vars = { NS: "test", DB: "test", [SC(compat)]: "empty" };
    await expect(env.iam.signin(env.session, vars)).rejects.toThrow(compat === 1 ? "This scope does not allow signin" : "This record access method does not allow signin");
    await expect(env.iam.signup(env.session, vars)).rejects.toThrow(compat === 1 ? "This scope does not allow signup" : "This record access method does not allow signup");
  });

  it("signup needs NS, DB and SC/AC", async () => {
    await expect(env.iam.signup(env.session, { NS: "test", [SC(compat)]: "account" })).rejects.toThrow("There was a problem with signing up");
    await expect(env.iam.signup(env.session, { user: "root", pass: "rootpw" })).rejects.toThrow("There was a problem with signing up");
  });

  it("signup signs the new record in", async () => {
    const { token } = await env.iam.signup(env.session, { NS: "test", DB: "test", [SC(compat)]: "account", email: "a@b.c" });
    expect(decodeProtectedHeader(token)).toEqual({ typ: "JWT", alg: "HS512" });
    expect(env.session.rd).toEqual(alice);
  });
});

describe("v2 only", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let session: Session;
  beforeEach(async () => {
    env = await setup(2);
    session = env.session;
  });

  it("a JWT access, or a record access without issuer, cannot be used to sign in", async () => {
    env.engine.defineAccess("DATABASE", "api", {
      ns: "test",
      db: "test",
      access: { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS512", key: "secret" }, issuer: undefined } },
    });
    env.engine.defineRecordAccess("test", "test", "verifyOnly", {
      signin: clause(() => alice),
      jwt: { verify: { kind: "Key", alg: "RS256", key: "pem" }, issuer: undefined },
    });
    for (const ac of ["api", "verifyOnly"])
      await expect(env.iam.signin(session, { NS: "test", DB: "test", AC: ac })).rejects.toThrow("The access method cannot be used in the requested operation");
  });

  // SurrealDB 2.6.0 (differential probe over CBOR): a table value anywhere in the credentials is refused
  // before the dispatch, on every signin / signup path; 1.5.4 takes it as an ordinary variable.
  it("a non-computed value (a table, via CBOR) in the credentials: refused before the dispatch", async () => {
    const t = new Table("t");
    const evals = env.engine.evalCalls.length;
    for (const vars of [
      { user: "root", pass: "rootpw", x: t },
      { user: "root", pass: "wrong", x: [1n, { y: t }] },
      { user: t, pass: "rootpw" },
      { NS: "test", DB: "test", AC: "account", email: "alice@example.com", password: "pw", x: t },
      { NS: "test", DB: "test", AC: "nope", x: t },
      { DB: "test", x: t },
      { x: t },
    ]) {
      await expect(env.iam.signin(session, vars)).rejects.toThrow("Found a non-computed value where they are not allowed");
    }
    await expect(env.iam.signup(session, { NS: "test", DB: "test", AC: "account", x: t })).rejects.toThrow("Found a non-computed value where they are not allowed");
    await expect(env.iam.signup(session, { NS: "test", AC: "account", x: { t } })).rejects.toThrow("Found a non-computed value where they are not allowed");
    expect(env.engine.evalCalls.length).toBe(evals);
    expect(session.actor.level).toBe("No");
    // record ids, uuids, durations, bytes are computed values
    await env.iam.signin(session, { NS: "test", DB: "test", AC: "account", email: "alice@example.com", password: "pw", r: alice, d: sec(5), b: new Uint8Array([1]) });
    expect(session.rd).toEqual(alice);
  });

  it("AUTHENTICATE replaces the session identity, the token keeps the original ID", async () => {
    const admin = new RecordId("admin", 1n);
    env.engine.defineRecordAccess("test", "test", "auth", {
      signin: clause(() => alice),
      authenticate: clause((s) => {
        expect(s.rd).toEqual(alice);
        expect(s.tk).toMatchObject({ ID: "user:alice", AC: "auth" });
        return admin;
      }),
    });
    const { token } = await env.iam.signin(session, { NS: "test", DB: "test", AC: "auth" });
    expect(decodeJwt(token).ID).toBe("user:alice");
    expect(session.rd).toEqual(admin);
    expect(session.actor.id).toBe("admin:1");
  });

  it("AUTHENTICATE returning no record fails with InvalidAuth, THROW passes", async () => {
    env.engine.defineRecordAccess("test", "test", "a1", { signin: clause(() => alice), authenticate: clause(() => "no") });
    await expect(env.iam.signin(session, { NS: "test", DB: "test", AC: "a1" })).rejects.toThrow("There was a problem with authentication");
    env.engine.defineRecordAccess("test", "test", "a2", {
      signin: clause(() => alice),
      authenticate: clause(() => {
        throw new ThrownError("banned");
      }),
    });
    await expect(env.iam.signin(session, { NS: "test", DB: "test", AC: "a2" })).rejects.toThrow("An error occurred: banned");
  });

  it("system user DURATION FOR SESSION / FOR TOKEN", async () => {
    await env.engine.defineUser("ROOT", "short", { password: "pw", duration: { token: sec(60), session: sec(2 * HOUR) } });
    const { token } = await env.iam.signin(session, { user: "short", pass: "pw" });
    const c = decodeJwt(token);
    expect(c.exp! - c.iat!).toBe(60);
    expect(session.exp).toBe(c.iat! + 2 * HOUR);
  });

  it("a system-user signin clears the record identity of an earlier record signin", async () => {
    await env.iam.signup(session, { NS: "test", DB: "test", AC: "account" });
    await env.iam.signin(session, { user: "root", pass: "rootpw" });
    expect([session.ac, session.rd]).toEqual([undefined, undefined]);
  });
});

describe("v1 only", () => {
  it("a table in the credentials is an ordinary variable (no non-computed check)", async () => {
    const v1 = await setup(1);
    await v1.iam.signin(v1.session, { user: "root", pass: "rootpw", x: new Table("t") });
    expect(v1.session.actor.level).toBe("Root");
  });

  // SurrealDB 1.5.4 `signin::db` / `signin::ns` set Level::Database / Level::Namespace whatever level
  // verify_creds_legacy matched (oracle: INFO FOR NS after a root NS+DB signin is "Not enough permissions").
  it("legacy mode: a root user signing in with NS+DB gets a database-level session and token (its own roles)", async () => {
    const env = await setup(1);
    const { token } = await env.iam.signin(env.session, { NS: "test", DB: "test", user: "root", pass: "rootpw" });
    expect(decodeJwt(token)).toMatchObject({ NS: "test", DB: "test", ID: "root" });
    expect(env.session.actor).toEqual({ level: "Database", ns: "test", db: "test", id: "root", roles: ["OWNER"] });
    expect([env.session.ns, env.session.db]).toEqual(["test", "test"]);
  });

  it("legacy mode: the requested level wins for root (NS only) and namespace users (NS+DB); db is kept on an NS signin", async () => {
    const env = await setup(1);
    env.session.db = "kept";
    const ns = await env.iam.signin(env.session, { NS: "test", user: "root", pass: "rootpw" });
    expect(Object.keys(decodeJwt(ns.token))).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "ID"]);
    expect(env.session.actor).toEqual({ level: "Namespace", ns: "test", db: undefined, id: "root", roles: ["OWNER"] });
    expect([env.session.ns, env.session.db]).toEqual(["test", "kept"]);
    await env.iam.signin(env.session, { NS: "test", DB: "test", user: "nsu", pass: "nspw" });
    expect(env.session.actor).toEqual({ level: "Database", ns: "test", db: "test", id: "nsu", roles: ["EDITOR"] });
  });

  it("legacy mode: HTTP Basic keeps the level the user was found on", async () => {
    const env = await setup(1);
    await env.iam.basicAuth(env.session, "root", "rootpw", { ns: "test", db: "test" });
    expect(env.session.actor).toMatchObject({ level: "Root", id: "root" });
  });

  it("with auth levels enabled the search is per level", async () => {
    const engine = new FakeEngine(1);
    await engine.defineUser("ROOT", "root", { password: "rootpw" });
    const iam = new Iam(engine, { authLevelEnabled: true });
    await expect(iam.signin(newSession(), { NS: "test", DB: "test", user: "root", pass: "rootpw" })).rejects.toThrow(
      "There was a problem with authentication",
    );
  });

  it("the v1 token life is a setting (SurrealDB 1.5.4 itself: 1 h)", async () => {
    const engine = new FakeEngine(1);
    await engine.defineUser("ROOT", "root", { password: "pw" });
    const iam = new Iam(engine, { v1TokenDuration: HOUR });
    const c = decodeJwt((await iam.signin(newSession(), { user: "root", pass: "pw" })).token);
    expect(c.exp! - c.iat!).toBe(HOUR);
  });
});

describe("server-side log and insecure forwarding", () => {
  it("the log gets reasons, never passwords or tokens", async () => {
    const engine = new FakeEngine(2);
    const logs: string[] = [];
    const iam = new Iam(engine, { logger: { debug: (m, f) => logs.push(`${m} ${JSON.stringify(f)}`) }, audit: new Audit([(e) => logs.push(JSON.stringify(e))]) });
    await engine.defineUser("ROOT", "root", { password: "hunter2" });
    await expect(iam.signin(newSession(), { user: "root", pass: "hunter3" })).rejects.toThrow();
    const { token } = await iam.signin(newSession(), { user: "root", pass: "hunter2" });
    const forged = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    await expect(iam.authenticate(newSession(), forged)).rejects.toThrow();
    expect(logs.map((l) => JSON.parse(l) as AuditEvent).map((e) => [e.event, e.outcome])).toEqual([
      ["signin", "failure"],
      ["signin", "success"],
      ["authenticate", "failure"],
    ]);
    expect(logs.join("\n")).not.toMatch(/hunter|eyJ/);
  });

  it("forwardClauseErrors (SURREAL_INSECURE_FORWARD_ACCESS_ERRORS) shows the clause's own error", async () => {
    const engine = new FakeEngine(2);
    const boom = clause(() => {
      throw new Error("Database index `email` already contains 'a@b.c'");
    });
    engine.defineRecordAccess("test", "test", "account", { signup: boom });
    const vars = { NS: "test", DB: "test", AC: "account" };
    await expect(new Iam(engine).signup(newSession(), vars)).rejects.toThrow("The record access signup query failed");
    await expect(new Iam(engine, { forwardClauseErrors: true }).signup(newSession(), vars)).rejects.toThrow("already contains");
  });
});
