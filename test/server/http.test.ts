// HTTP routes through a real listening server (127.0.0.1, free port) with fake engine and IAM: every route and error path.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as rawRequest } from "node:http";
import { NotAllowed, QueryError } from "../../src/errors/index.js";
import { decodeCbor, encodeCbor } from "../../src/server/codec/cbor.js";
import { RecordId, Table, type Value } from "../../src/value/types.js";
import { startServer, type TestServer } from "./fakes.js";

const AUTH_FAILED = {
  code: 401,
  details: "Authentication failed",
  description: "Your authentication details are invalid. Reauthenticate using valid authentication parameters.",
  information: "There was a problem with authentication",
};
const bad = (information: string) => ({
  code: 400,
  details: "Request problems detected",
  description: "There is a problem with your request. Refer to the documentation for further information.",
  information,
});
const UNSUPPORTED = {
  code: 415,
  details: "Unsupported media type",
  description: "The request needs to adhere to certain constraints. Refer to the documentation for supported content types.",
};
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const JSON_ACCEPT = { accept: "application/json" };

let v2: TestServer;
let v1: TestServer;
beforeAll(async () => {
  v2 = await startServer({ compat: 2 });
  v1 = await startServer({ compat: 1 });
});
afterAll(async () => {
  await v2.close();
  await v1.close();
});

async function call(s: TestServer, path: string, init: RequestInit = {}) {
  const res = await fetch(s.base + path, { redirect: "manual", ...init });
  const body = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(body).toString("utf8");
  return { status: res.status, headers: res.headers, body, text, json: () => JSON.parse(text) };
}

describe("simple routes and common headers", () => {
  it.each([
    ["/health", 200, ""],
    ["/status", 200, ""],
    ["/version", 200, "surrealdb-2.6.0"],
  ])("GET %s", async (path, status, text) => {
    const r = await call(v2, path);
    expect([r.status, r.text]).toEqual([status, text]);
    expect(r.headers.get("server")).toBe("SurrealDB");
    expect(r.headers.get("surreal-version")).toBe("surrealdb-2.6.0");
  });

  it("v1 reports 1.5.4", async () => {
    const r = await call(v1, "/version");
    expect(r.text).toBe("surrealdb-1.5.4");
    expect(r.headers.get("surreal-version")).toBe("surrealdb-1.5.4");
  });

  it("GET / is the admin console (test/console/), not a redirect to surrealdb.com", async () => {
    const r = await call(v2, "/");
    expect(r.status).not.toBe(307);
    expect(r.headers.get("location")).toBeNull();
    expect(r.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("unknown routes are 404, wrong methods 405, OPTIONS answers CORS", async () => {
    expect((await call(v2, "/nope")).status).toBe(404);
    expect((await call(v2, "/signin")).status).toBe(405);
    expect((await call(v2, "/rpc")).status).toBe(405);
    const o = await call(v2, "/sql", { method: "OPTIONS", headers: { origin: "http://x" } });
    expect(o.status).toBe(200);
    expect(o.headers.get("access-control-allow-origin")).toBe("*");
    expect(o.headers.get("access-control-allow-methods")).toContain("POST");
  });
});

describe("auth middleware", () => {
  it("Basic credentials authenticate the request, with surreal-auth-ns/db as the level", async () => {
    const r = await call(v2, "/sql", {
      method: "POST",
      body: "RETURN 1",
      headers: { ...JSON_ACCEPT, authorization: basic("root", "root"), "surreal-auth-ns": "n", "surreal-auth-db": "d" },
    });
    expect(r.status).toBe(200);
    expect(v2.engine.last.actor).toBe("root");
    expect(v2.iam.basicCalls.at(-1)).toEqual({ user: "root", pass: "root", level: { ns: "n", db: "d" } });
  });

  it.each<[string, string, string]>([
    ["an unknown user", basic("nobody", "x"), "There was a problem with authentication"],
    ["a wrong password (stricter than SurrealDB: same text as an unknown user)", basic("root", "x"), "There was a problem with authentication"],
    // an expired or forged token is the iam's generic InvalidAuth ("an invalid token"); a verified one may say more
    ["a verified token with a bad role", "Bearer tok-badrole", "There was a problem with the database: IAM error: Invalid role 'Boss'"],
    ["an invalid token", "Bearer garbage", "There was a problem with authentication"],
    ["an empty bearer", "Bearer ", "There was a problem with authentication"],
    ["Basic without a colon", `Basic ${Buffer.from("root").toString("base64")}`, "There was a problem with authentication"],
    ["an unknown scheme", "Digest abc", "There was a problem with authentication"],
  ])("401 plain text for %s", async (_name, authorization, text) => {
    const r = await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, authorization } });
    expect(r.status).toBe(401);
    expect(r.text).toBe(text);
    expect(r.headers.get("content-type")).toContain("text/plain");
  });

  it("Bearer tokens authenticate", async () => {
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, authorization: "Bearer tok-root" } });
    expect(v2.engine.last.actor).toBe("root");
  });

  it("no credentials ⇒ anonymous session", async () => {
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: JSON_ACCEPT });
    expect(v2.engine.last.session.actor.level).toBe("No");
  });

  it("v2 reads only surreal-ns / surreal-db; v1 falls back to ns / db", async () => {
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, ns: "a", db: "b" } });
    expect([v2.engine.last.ns, v2.engine.last.db]).toEqual([undefined, undefined]);
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, "surreal-ns": "a", "surreal-db": "b" } });
    expect([v2.engine.last.ns, v2.engine.last.db]).toEqual(["a", "b"]);
    await call(v1, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, NS: "a", DB: "b" } });
    expect([v1.engine.last.ns, v1.engine.last.db]).toEqual(["a", "b"]);
  });

  it("session ids: v2 must be a UUID (else 401) and defaults to a random one; v1 takes any string or none", async () => {
    const id = "0191e3b2-6c1a-7000-8000-000000000001";
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, "surreal-id": id } });
    expect(v2.engine.last.session.id).toBe(id);
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: JSON_ACCEPT });
    expect(v2.engine.last.session.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, "surreal-id": "abc" } })).status).toBe(401);
    await call(v1, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, "surreal-id": "abc" } });
    expect(v1.engine.last.session.id).toBe("abc");
    await call(v1, "/sql", { method: "POST", body: "RETURN 1", headers: JSON_ACCEPT });
    expect(v1.engine.last.session.id).toBeUndefined();
  });

  it("copies Origin and the client IP into the session", async () => {
    await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: { ...JSON_ACCEPT, origin: "http://app" } });
    expect(v2.engine.last.session.origin).toBe("http://app");
    expect(v2.engine.last.session.ip).toMatch(/127\.0\.0\.1/);
  });
});

describe("POST /signin and /signup", () => {
  const root = JSON.stringify({ user: "root", pass: "root" });

  it("JSON success: v2 adds refresh null (or the refresh token)", async () => {
    expect((await call(v2, "/signin", { method: "POST", body: root, headers: JSON_ACCEPT })).text).toBe(
      '{"code":200,"details":"Authentication succeeded","token":"tok-root","refresh":null}',
    );
    v2.iam.refreshToken = "surreal-refresh-abc";
    expect((await call(v2, "/signin", { method: "POST", body: root, headers: JSON_ACCEPT })).json().refresh).toBe("surreal-refresh-abc");
    v2.iam.refreshToken = undefined;
  });

  it("JSON success in v1 has no refresh", async () => {
    expect((await call(v1, "/signin", { method: "POST", body: root, headers: JSON_ACCEPT })).text).toBe('{"code":200,"details":"Authentication succeeded","token":"tok-root"}');
  });

  it("CBOR, text/plain, no Accept and octet-stream", async () => {
    const c = await call(v2, "/signin", { method: "POST", body: root, headers: { accept: "application/cbor" } });
    expect(decodeCbor(c.body)).toEqual({ code: 200n, details: "Authentication succeeded", token: "tok-root", refresh: null });
    expect((await call(v2, "/signin", { method: "POST", body: root, headers: { accept: "text/plain" } })).text).toBe("tok-root");
    // stricter than SurrealDB (200 with an empty body): a clear 415 saying which Accept to send
    const ACCEPT_REQUIRED = { ...UNSUPPORTED, information: "Set the Accept header to application/json, application/cbor or text/plain to receive the token" };
    const none = await call(v2, "/signin", { method: "POST", body: root });
    expect([none.status, none.json()]).toEqual([415, ACCEPT_REQUIRED]);
    const odd = await call(v2, "/signup", { method: "POST", body: root, headers: { accept: "application/json, text/plain" } });
    expect([odd.status, odd.json()]).toEqual([415, ACCEPT_REQUIRED]);
    const octet = await call(v2, "/signin", { method: "POST", body: root, headers: { accept: "application/octet-stream" } });
    expect([octet.status, octet.json()]).toEqual([415, UNSUPPORTED]);
  });

  it("signup returns the record token", async () => {
    const r = await call(v2, "/signup", { method: "POST", body: JSON.stringify({ NS: "n", DB: "d", AC: "user", email: "a@b" }), headers: JSON_ACCEPT });
    expect(r.json().token).toBe("tok-record");
  });

  it.each<[string, string, number, object]>([
    ["wrong credentials", JSON.stringify({ user: "root", pass: "x" }), 401, AUTH_FAILED],
    ["no record", JSON.stringify({ user: "norecord" }), 400, bad("There was a problem with the database: No record was returned")],
    [
      "IAM refusal",
      JSON.stringify({ user: "forbidden" }),
      403,
      { code: 403, details: "Forbidden", description: "Not allowed to do this.", information: "There was a problem with the database: IAM error: Not enough permissions to perform this action" },
    ],
    ["a non-object body", "[1, 2]", 400, bad("The request body contains invalid data")],
    ["bad JSON", "{user:", 400, bad("The request body contains invalid data")],
    ["an empty body", "", 400, bad("The request body contains invalid data")],
  ])("signin with %s", async (_name, body, status, expected) => {
    const r = await call(v2, "/signin", { method: "POST", body, headers: JSON_ACCEPT });
    expect([r.status, r.json()]).toEqual([status, expected]);
  });

  it("signup failure is 400", async () => {
    const r = await call(v2, "/signup", { method: "POST", body: "{}", headers: JSON_ACCEPT });
    expect([r.status, r.json()]).toEqual([400, bad("There was a problem with the database: There was a problem with signing up")]);
  });

  it("non-UTF-8 body is invalid data", async () => {
    const r = await call(v2, "/signin", { method: "POST", body: new Uint8Array([0x7b, 0xff, 0x7d]), headers: JSON_ACCEPT });
    expect([r.status, r.json()]).toEqual([400, bad("The request body contains invalid data")]);
  });

  it("bodies over 1 KiB are 413 and the server lives on", async () => {
    const big = JSON.stringify({ user: "root", pass: "root", pad: "x".repeat(1100) });
    expect((await call(v2, "/signin", { method: "POST", body: big, headers: JSON_ACCEPT })).status).toBe(413);
    expect((await call(v2, "/signup", { method: "POST", body: big, headers: JSON_ACCEPT })).status).toBe(413);
    expect((await call(v2, "/health")).status).toBe(200);
  });

  it("a chunked body over the limit (no content-length) is 413 too", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = rawRequest({ host: "127.0.0.1", port: v2.port, path: "/signin", method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("x".repeat(800));
      req.write("x".repeat(800));
      req.end();
    });
    expect(status).toBe(413);
  });
});

describe("POST /sql", () => {
  it("runs the body with query-string variables and answers the result array (JSON)", async () => {
    v2.engine.respond = () => [
      { status: "OK", result: [{ id: new RecordId("person", 1n), n: 1n, f: 1 }], time: "52.1µs" },
      { status: "ERR", result: "boom", time: "3.4ms", error: new Error() as never },
    ];
    const r = await call(v2, "/sql?name=x&n=1", { method: "POST", body: "SELECT * FROM person; THROW 'boom'", headers: JSON_ACCEPT });
    expect(r.status).toBe(200);
    expect(r.text).toBe('[{"result":[{"f":1.0,"id":"person:1","n":1}],"status":"OK","time":"52.1µs"},{"result":"boom","status":"ERR","time":"3.4ms"}]');
    expect(v2.engine.last.vars).toEqual({ name: "x", n: "1" });
    expect(v2.engine.last.query).toBe("SELECT * FROM person; THROW 'boom'");
  });

  it("answers CBOR for Accept: application/cbor", async () => {
    v2.engine.respond = () => [{ status: "OK", result: new Table("t"), time: "1ms" }];
    const r = await call(v2, "/sql", { method: "POST", body: "RETURN type::table('t')", headers: { accept: "application/cbor" } });
    expect(r.headers.get("content-type")).toBe("application/cbor");
    expect(decodeCbor(r.body)).toEqual([{ result: new Table("t"), status: "OK", time: "1ms" }]);
  });

  it.each([[undefined], ["text/plain"], ["application/octet-stream"], ["application/pack"], ["application/xml"]])("Accept %s ⇒ 415", async (acceptValue) => {
    const r = await call(v2, "/sql", { method: "POST", body: "RETURN 1", headers: acceptValue ? { accept: acceptValue } : {} });
    expect([r.status, r.json()]).toEqual([415, UNSUPPORTED]);
  });

  it("a parse error is 400 with the message", async () => {
    const r = await call(v2, "/sql", { method: "POST", body: "BAD SQL", headers: JSON_ACCEPT });
    expect([r.status, r.json()]).toEqual([400, bad("There was a problem with the database: Parse error: Unexpected token `SQL`")]);
  });

  it("bodies over the limit are 413", async () => {
    const s = await startServer({ limits: { sqlBody: 100 } });
    try {
      expect((await call(s, "/sql", { method: "POST", body: "x".repeat(101), headers: JSON_ACCEPT })).status).toBe(413);
      expect((await call(s, "/sql", { method: "POST", body: "x".repeat(100), headers: JSON_ACCEPT })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("/key", () => {
  const key = (s: TestServer, path: string, method: string, body?: string) => call(s, path, { method, headers: JSON_ACCEPT, ...(body === undefined ? {} : { body }) });

  it.each<[string, string, string | undefined, string, Record<string, Value>]>([
    ["GET", "/key/person", undefined, "SELECT * FROM type::table($table) LIMIT $limit START $start", { table: "person", limit: 100n, start: 0n }],
    ["GET", "/key/person?limit=5&start=10", undefined, "SELECT * FROM type::table($table) LIMIT $limit START $start", { table: "person", limit: 5n, start: 10n }],
    ["POST", "/key/person", '{"a":1}', "CREATE type::table($table) CONTENT $data", { table: "person", data: { a: 1n } }],
    ["PUT", "/key/person", '{"a":1}', "UPDATE type::table($table) CONTENT $data", { table: "person", data: { a: 1n } }],
    ["PATCH", "/key/person", '{"a":1}', "UPDATE type::table($table) MERGE $data", { table: "person", data: { a: 1n } }],
    ["DELETE", "/key/person", undefined, "DELETE type::table($table) RETURN BEFORE", { table: "person" }],
    ["GET", "/key/person/1", undefined, "SELECT * FROM type::thing($table, $id)", { table: "person", id: 1n }],
    ["GET", "/key/person/tobie", undefined, "SELECT * FROM type::thing($table, $id)", { table: "person", id: "tobie" }],
    ["GET", "/key/per%20son/a%2Fb", undefined, "SELECT * FROM type::thing($table, $id)", { table: "per son", id: "a/b" }],
    ["POST", "/key/person/1", '{"a":1}', "CREATE type::thing($table, $id) CONTENT $data", { table: "person", id: 1n, data: { a: 1n } }],
    ["PUT", "/key/person/1", '{"a":1}', "UPSERT type::thing($table, $id) CONTENT $data", { table: "person", id: 1n, data: { a: 1n } }],
    ["PATCH", "/key/person/1", '{"a":1}', "UPSERT type::thing($table, $id) MERGE $data", { table: "person", id: 1n, data: { a: 1n } }],
    ["DELETE", "/key/person/1", undefined, "DELETE type::thing($table, $id) RETURN BEFORE", { table: "person", id: 1n }],
  ])("v2 %s %s", async (method, path, body, sql, vars) => {
    const r = await key(v2, path, method, body);
    expect(r.status).toBe(200);
    expect(v2.engine.last.query).toBe(sql);
    expect(v2.engine.last.vars).toEqual(vars);
    expect(r.json()[0].status).toBe("OK");
  });

  it("v1 PUT / PATCH on a record use UPDATE", async () => {
    await key(v1, "/key/person/1", "PUT", "{}");
    expect(v1.engine.last.query).toBe("UPDATE type::thing($table, $id) CONTENT $data");
    await key(v1, "/key/person/1", "PATCH", "{}");
    expect(v1.engine.last.query).toBe("UPDATE type::thing($table, $id) MERGE $data");
  });

  it("rejects non-object or bad bodies, bad limits, wrong Accept", async () => {
    expect((await key(v2, "/key/person", "POST", "[1]")).json()).toEqual(bad("The request body contains invalid data"));
    expect((await key(v2, "/key/person", "POST", "{x")).status).toBe(400);
    expect((await key(v2, "/key/person?limit=abc", "GET")).status).toBe(400);
    expect((await call(v2, "/key/person", { method: "GET" })).status).toBe(415);
    expect((await call(v2, "/key/a/b/c", { method: "GET", headers: JSON_ACCEPT })).status).toBe(404);
  });
});

describe("/export and /import", () => {
  it("export relays the engine: 501 without one, its text, its refusals as 400 / 403", async () => {
    const owner = { authorization: "Bearer tok-root", "surreal-ns": "n", "surreal-db": "d" };
    const unsupported = await call(v2, "/export", { headers: owner });
    expect([unsupported.status, unsupported.text]).toEqual([501, "Export is not supported by this server yet"]);
    try {
      v2.engine.exportSql = async (s) => `DEFINE TABLE foo; -- ${s.ns}/${s.db}`;
      const ok = await call(v2, "/export", { method: "POST", body: "{}", headers: owner });
      expect([ok.status, ok.text]).toEqual([200, "DEFINE TABLE foo; -- n/d"]);
      v2.engine.exportSql = async () => {
        throw new NotAllowed();
      };
      const refused = await call(v2, "/export", { headers: owner });
      expect([refused.status, refused.json()]).toEqual([403, expect.objectContaining({ information: "There was a problem with the database: IAM error: Not enough permissions to perform this action" })]);
      v2.engine.exportSql = async () => {
        throw new QueryError("NsEmpty", "Specify a namespace to use");
      };
      expect((await call(v2, "/export", { headers: owner })).json()).toEqual(bad("There was a problem with the database: Specify a namespace to use"));
    } finally {
      v2.engine.exportSql = undefined;
    }
    expect((await call(v1, "/export", { method: "POST", headers: owner })).status).toBe(405);
  });

  it("import needs an owner, runs the body and answers per Accept", async () => {
    expect((await call(v2, "/import", { method: "POST", body: "DEFINE TABLE t", headers: JSON_ACCEPT })).status).toBe(403);
    expect((await call(v2, "/import", { method: "POST", body: "DEFINE TABLE t", headers: { ...JSON_ACCEPT, authorization: "Bearer tok-viewer" } })).status).toBe(403);
    const ok = await call(v2, "/import", { method: "POST", body: "DEFINE TABLE t", headers: { ...JSON_ACCEPT, authorization: "Bearer tok-root" } });
    expect(ok.status).toBe(200);
    expect(v2.engine.last.query).toBe("DEFINE TABLE t");
    const octet = await call(v2, "/import", { method: "POST", body: "DEFINE TABLE t", headers: { accept: "application/octet-stream", authorization: "Bearer tok-root" } });
    expect([octet.status, octet.text]).toEqual([200, ""]);
    expect((await call(v2, "/import", { method: "POST", body: "x", headers: { accept: "text/plain", authorization: "Bearer tok-root" } })).status).toBe(415);
  });

  it("v1 without auth lets anonymous import", async () => {
    expect((await call(v1, "/import", { method: "POST", body: "DEFINE TABLE t", headers: JSON_ACCEPT })).status).toBe(200);
  });
});

describe("POST /rpc", () => {
  const rpc = (s: TestServer, body: NonNullable<RequestInit["body"]>, headers: Record<string, string> = { "content-type": "application/json" }) => call(s, "/rpc", { method: "POST", body, headers });

  it("answers one request without an id, with the request session (JSON)", async () => {
    v2.engine.respond = (c) => [{ status: "OK", result: { query: c.query, vars: { ...c.vars } }, time: "1ms" }];
    const r = await rpc(v2, JSON.stringify({ id: 1, method: "select", params: ["person"] }), {
      "content-type": "application/json",
      "surreal-ns": "n",
      "surreal-db": "d",
      authorization: "Bearer tok-root",
    });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ result: { query: "SELECT * FROM $what", vars: { what: "person" } } });
    expect([v2.engine.last.ns, v2.engine.last.actor]).toEqual(["n", "root"]);
  });

  it("CBOR in, CBOR out", async () => {
    const r = await rpc(v2, encodeCbor({ id: "a", method: "version", params: [] }), { "content-type": "application/cbor", accept: "application/cbor" });
    expect(decodeCbor(r.body)).toEqual({ result: "surrealdb-2.6.0" });
  });

  it("state does not persist between calls; let is not a method", async () => {
    await rpc(v2, JSON.stringify({ id: 1, method: "use", params: ["n", "d"] }));
    await rpc(v2, JSON.stringify({ id: 1, method: "query", params: ["RETURN 1"] }));
    expect(v2.engine.last.ns).toBeUndefined();
    expect((await rpc(v2, JSON.stringify({ id: 1, method: "let", params: ["x", 1] }))).json()).toEqual({ error: { code: -32601, message: "Method not found" } });
  });

  it.each<[string, NonNullable<RequestInit["body"]>, Record<string, string>, number]>([
    ["no content-type", "{}", {}, 415],
    ["text/plain", "{}", { "content-type": "text/plain" }, 415],
    ["msgpack", "{}", { "content-type": "application/pack" }, 415],
    ["a mismatched Accept", "{}", { "content-type": "application/json", accept: "application/cbor" }, 415],
  ])("%s ⇒ %s", async (_name, body, headers, status) => {
    expect((await rpc(v2, body, headers)).status).toBe(status);
  });

  it.each<[string, NonNullable<RequestInit["body"]>, string, object]>([
    ["bad JSON", "{nope", "application/json", { error: { code: -32700, message: "Parse error" } }],
    ["bad CBOR", new Uint8Array([0xff]), "application/cbor", { error: { code: -32700n, message: "Parse error" } }],
    ["unknown CBOR tag", new Uint8Array([0xd9, 0x01, 0x00, 0xf6]), "application/cbor", { error: { code: -32000n, message: "Error: Encountered an unknown CBOR tag" } }],
    ["a missing method", "{}", "application/json", { error: { code: -32600, message: "Invalid Request" } }],
    ["an unknown method", '{"method":"nope"}', "application/json", { error: { code: -32601, message: "Method not found" } }],
    ["wrong param counts", '{"method":"select","params":[]}', "application/json", { error: { code: -32602, message: "Invalid params" } }],
  ])("%s ⇒ error object", async (_name, body, type, expected) => {
    const r = await rpc(v2, body, { "content-type": type });
    expect(r.status).toBe(200);
    expect(type === "application/cbor" ? decodeCbor(r.body) : r.json()).toEqual(expected);
  });

  it("a body over the RPC limit is 413", async () => {
    const s = await startServer({ limits: { rpcBody: 64 } });
    try {
      expect((await rpc(s, JSON.stringify({ method: "ping", params: ["x".repeat(100)] }))).status).toBe(413);
    } finally {
      await s.close();
    }
  });
});

describe("identification headers", () => {
  it("can be switched off", async () => {
    const { createServer } = await import("../../src/server/http.js");
    const { FakeEngine, FakeIam } = await import("./fakes.js");
    const engine = new FakeEngine();
    const server = createServer({ engine, iam: new FakeIam(engine), noIdentificationHeaders: true });
    const { port } = await server.listen("127.0.0.1", 0);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      expect(r.headers.get("server")).toBeNull();
      expect(r.headers.get("surreal-version")).toBeNull();
    } finally {
      await server.close();
    }
  });
});
