import { SignJWT } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import { INVALID_AUTH, InvalidAuth } from "../../src/errors/index.js";
import { newSession, type Session } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { Audit } from "../../src/iam/audit.js";
import { RecordId } from "../../src/value/types.js";
import { clause, DAY, FakeEngine, HOUR, sec } from "./fake-engine.js";

const enc = (s: string) => new TextEncoder().encode(s);
const alice = new RecordId("user", "alice");

function signer(engine: FakeEngine) {
  const now = () => Math.floor(engine.clock.now() / 1000);
  return (key: string, claims: Record<string, unknown>, alg = "HS512") =>
    new SignJWT({ iat: now(), exp: now() + HOUR, ...claims }).setProtectedHeader({ typ: "JWT", alg }).sign(enc(key));
}

describe("authenticate, compat 2", () => {
  let engine: FakeEngine;
  let iam: Iam;
  let session: Session;
  let sign: ReturnType<typeof signer>;
  beforeEach(async () => {
    engine = new FakeEngine(2);
    iam = new Iam(engine);
    session = newSession();
    sign = signer(engine);
    engine.defineAccess("DATABASE", "api", {
      ns: "test",
      db: "test",
      access: { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS512", key: "secret" }, issuer: undefined } },
      duration: { session: sec(2 * HOUR) },
    });
    engine.defineRecordAccess("test", "test", "account", { signin: clause(() => alice), signup: clause(() => alice), session: sec(DAY) });
  });

  it("a signed-in record user's token establishes the same identity on a fresh session", async () => {
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", AC: "account" });
    engine.clock.advance(60);
    await iam.authenticate(session, token);
    expect(session).toMatchObject({ ns: "test", db: "test", ac: "account", rd: alice });
    expect(session.actor).toEqual({ level: "Record", ns: "test", db: "test", id: "user:alice", roles: [] });
    // v2: session exp = now + access FOR SESSION, not the token's exp
    expect(session.exp).toBe(Math.floor(engine.clock.now() / 1000) + DAY);
    expect(session.tk).toMatchObject({ AC: "account", ID: "user:alice" });
  });

  it("system-user tokens: ROOT, NS, DB; session exp from the user's FOR SESSION (none by default)", async () => {
    await engine.defineUser("ROOT", "root", { password: "pw", roles: ["OWNER"] });
    await engine.defineUser("DATABASE", "dbu", { ns: "test", db: "test", password: "pw", duration: { session: sec(600) } });
    await engine.defineUser("NAMESPACE", "nsu", { ns: "test", password: "pw" });
    const root = (await iam.signin(newSession(), { user: "root", pass: "pw" })).token;
    const db = (await iam.signin(newSession(), { NS: "test", DB: "test", user: "dbu", pass: "pw" })).token;
    const ns = (await iam.signin(newSession(), { NS: "test", user: "nsu", pass: "pw" })).token;
    await iam.authenticate(session, root);
    expect(session.actor).toMatchObject({ level: "Root", id: "root", roles: ["OWNER"] });
    expect(session.exp).toBeUndefined();
    await iam.authenticate(session, db);
    expect(session.actor).toMatchObject({ level: "Database", id: "dbu", roles: ["VIEWER"] });
    expect(session.exp).toBe(Math.floor(engine.clock.now() / 1000) + 600);
    await iam.authenticate(session, ns);
    expect(session.actor).toMatchObject({ level: "Namespace", ns: "test", id: "nsu" });
  });

  it("a JWT access token: actor named after the access, roles from RL, custom claims in $token, aliases accepted", async () => {
    const t = await sign("secret", { "https://surrealdb.com/ns": "test", db: "test", ac: "api", rl: ["Editor"], foo: { a: [1, 2.5] } });
    await iam.authenticate(session, t);
    expect(session.actor).toEqual({ level: "Database", ns: "test", db: "test", id: "api", roles: ["EDITOR"] });
    expect(session.ac).toBe("api");
    expect(session.tk).toMatchObject({ NS: "test", DB: "test", AC: "api", RL: ["Editor"], foo: { a: [1n, 2.5] } });
    expect(session.exp).toBe(Math.floor(engine.clock.now() / 1000) + 2 * HOUR);
  });

  it("invalid RL role", async () => {
    await expect(iam.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "api", RL: ["bogus"] }))).rejects.toThrow(
      "IAM error: Invalid role 'bogus'",
    );
  });

  it("error table: every token that does not verify gets the one generic error (R9; SurrealDB 2.6.0's own text beside it)", async () => {
    // 2.6.0 names the missing access, namespace or database, so a token with any signature maps the deployment
    const cases: [Record<string, unknown>, string][] = [
      [{ NS: "test", DB: "test", AC: "api", exp: Math.floor(engine.clock.now() / 1000) - 10 }, "The token has expired"],
      [{ NS: "test", DB: "test", AC: "nope" }, "The access method 'nope' does not exist in the database 'test'"],
      [{ NS: "test", DB: "test", AC: "api", ID: "user:1" }, "The access method cannot be used in the requested operation"],
      [{ NS: "test", AC: "api" }, "The access method 'api' does not exist in the namespace 'test'"],
      [{ AC: "api" }, "The root access method 'api' does not exist"],
      [{ NS: "test", DB: "test", AC: "api", nbf: Math.floor(engine.clock.now() / 1000) + 100 }, INVALID_AUTH],
      [{ NS: "test", DB: "test", AC: "api", exp: undefined }, INVALID_AUTH],
      [{ NS: "other", DB: "test", AC: "api" }, "The access method 'api' does not exist in the database 'test'"],
      [{ NS: "test", DB: "other", AC: "api" }, "The access method 'api' does not exist in the database 'other'"],
      [{ NS: "test", DB: "test", ID: "ghost" }, INVALID_AUTH],
      [{ foo: "bar" }, INVALID_AUTH],
    ];
    // expiry is checked before any lookup, so its 2.6.0 text is kept (it names nothing)
    for (const [claims, theirs] of cases) {
      const ours = iam.authenticate(session, await sign("secret", claims));
      if (theirs === "The token has expired") await expect(ours).rejects.toThrow(theirs);
      else await expect(ours, JSON.stringify(claims)).rejects.toBeInstanceOf(InvalidAuth);
    }
    await expect(iam.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "api" }, "HS256"))).rejects.toThrow(
      "There was a problem with authentication",
    );
    await expect(iam.authenticate(session, await sign("wrong", { NS: "test", DB: "test", AC: "api" }))).rejects.toThrow(
      "There was a problem with authentication",
    );
    // a token for another access: signed with api's key but naming the record access
    await expect(iam.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "account", ID: "user:alice" }))).rejects.toThrow(
      "There was a problem with authentication",
    );
    // a DB user's genuine token carried to another namespace / database names a user that does not exist there
    await engine.defineUser("DATABASE", "dbu", { ns: "test", db: "test", password: "pw" });
    const genuine = (await iam.signin(newSession(), { NS: "test", DB: "test", user: "dbu", pass: "pw" })).token;
    const payload = JSON.parse(Buffer.from(genuine.split(".")[1]!, "base64url").toString());
    const [h, , sig] = genuine.split(".");
    for (const moved of [{ ...payload, DB: "other" }, { ...payload, NS: "other" }]) {
      const tampered = `${h}.${Buffer.from(JSON.stringify(moved)).toString("base64url")}.${sig}`;
      await expect(iam.authenticate(session, tampered)).rejects.toThrow("There was a problem with authentication");
    }
    expect(session.actor.level).toBe("No");
  });

  it("a record token for a record access without ID needs AUTHENTICATE; with it, the clause decides the record", async () => {
    // 2.6.0: "The access method cannot be used in the requested operation", before the signature is checked (R9)
    await expect(iam.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "account" }))).rejects.toBeInstanceOf(InvalidAuth);
    const ext = engine.defineRecordAccess("test", "test", "ext", {
      jwt: { verify: { kind: "Key", alg: "HS256", key: "ext-secret" }, issuer: { alg: "HS256", key: "ext-secret" } },
      authenticate: clause((s) => (s.tk?.email === "a@b.c" ? [{ id: alice }] : undefined)),
    });
    expect(ext.jwt.verify).toMatchObject({ alg: "HS256" });
    await iam.authenticate(session, await sign("ext-secret", { NS: "test", DB: "test", AC: "ext", email: "a@b.c" }, "HS256"));
    expect(session.rd).toEqual(alice);
    await expect(iam.authenticate(newSession(), await sign("ext-secret", { NS: "test", DB: "test", AC: "ext", email: "x" }, "HS256"))).rejects.toThrow(
      "There was a problem with authentication",
    );
  });

  it("JWT access AUTHENTICATE must return NONE", async () => {
    engine.defineAccess("DATABASE", "api2", {
      ns: "test",
      db: "test",
      access: { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS512", key: "s2" }, issuer: undefined } },
      authenticate: clause((s) => (s.tk?.ok === true ? undefined : "denied")),
    });
    await iam.authenticate(session, await sign("s2", { NS: "test", DB: "test", AC: "api2", ok: true }));
    await expect(iam.authenticate(session, await sign("s2", { NS: "test", DB: "test", AC: "api2", ok: false }))).rejects.toThrow(
      "There was a problem with authentication",
    );
  });

  it("record ids in the ID claim are parsed as SurrealQL", async () => {
    for (const [text, rid] of [
      ["user:⟨a b⟩", new RecordId("user", "a b")],
      ["user:`x.y`", new RecordId("user", "x.y")],
      ["user:42", new RecordId("user", 42n)],
    ] as const) {
      const code = engine.accesses.get("DATABASE/test/test/account")!.jwt.verify;
      if (code.kind !== "Key") throw new Error("unexpected");
      await iam.authenticate(session, await sign(code.key, { NS: "test", DB: "test", AC: "account", ID: text }));
      expect(session.rd).toEqual(rid);
    }
  });

  it("an unparsable ID claim is the generic error (2.6.0: a parse error, before the access is looked up)", async () => {
    // SurrealDB 2.6.0 answered "Parse error: Unexpected token `an identifier`, expected :" for an access that does not exist
    const logged: unknown[] = [];
    const quiet = new Iam(engine, { audit: new Audit([(event) => logged.push(event)]) });
    const e = await quiet.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "missing", ID: "not a rid" })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidAuth);
    // the parser's text reaches only the server log
    expect((e as InvalidAuth).reason).toMatch(/^Parse error: Unexpected token/);
    expect(logged).toHaveLength(1);
    expect(session.actor.level).toBe("No");
  });

  it("a failed authenticate leaves the previous session untouched", async () => {
    await iam.authenticate(session, await sign("secret", { NS: "test", DB: "test", AC: "api" }));
    const before = { ...session };
    await expect(iam.authenticate(session, await sign("wrong", { NS: "other", DB: "x", AC: "api" }))).rejects.toThrow();
    await expect(iam.authenticate(session, "garbage")).rejects.toThrow();
    expect({ ...session }).toEqual(before);
  });

  it("replayed tokens stop working once the user or access is removed or redefined", async () => {
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", AC: "account" });
    await iam.authenticate(newSession(), token);
    expect(iam.cachedTokens).toBe(1);
    engine.remove("access", "DATABASE", "account", "test", "test");
    expect(iam.cachedTokens).toBe(0);
    // 2.6.0: "The access method 'account' does not exist in the database 'test'" (R9)
    await expect(iam.authenticate(newSession(), token)).rejects.toBeInstanceOf(InvalidAuth);
    // redefined: a new random key, the old token no longer verifies
    engine.defineRecordAccess("test", "test", "account", { signin: clause(() => alice) });
    await expect(iam.authenticate(newSession(), token)).rejects.toThrow("There was a problem with authentication");

    await engine.defineUser("ROOT", "root", { password: "pw" });
    const rootToken = (await iam.signin(newSession(), { user: "root", pass: "pw" })).token;
    await iam.authenticate(newSession(), rootToken);
    engine.remove("user", "ROOT", "root");
    await expect(iam.authenticate(newSession(), rootToken)).rejects.toThrow("There was a problem with authentication");
  });

  it("a repeated authenticate is served from the cache until the token expires", async () => {
    const t = await sign("secret", { NS: "test", DB: "test", AC: "api", exp: Math.floor(engine.clock.now() / 1000) + 100 });
    await iam.authenticate(session, t);
    // same token again: served from the cache (no second entry), still checked against the clock
    const cachedBefore = iam.cachedTokens;
    await iam.authenticate(newSession(), t);
    expect(iam.cachedTokens).toBe(cachedBefore);
    engine.clock.advance(100);
    await iam.authenticate(newSession(), t); // now == exp: still valid
    engine.clock.advance(1);
    expect(iam.cachedTokens).toBe(cachedBefore - 1); // the entry died at the token's exp
    // 2.6.0 checks expiry before anything is looked up and says so (the text names nothing)
    await expect(iam.authenticate(newSession(), t)).rejects.toThrow("The token has expired");
  });
});

describe("authenticate, compat 1", () => {
  let engine: FakeEngine;
  let iam: Iam;
  let session: Session;
  let sign: ReturnType<typeof signer>;
  beforeEach(() => {
    engine = new FakeEngine(1);
    iam = new Iam(engine);
    session = newSession();
    sign = signer(engine);
    engine.defineScope("test", "test", "account", { session: sec(DAY), signin: clause(() => alice) });
    engine.defineAccess("DATABASE", "dbtoken", {
      ns: "test",
      db: "test",
      access: { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS256", key: "dbkey" }, issuer: undefined } },
      legacy: { kind: "Token", on: "DATABASE", scope: undefined, type: "HS256", value: "dbkey" },
    });
    engine.defineAccess("NAMESPACE", "nstoken", {
      ns: "test",
      access: { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS512", key: "nskey" }, issuer: undefined } },
      legacy: { kind: "Token", on: "NAMESPACE", scope: undefined, type: "HS512", value: "nskey" },
    });
    engine.defineAccess("DATABASE", "sctoken", {
      ns: "test",
      db: "test",
      access: { kind: "Record", signin: undefined, signup: undefined, jwt: { verify: { kind: "Key", alg: "HS384", key: "sckey" }, issuer: undefined }, refresh: false },
      legacy: { kind: "Token", on: "SCOPE", scope: "account", type: "HS384", value: "sckey" },
    });
  });

  it("a scope signin token re-establishes the scope user; session exp = token exp", async () => {
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", SC: "account" });
    await iam.authenticate(session, token);
    expect(session).toMatchObject({ ns: "test", db: "test", ac: "account", rd: alice });
    expect(session.actor).toMatchObject({ level: "Scope", id: "user:alice" });
    expect(session.exp).toBe(Math.floor(engine.clock.now() / 1000) + DAY);
  });

  it("scope, database and namespace tokens (DEFINE TOKEN); exp = token exp; roles from RL", async () => {
    const exp = Math.floor(engine.clock.now() / 1000) + 500;
    await iam.authenticate(session, await sign("sckey", { NS: "test", DB: "test", SC: "account", TK: "sctoken", ID: "user:alice", exp }, "HS384"));
    expect(session).toMatchObject({ ac: "account", rd: alice, exp, actor: { level: "Scope", id: "sctoken" } });
    await iam.authenticate(session, await sign("dbkey", { NS: "test", DB: "test", TK: "dbtoken", RL: ["Owner"], exp }, "HS256"));
    expect(session).toMatchObject({ ac: undefined, rd: undefined, exp, actor: { level: "Database", id: "dbtoken", roles: ["OWNER"] } });
    await iam.authenticate(session, await sign("nskey", { ns: "test", tk: "nstoken", exp }));
    expect(session.actor).toMatchObject({ level: "Namespace", id: "nstoken", roles: ["VIEWER"] });
  });

  it("v1 error table: unknown scopes and tokens get the generic error (R9; 1.5.4 names them: its text beside)", async () => {
    const past = Math.floor(engine.clock.now() / 1000) - 1;
    const cases: [string, Record<string, unknown>, string][] = [
      ["secret", { NS: "test", DB: "test", SC: "nope", ID: "user:1" }, INVALID_AUTH], // 1.5.4: The scope 'nope' does not exist
      ["secret", { NS: "test", DB: "test", SC: "account", TK: "nope" }, INVALID_AUTH], // 1.5.4: The scope token 'nope' does not exist
      ["secret", { NS: "test", DB: "test", TK: "nope" }, INVALID_AUTH], // 1.5.4: The database token 'nope' does not exist
      ["secret", { NS: "test", TK: "nope" }, INVALID_AUTH], // 1.5.4: The namespace token 'nope' does not exist
      ["dbkey", { NS: "test", DB: "test", TK: "dbtoken", exp: past }, INVALID_AUTH],
      ["dbkey", { NS: "test", DB: "test", AC: "dbtoken" }, INVALID_AUTH],
      // a verified token's own content may be named
      ["dbkey", { NS: "test", DB: "test", TK: "dbtoken", RL: ["Boss"] }, "IAM error: Invalid role 'Boss'"],
    ];
    for (const [key, claims, message] of cases)
      await expect(iam.authenticate(session, await sign(key, claims, key === "dbkey" ? "HS256" : "HS512")), JSON.stringify(claims)).rejects.toThrow(message);
  });
});

describe("token cache", () => {
  it("a repeated authenticate of a JWKS-verified token needs no new fetch or signature check; a REMOVE drops it", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const { exportJWK } = await import("jose");
    const kp = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = { ...(await exportJWK(kp.publicKey)), kid: "k1" };
    let fetches = 0;
    const fakeFetch = (async () => {
      fetches++;
      return new Response(JSON.stringify({ keys: [jwk] }), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    const engine = new FakeEngine(2);
    const iam = new Iam(engine, { fetch: fakeFetch });
    engine.defineAccess("ROOT", "ext", { access: { kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "https://idp.example/jwks" }, issuer: undefined } } });
    const now = Math.floor(engine.clock.now() / 1000);
    const token = await new SignJWT({ AC: "ext", exp: now + 20 * 3600 }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(kp.privateKey);
    for (let i = 0; i < 5; i++) await iam.authenticate(newSession(), token);
    expect([fetches, iam.cachedTokens]).toEqual([1, 1]);
    // past the JWKS cache's 12 h: the cached token needs no verification (no refetch) …
    engine.clock.advance(12 * 3600 + 1);
    await iam.authenticate(newSession(), token);
    expect(fetches).toBe(1);
    // … while a new token is verified, which refetches the set
    const other = await new SignJWT({ AC: "ext", exp: now + 20 * 3600 }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(kp.privateKey);
    await iam.authenticate(newSession(), other);
    expect([fetches, iam.cachedTokens]).toEqual([2, 2]);
    engine.remove("access", "ROOT", "ext");
    expect(iam.cachedTokens).toBe(0);
    // 2.6.0: "The root access method 'ext' does not exist" (R9)
    await expect(iam.authenticate(newSession(), token)).rejects.toBeInstanceOf(InvalidAuth);
  });
});

describe("record id text in the ID claim", () => {
  it.each([
    [1, "user:⟨a b⟩"],
    [2, "user:`a b`"],
  ] as const)("compat %i prints it as SurrealDB does (%s) and reads it back", async (compat, text) => {
    const engine = new FakeEngine(compat);
    const iam = new Iam(engine);
    const rid = new RecordId("user", "a b");
    if (compat === 1) engine.defineScope("test", "test", "account", { signin: clause(() => rid) });
    else engine.defineRecordAccess("test", "test", "account", { signin: clause(() => rid) });
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account" });
    const { decodeJwt } = await import("jose");
    expect(decodeJwt(token).ID).toBe(text);
    const s = newSession();
    await iam.authenticate(s, token);
    expect(s.rd).toEqual(rid);
    expect(s.actor.id).toBe(text);
  });
});

describe("asymmetric record access (WITH JWT ALGORITHM RS256 KEY … WITH ISSUER KEY …)", () => {
  it("signs with the issuer's private key, verifies with the public key", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const { decodeProtectedHeader } = await import("jose");
    const kp = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pub = kp.publicKey.export({ type: "spki", format: "pem" }).toString();
    const priv = kp.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const engine = new FakeEngine(2);
    const iam = new Iam(engine);
    engine.defineRecordAccess("test", "test", "rs", {
      signin: clause(() => alice),
      jwt: { verify: { kind: "Key", alg: "RS256", key: pub }, issuer: { alg: "RS256", key: priv } },
    });
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", AC: "rs" });
    expect(decodeProtectedHeader(token)).toEqual({ typ: "JWT", alg: "RS256" });
    const s = newSession();
    await iam.authenticate(s, token);
    expect(s.rd).toEqual(alice);
  });
});
