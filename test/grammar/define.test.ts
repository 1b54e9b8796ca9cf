import { describe, expect, it } from "vitest";
import { Duration } from "../../src/value/types.js";
import { one, parseFails, strip } from "./helpers.js";
import { parse } from "../../grammar/index.js";

const h = (n: bigint) => new Duration(n * 3_600_000_000_000n);
const m = (n: bigint) => new Duration(n * 60_000_000_000n);

describe("DEFINE NAMESPACE / DATABASE", () => {
  it("names, IF NOT EXISTS, OVERWRITE, COMMENT", () => {
    expect(strip(one("DEFINE NAMESPACE IF NOT EXISTS test COMMENT 'c'", "DefineNamespace"))).toEqual({ kind: "DefineNamespace", name: "test", ifNotExists: true, overwrite: false, comment: "c" });
    const db = one("define db OVERWRITE app CHANGEFEED 1h", "DefineDatabase");
    expect([db.name, db.overwrite, db.ifNotExists, db.changefeed]).toEqual(["app", true, false, h(1n)]);
  });
  it("IF after the kind always opens IF NOT EXISTS (decided on one token: never a name `if`)", () => {
    for (const kind of ["TABLE", "FIELD", "INDEX", "EVENT", "USER", "ACCESS", "PARAM", "FUNCTION"]) {
      expect(parseFails(`DEFINE ${kind} IF EXISTS x`).message).toContain("Unexpected token `EXISTS`, expected `NOT`");
    }
  });
});

describe("DEFINE USER", () => {
  it("defaults roles to VIEWER and durations to not written", () => {
    const u = one("DEFINE USER u ON ROOT PASSWORD 'pw'", "DefineUser");
    expect([u.base, u.password, u.passhash, u.roles, u.duration]).toEqual(["ROOT", "pw", undefined, ["VIEWER"], {}]);
  });
  it("accepts every base spelling and clause order, upper-cases roles", () => {
    for (const [b, base] of [["KV", "ROOT"], ["NS", "NAMESPACE"], ["namespace", "NAMESPACE"], ["DB", "DATABASE"], ["DATABASE", "DATABASE"]] as const) {
      expect(one(`DEFINE USER u ON ${b} PASSHASH 'h'`, "DefineUser").base).toBe(base);
    }
    const u = one("DEFINE USER u ON DB COMMENT 'x' ROLES owner, Editor DURATION FOR SESSION 2h FOR TOKEN 15m PASSHASH '$argon2id$v=19$x'", "DefineUser");
    expect([u.roles, u.passhash, u.comment, u.duration]).toEqual([["OWNER", "EDITOR"], "$argon2id$v=19$x", "x", { session: h(2n), token: m(15n) }]);
  });
  it("keeps the roles as written for INFO … STRUCTURE (oracle 2.6: [\"owner\", \"Editor\"], default [\"Viewer\"])", () => {
    expect(one("DEFINE USER u ON DB PASSHASH 'x' ROLES owner, Editor", "DefineUser").rolesAsWritten).toEqual(["owner", "Editor"]);
    expect(one("DEFINE USER u ON DB PASSHASH 'x'", "DefineUser").rolesAsWritten).toEqual(["Viewer"]);
  });
  it("FOR SESSION NONE is null; FOR TOKEN NONE and unknown roles are parse errors", () => {
    expect(one("DEFINE USER u ON ROOT DURATION FOR TOKEN 1h, FOR SESSION NONE", "DefineUser").duration).toEqual({ token: h(1n), session: null });
    const e = parseFails("DEFINE USER u ON ROOT DURATION FOR TOKEN NONE");
    expect(e.message).toContain("Unexpected token `NONE`, expected a token duration");
    expect(e.column).toBe(42);
    expect(parseFails("DEFINE USER u ON ROOT ROLES admin").message).toContain("Invalid role 'admin'");
    expect(parseFails("DEFINE USER u ON ROOT DURATION FOR GRANT 1d").message).toContain("GRANT");
    expect(parseFails("DEFINE USER u PASSWORD 'x'").message).toContain("expected `ON`");
  });
});

describe("DEFINE ACCESS", () => {
  it("TYPE RECORD with SIGNUP, SIGNIN, WITH JWT, WITH REFRESH, AUTHENTICATE, DURATION", () => {
    const a = one(
      `DEFINE ACCESS account ON DATABASE TYPE RECORD
         SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email)
         WITH JWT ALGORITHM RS256 KEY 'pub' WITH ISSUER KEY 'priv', WITH REFRESH
         AUTHENTICATE { RETURN $auth }
         DURATION FOR GRANT 30d, FOR TOKEN 15m, FOR SESSION NONE COMMENT 'acc'`,
      "DefineAccess",
    );
    expect(a.base).toBe("DATABASE");
    expect(a.access.kind).toBe("Record");
    if (a.access.kind !== "Record") return;
    expect(a.access.signup?.kind).toBe("Subquery");
    expect(a.access.signin?.kind).toBe("Subquery");
    expect(a.access.jwt).toEqual({ verify: { kind: "Key", alg: "RS256", key: "pub" }, issuer: { alg: "RS256", key: "priv" } });
    expect(a.access.refresh).toBe(true);
    expect(a.authenticate?.kind).toBe("Block");
    expect(a.duration).toEqual({ grant: new Duration(30n * 86_400_000_000_000n), token: m(15n), session: null });
    expect([a.comment, a.legacy]).toEqual(["acc", undefined]);
  });
  it("omitted TYPE means RECORD with default JWT, even ON NS (SurrealDB 2.6 quirk)", () => {
    const a = one("DEFINE ACCESS a ON DB", "DefineAccess");
    expect(a.access).toEqual({ kind: "Record", signup: undefined, signin: undefined, jwt: undefined, refresh: false });
    expect(one("DEFINE ACCESS a ON NS", "DefineAccess").access.kind).toBe("Record");
  });
  it("TYPE JWT with key or URL; algorithms case-insensitive", () => {
    const a = one("DEFINE ACCESS api ON NS TYPE JWT ALGORITHM hs256 KEY 'secret'", "DefineAccess");
    expect(a.access).toEqual({ kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS256", key: "secret" }, issuer: undefined } });
    const b = one("DEFINE ACCESS api ON ROOT TYPE JWT URL 'https://x/jwks'", "DefineAccess");
    expect(b.access).toEqual({ kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "https://x/jwks" }, issuer: undefined } });
    expect(parseFails("DEFINE ACCESS api ON ROOT TYPE JWT ALGORITHM XX999 KEY 'k'").message).toContain("expected an algorithm");
    expect(parseFails("DEFINE ACCESS a ON DB TYPE JWT KEY 'x'").message).toContain("Unexpected token `KEY`, expected `ALGORITHM`, or `URL`");
    expect(parseFails("DEFINE ACCESS a ON DB TYPE JWT ALGORITHM HS512").message).toContain("KEY");
  });
  it("TYPE BEARER FOR USER | RECORD", () => {
    expect(one("DEFINE ACCESS b ON NS TYPE BEARER FOR USER", "DefineAccess").access).toEqual({ kind: "Bearer", subject: "USER", jwt: undefined });
    expect(one("DEFINE ACCESS b ON DB TYPE BEARER FOR RECORD", "DefineAccess").access).toEqual({ kind: "Bearer", subject: "RECORD", jwt: undefined });
    expect(parseFails("DEFINE ACCESS b ON NS TYPE BEARER FOR RECORD")).toBeDefined();
  });
  it("rejects RECORD outside DATABASE and a different HS issuer key", () => {
    expect(parseFails("DEFINE ACCESS a ON ROOT TYPE RECORD").message).toContain("Unexpected token `RECORD`");
    expect(parseFails("DEFINE ACCESS a ON NS TYPE RECORD").line).toBe(1);
    expect(parseFails("DEFINE ACCESS a ON DB TYPE JWT ALGORITHM HS512 KEY 'a' WITH ISSUER KEY 'b'").message).toContain("issuer key");
    expect(parseFails("DEFINE ACCESS a ON DB TYPE JWT ALGORITHM RS256 KEY 'a' WITH ISSUER ALGORITHM PS256 KEY 'b'").message).toContain("algorithm");
    expect(parseFails("DEFINE ACCESS a ON DB DURATION FOR TOKEN NONE").message).toContain("expected a token duration");
  });
});

describe("legacy DEFINE SCOPE / DEFINE TOKEN desugar into DefineAccess", () => {
  it("DEFINE SCOPE → database record access with legacy Scope", () => {
    const a = one("DEFINE SCOPE account SESSION 24h SIGNUP (CREATE user) SIGNIN (SELECT * FROM user) COMMENT 'c'", "DefineAccess");
    expect(a.base).toBe("DATABASE");
    expect(a.access.kind).toBe("Record");
    if (a.access.kind === "Record") {
      expect([a.access.jwt, a.access.refresh, a.access.signup?.kind, a.access.signin?.kind]).toEqual([undefined, false, "Subquery", "Subquery"]);
    }
    expect(a.duration).toEqual({ session: h(24n) });
    expect(a.legacy).toEqual({ kind: "Scope", session: h(24n) });
    expect(a.comment).toBe("c");
  });
  it("DEFINE SCOPE without SESSION", () => {
    const a = one("DEFINE SCOPE s", "DefineAccess");
    expect([a.duration, a.legacy]).toEqual([{}, { kind: "Scope", session: undefined }]);
  });
  it("DEFINE TOKEN ON NS / DB → JWT access without issuer", () => {
    const a = one("DEFINE TOKEN t ON NAMESPACE TYPE RS256 VALUE 'pem'", "DefineAccess");
    expect([a.base, a.access]).toEqual(["NAMESPACE", { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "RS256", key: "pem" }, issuer: undefined } }]);
    expect(a.legacy).toEqual({ kind: "Token", on: "NAMESPACE", scope: undefined, type: "RS256", value: "pem" });
    const j = one("DEFINE TOKEN t ON DB TYPE jwks VALUE 'https://k'", "DefineAccess");
    expect([j.base, j.access, j.legacy]).toEqual(["DATABASE", { kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "https://k" }, issuer: undefined } }, { kind: "Token", on: "DATABASE", scope: undefined, type: "JWKS", value: "https://k" }]);
  });
  it("DEFINE TOKEN defaults TYPE to HS512 and needs VALUE", () => {
    expect(one("DEFINE TOKEN t ON DB VALUE 'k'", "DefineAccess").legacy).toEqual({ kind: "Token", on: "DATABASE", scope: undefined, type: "HS512", value: "k" });
    expect(parseFails("DEFINE TOKEN t ON DB TYPE HS512").message).toContain("VALUE");
    const root = one("DEFINE TOKEN t ON ROOT TYPE HS256 VALUE 'k'", "DefineAccess"); // 2.6 accepts; 1.x fails at run time
    expect([root.base, root.access.kind, root.legacy]).toEqual(["ROOT", "Jwt", { kind: "Token", on: "ROOT", scope: undefined, type: "HS256", value: "k" }]);
  });
  it("DEFINE TOKEN ON SCOPE → database record access named after the token", () => {
    const a = one("DEFINE TOKEN tk ON SCOPE account TYPE HS256 VALUE 'secret'", "DefineAccess");
    expect([a.name, a.base]).toEqual(["tk", "DATABASE"]);
    expect(a.access).toEqual({ kind: "Record", signup: undefined, signin: undefined, jwt: { verify: { kind: "Key", alg: "HS256", key: "secret" }, issuer: undefined }, refresh: false });
    expect(a.legacy).toEqual({ kind: "Token", on: "SCOPE", scope: "account", type: "HS256", value: "secret" });
  });
});

describe("DEFINE TABLE", () => {
  it("defaults: schemaless, TYPE ANY, permissions NONE, not written", () => {
    const t = one("DEFINE TABLE user", "DefineTable");
    expect([t.drop, t.schemafull, t.tableType, t.view, t.changefeed, t.permissionsWritten]).toEqual([false, false, { kind: "Any" }, undefined, undefined, false]);
    expect(t.permissions).toEqual({ select: { kind: "None" }, create: { kind: "None" }, update: { kind: "None" }, delete: { kind: "None" } });
  });
  it("PERMISSIONS FOR lists leave unlisted actions NONE", () => {
    const t = one("DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update WHERE id = $auth.id, FOR create FULL", "DefineTable");
    expect(t.schemafull).toBe(true);
    expect(t.permissionsWritten).toBe(true);
    expect(t.permissions.select.kind).toBe("Where");
    expect(t.permissions.update).toEqual(t.permissions.select);
    expect(t.permissions.create).toEqual({ kind: "Full" });
    expect(t.permissions.delete).toEqual({ kind: "None" });
    expect(one("DEFINE TABLE t PERMISSIONS FULL", "DefineTable").permissions.delete).toEqual({ kind: "Full" });
  });
  it("TYPE RELATION IN/FROM OUT/TO ENFORCED, NORMAL, DROP, CHANGEFEED, AS SELECT", () => {
    expect(one("DEFINE TABLE likes TYPE RELATION IN person OUT person | robot ENFORCED", "DefineTable").tableType).toEqual({ kind: "Relation", from: ["person"], to: ["person", "robot"], enforced: true });
    expect(one("DEFINE TABLE t SCHEMAFULL", "DefineTable").tableTypeWritten).toBe(false);
    expect(one("DEFINE TABLE t TYPE ANY SCHEMAFULL", "DefineTable").tableTypeWritten).toBe(true);
    expect(one("DEFINE TABLE likes TYPE RELATION FROM a TO b", "DefineTable").tableType).toEqual({ kind: "Relation", from: ["a"], to: ["b"], enforced: false });
    expect(one("DEFINE TABLE t TYPE NORMAL DROP", "DefineTable").tableType).toEqual({ kind: "Normal" });
    const t = one("DEFINE TABLE t DROP SCHEMALESS CHANGEFEED 1h INCLUDE ORIGINAL", "DefineTable");
    expect([t.drop, t.schemafull, t.changefeed]).toEqual([true, false, { expiry: h(1n), includeOriginal: true }]);
    const v = one("DEFINE TABLE v AS SELECT count() AS n, age FROM person GROUP BY age", "DefineTable");
    expect(v.view?.kind).toBe("Select");
    expect(v.view?.group?.fields).toHaveLength(1);
    expect(one("DEFINE TABLE v AS (SELECT * FROM person)", "DefineTable").view?.kind).toBe("Select");
  });
  it("tables named like keywords", () => {
    for (const name of ["user", "session", "value", "type", "access", "token"]) expect(one(`DEFINE TABLE ${name}`, "DefineTable").name).toBe(name);
  });
});

describe("DEFINE FIELD", () => {
  it("path names, clauses in any order, permissions default FULL", () => {
    const f = one("DEFINE FIELD tags[*] ON TABLE post TYPE string ASSERT $value != '' DEFAULT 'x' READONLY", "DefineField");
    expect(f.name).toEqual({ kind: "Idiom", parts: [{ kind: "Field", name: "tags" }, { kind: "All" }], pos: f.name.pos });
    expect([f.table, f.type, f.readonly, f.defaultAlways, f.permissionsWritten]).toEqual(["post", { kind: "Basic", name: "string" }, true, false, false]);
    expect(f.permissions.select).toEqual({ kind: "Full" });
    expect(f.permissions.delete).toEqual({ kind: "Full" });
    expect(strip(one("DEFINE FIELD a.b.* ON t", "DefineField").name.parts)).toEqual([{ kind: "Field", name: "a" }, { kind: "Field", name: "b" }, { kind: "All" }]);
  });
  it("FLEXIBLE, VALUE, DEFAULT ALWAYS, PERMISSIONS FOR leaves the rest FULL", () => {
    const f = one("DEFINE FIELD meta ON user FLEXIBLE TYPE object VALUE $value OR {} DEFAULT ALWAYS {} PERMISSIONS FOR update NONE", "DefineField");
    expect([f.flexible, f.defaultAlways, f.value?.kind, f.default?.kind]).toEqual([true, true, "Binary", "Object"]);
    expect(f.permissions).toEqual({ select: { kind: "Full" }, create: { kind: "Full" }, update: { kind: "None" }, delete: { kind: "Full" } });
    expect(f.permissionsWritten).toBe(true);
  });
  it("fields named like keywords and types", () => {
    for (const name of ["value", "type", "user", "name", "password", "in", "out"]) expect(strip(one(`DEFINE FIELD ${name} ON t`, "DefineField").name.parts)).toEqual([{ kind: "Field", name }]);
    const types = (t: string) => strip(one(`DEFINE FIELD f ON t TYPE ${t}`, "DefineField").type);
    expect(types("option<record<user | admin>>")).toEqual({ kind: "Option", inner: { kind: "Record", tables: ["user", "admin"] } });
    expect(types("array<string, 10>")).toEqual({ kind: "Array", inner: { kind: "Basic", name: "string" }, max: 10 });
    expect(types("set")).toEqual({ kind: "Set", inner: undefined, max: undefined });
    expect(types("record")).toEqual({ kind: "Record", tables: [] });
    expect(types("int | string")).toEqual({ kind: "Either", types: [{ kind: "Basic", name: "int" }, { kind: "Basic", name: "string" }] });
    expect(types(`"a" | "b"`)).toEqual({ kind: "Either", types: [{ kind: "Literal", value: { kind: "Literal", value: "a" } }, { kind: "Literal", value: { kind: "Literal", value: "b" } }] });
    expect(types("geometry<point>")).toEqual({ kind: "Geometry", types: ["point"] });
    expect(parseFails("DEFINE FIELD f ON t TYPE strng").message).toContain("expected a kind name");
    expect(parseFails("DEFINE FIELD f ON t TYPE boolean").message).toContain("expected a kind name");
  });
});

describe("DEFINE INDEX / PARAM / EVENT / FUNCTION / ANALYZER", () => {
  it("INDEX with FIELDS or COLUMNS, UNIQUE; SEARCH/MTREE/HNSW are refused with a clear error (not stored as plain indexes)", () => {
    const i = one("DEFINE INDEX email ON TABLE user FIELDS email, name.first UNIQUE", "DefineIndex");
    expect([i.name, i.table, i.unique, i.fields.length]).toEqual(["email", "user", true, 2]);
    expect(one("DEFINE INDEX i ON user COLUMNS a", "DefineIndex").unique).toBe(false);
    expect(() => parse("DEFINE INDEX ft ON post FIELDS body SEARCH ANALYZER ascii BM25(1.2,0.75) HIGHLIGHTS COMMENT 'x'")).toThrow(
      "Parse error: SEARCH indexes (full-text and vector search) are not supported by surql-auth\n",
    );
    expect(() => parse("DEFINE INDEX v ON post FIELDS emb MTREE DIMENSION 2")).toThrow("MTREE indexes (full-text and vector search) are not supported");
    expect(() => parse("DEFINE INDEX v ON post FIELDS emb HNSW DIMENSION 2")).toThrow("HNSW indexes (full-text and vector search) are not supported");
  });
  it("PARAM needs VALUE; permissions default FULL", () => {
    const p = one("DEFINE PARAM $limit VALUE 10", "DefineParam");
    expect([p.name, p.value, p.permissions]).toEqual(["limit", { kind: "Literal", value: 10n, pos: p.value.pos }, { kind: "Full" }]);
    expect(one("DEFINE PARAM $p VALUE 1 PERMISSIONS NONE", "DefineParam").permissions).toEqual({ kind: "None" });
    expect(one("DEFINE PARAM $p VALUE 1 PERMISSIONS WHERE $auth", "DefineParam").permissions.kind).toBe("Where");
    expect(parseFails("DEFINE PARAM $p").message).toContain("VALUE");
  });
  it("EVENT: WHEN defaults to true; THEN several expressions or a block", () => {
    const e = one("DEFINE EVENT e ON user THEN (CREATE log), (UPDATE x SET y = 1)", "DefineEvent");
    expect([e.table, e.when, e.then.length]).toEqual(["user", { kind: "Literal", value: true }, 2]);
    const b = one("DEFINE EVENT e ON TABLE user WHEN $event = 'CREATE' THEN { CREATE log SET at = time::now(); }", "DefineEvent");
    expect([b.when.kind, b.then[0].kind]).toEqual(["Binary", "Block"]);
  });
  it("FUNCTION with typed args, return type, body, permissions", () => {
    const f = one("DEFINE FUNCTION fn::auth::check($id: record<user>, $n: option<int>) -> bool { RETURN $id != NONE; } PERMISSIONS WHERE $auth COMMENT 'c'", "DefineFunction");
    expect(f.name).toBe("auth::check");
    expect(strip(f.args)).toEqual([{ name: "id", type: { kind: "Record", tables: ["user"] } }, { name: "n", type: { kind: "Option", inner: { kind: "Basic", name: "int" } } }]);
    expect([f.returns, f.body.statements.length, f.permissions.kind, f.comment]).toEqual([{ kind: "Basic", name: "bool" }, 1, "Where", "c"]);
    expect(one("DEFINE FUNCTION fn::f() { 1 }", "DefineFunction").permissions).toEqual({ kind: "Full" });
    expect(parseFails("DEFINE FUNCTION foo::f() { 1 }").message).toContain("expected `fn`");
  });
  it("ANALYZER keeps its definition text", () => {
    const a = one("DEFINE ANALYZER ascii TOKENIZERS class FILTERS lowercase, ascii COMMENT 'x'", "DefineAnalyzer");
    expect([a.name, a.text, a.comment]).toEqual(["ascii", "TOKENIZERS class FILTERS lowercase, ascii", "x"]);
  });
});

describe("REMOVE", () => {
  it("every target with IF EXISTS and ON", () => {
    const r = (t: string) => strip(one(t, "Remove"));
    expect(r("REMOVE NS test")).toEqual({ kind: "Remove", target: "NAMESPACE", name: "test", ifExists: false, base: undefined, scope: undefined, table: undefined });
    expect(r("REMOVE DATABASE IF EXISTS app")).toMatchObject({ target: "DATABASE", ifExists: true });
    expect(r("REMOVE USER u ON ROOT")).toMatchObject({ target: "USER", name: "u", base: "ROOT" });
    expect(r("REMOVE ACCESS a ON DB")).toMatchObject({ target: "ACCESS", base: "DATABASE" });
    expect(r("REMOVE TOKEN t ON SCOPE s")).toMatchObject({ target: "TOKEN", base: "DATABASE", scope: "s" });
    expect(r("REMOVE SCOPE s")).toMatchObject({ target: "SCOPE", name: "s" });
    expect(r("REMOVE FIELD a.b ON TABLE t")).toMatchObject({ target: "FIELD", name: "a.b", table: "t" });
    expect(r("REMOVE INDEX i ON t")).toMatchObject({ target: "INDEX", name: "i", table: "t" });
    expect(r("REMOVE EVENT e ON db")).toMatchObject({ target: "EVENT", table: "db", base: undefined });
    expect(r("REMOVE PARAM $p")).toMatchObject({ target: "PARAM", name: "p" });
    expect(r("REMOVE FUNCTION fn::a::b")).toMatchObject({ target: "FUNCTION", name: "a::b" });
    expect(r("REMOVE TABLE IF EXISTS user")).toMatchObject({ target: "TABLE", name: "user", ifExists: true });
    expect(r("REMOVE ANALYZER ascii")).toMatchObject({ target: "ANALYZER" });
  });
});
