// End to end: the real Datastore and Iam behind the server, driven by the official SDK, fetch and raw WebSocket frames.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RecordId as SdkRecordId, Surreal, Table as SdkTable } from "surrealdb";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { jsonRpcSocket } from "./clients.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const wsImpl = WebSocket as unknown as typeof globalThis.WebSocket;

describe("SurrealDB 2.x mode", () => {
  let server: SurrealServer;
  let base: string;
  let port: number;

  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" } });
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
    await db.importText(`
      USE NS test DB test;
      DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth, FOR create, update, delete NONE;
      DEFINE ACCESS account ON DATABASE TYPE RECORD
        SIGNUP (CREATE person SET email = $email, pass = crypto::argon2::generate($pass))
        SIGNIN (SELECT * FROM person WHERE email = $email AND crypto::argon2::compare(pass, $pass));
    `);
  });
  afterAll(async () => {
    await server.close();
  });

  it("SDK: root signin, query, record signup and $auth", async () => {
    const db = new Surreal({ websocketImpl: wsImpl });
    await db.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "test", database: "test", reconnect: false });
    try {
      await db.signin({ username: "root", password: "root" });
      const [n] = await db.query("RETURN 1 + 1").collect<[number]>();
      expect(n).toBe(2);
      const tokens = await db.signup({ namespace: "test", database: "test", access: "account", variables: { email: "a@b.c", pass: "pw" } });
      expect(tokens.access.split(".")).toHaveLength(3);
      const [me] = await db.query("SELECT VALUE email FROM $auth").collect<[string[]]>();
      expect(me).toEqual(["a@b.c"]);
    } finally {
      await db.close();
    }
  });

  it("raw RPC CRUD methods run their SurrealQL on the real engine", async () => {
    const { ws, rpc } = await jsonRpcSocket(`ws://127.0.0.1:${port}/rpc`, { authorization: basic("root", "root"), "surreal-ns": "test", "surreal-db": "test" });
    try {
      expect(await rpc("create", ["thing:1", { a: 1 }])).toEqual({ id: 1, result: { a: 1, id: "thing:1" } });
      expect(await rpc("create", ["thing", { a: 2 }])).toMatchObject({ result: { a: 2 } });
      expect(await rpc("merge", ["thing:1", { b: 1 }])).toEqual({ id: 1, result: { a: 1, b: 1, id: "thing:1" } });
      expect(await rpc("select", ["thing:1"])).toEqual({ id: 1, result: { a: 1, b: 1, id: "thing:1" } });
      expect(await rpc("insert", ["thing", [{ id: "x", c: 1 }]])).toMatchObject({ result: [{ c: 1 }] });
      expect(await rpc("relate", ["thing:1", "links", "thing:1", { w: 1 }])).toMatchObject({ result: { w: 1, in: "thing:1", out: "thing:1" } });
      expect(await rpc("run", ["string::len", null, ["abcd"]])).toEqual({ id: 1, result: 4 });
      expect(await rpc("delete", ["thing:1"])).toEqual({ id: 1, result: { a: 1, b: 1, id: "thing:1" } });
      expect(await rpc("select", ["thing:1"])).toEqual({ id: 1, result: null });
    } finally {
      ws.close();
    }
  });

  it("HTTP: /signin with wrong and right credentials, /sql with Basic, /key with a record user's token", async () => {
    const wrong = await fetch(`${base}/signin`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify({ user: "root", pass: "nope" }) });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/signin`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify({ user: "root", pass: "root" }) });
    expect(right.status).toBe(200);
    expect(Object.keys((await right.json()) as object)).toEqual(["code", "details", "token", "refresh"]);
    const sql = await fetch(`${base}/sql`, { method: "POST", headers: { accept: "application/json", authorization: basic("root", "root"), "surreal-ns": "test", "surreal-db": "test" }, body: "RETURN 40 + 2" });
    const [res] = (await sql.json()) as { status: string; result: unknown }[];
    expect([res.status, res.result]).toEqual(["OK", 42]);
    expect((await fetch(`${base}/sql`, { method: "POST", headers: { accept: "application/json", authorization: basic("root", "bad") }, body: "RETURN 1" })).status).toBe(401);
    const signup = await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body: JSON.stringify({ NS: "test", DB: "test", AC: "account", email: "k@k", pass: "pw" }) });
    const token = await signup.text();
    const key = await fetch(`${base}/key/person`, { headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" } });
    const [rows] = (await key.json()) as { status: string; result: { email: string }[] }[];
    expect(rows.status).toBe("OK");
    expect(rows.result.map((p: { email: string }) => p.email)).toEqual(["k@k"]);
  });

  it("SDK over HTTP: select a record with a root token", async () => {
    const db = new Surreal();
    await db.connect(`http://127.0.0.1:${port}/rpc`, { namespace: "test", database: "test" });
    try {
      await db.signin({ username: "root", password: "root" });
      await db.query("CREATE person:http SET email = 'h@h'").collect();
      const rec = (await db.select(new SdkRecordId("person", "http"))) as unknown as { email: string };
      expect(rec.email).toBe("h@h");
    } finally {
      await db.close();
    }
  });
  it("SDK over WebSocket (CBOR): a regex a record user stored does not break root's reads of the table (attack pass 10, H5)", async () => {
    const user = new Surreal({ websocketImpl: wsImpl });
    const root = new Surreal({ websocketImpl: wsImpl });
    await user.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "test", database: "test", reconnect: false });
    await root.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "test", database: "test", reconnect: false });
    try {
      await root.signin({ username: "root", password: "root" });
      await root.query("DEFINE TABLE IF NOT EXISTS post SCHEMALESS PERMISSIONS FULL").collect();
      await user.signup({ namespace: "test", database: "test", access: "account", variables: { email: "rx@b.c", pass: "pw" } });
      await user.query("CREATE post:rx SET r = <regex> 'a/b+'").collect();
      const rows = (await root.select(new SdkTable("post"))) as unknown as { r: string }[];
      expect(rows.map((p) => p.r)).toEqual(["a/b+"]);
    } finally {
      await user.close();
      await root.close();
    }
  });
});

describe("SurrealDB 1.x mode", () => {
  it("raw JSON RPC: version, root signin, DEFINE SCOPE, scope signup and $auth", async () => {
    const db = await SurqlAuth.open({ compat: 1, root: { user: "root", pass: "root" } });
    const { server, port } = await db.listen("127.0.0.1", 0);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`);
    const inbox: unknown[] = [];
    const waiters: ((v: unknown) => void)[] = [];
    ws.on("message", (d: Buffer) => {
      const v = JSON.parse(d.toString());
      const w = waiters.shift();
      if (w) w(v);
      else inbox.push(v);
    });
    await new Promise((r) => ws.once("open", r));
    const rpc = (method: string, params: unknown[] = []) => {
      ws.send(JSON.stringify({ id: 1, method, params }));
      return new Promise<{ result?: unknown; error?: { message: string } }>((resolve) => (inbox.length ? resolve(inbox.shift() as never) : waiters.push(resolve as never)));
    };
    try {
      expect((await rpc("VERSION")).result).toBe("surrealdb-1.5.4");
      expect(typeof (await rpc("signin", [{ user: "root", pass: "root" }])).result).toBe("string");
      await rpc("use", ["test", "test"]);
      const defined = (await rpc("query", ["DEFINE SCOPE account SESSION 1h SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email)"])) as { result: { status: string }[] };
      expect(defined.result[0].status).toBe("OK");
      const token = (await rpc("signup", [{ NS: "test", DB: "test", SC: "account", email: "a@b.c" }])).result as string;
      expect(JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString())).toMatchObject({ NS: "test", DB: "test", SC: "account" });
      // the auto-created table is PERMISSIONS NONE for the scope user, so only $auth itself is visible
      const me = (await rpc("query", ["RETURN [$auth, $scope]"])) as { result: { result: [string, string] }[] };
      expect(me.result[0].result[0]).toMatch(/^user:/);
      expect(me.result[0].result[1]).toBe("account");
      expect((await rpc("reset")).error).toEqual({ code: -32601, message: "Method not found" });
    } finally {
      ws.close();
      await server.close();
    }
  });
});
