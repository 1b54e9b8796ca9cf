// Refresh tokens over a real server (compat 2): HTTP /signin and /signup bodies carry "refresh"; RPC signin answers
// { access, refresh } (SurrealDB's shape), RPC refresh exchanges it, RPC revoke ends the family; compat 1 has neither.

import { Surreal } from "surrealdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { open } from "./clients.js";

const SCHEMA = `USE NS app DB app;
  DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) WITH REFRESH DURATION FOR TOKEN 15m;`;
const FORMAT = /^surreal-refresh-[A-Za-z0-9]{12}-[A-Za-z0-9]{24}$/;
const creds = { NS: "app", DB: "app", AC: "account", email: "w@x" };

describe("refresh tokens over the server", () => {
  let server: SurrealServer;
  let port: number;
  beforeAll(async () => {
    const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, sessionSyncMs: 0 });
    await db.importText(SCHEMA);
    ({ server, port } = await db.listen("127.0.0.1", 0));
  });
  afterAll(() => server.close());

  it("HTTP signup and the grant through POST /signin answer the pair in SurrealDB's body", async () => {
    const post = (path: string, body: unknown) => fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify(body) });
    const up = (await (await post("/signup", creds)).json()) as { token: string; refresh: string };
    expect(Object.keys(up)).toEqual(["code", "details", "token", "refresh"]);
    expect(up.refresh).toMatch(FORMAT);
    const res = await post("/signin", { NS: "app", DB: "app", AC: "account", refresh: up.refresh });
    const next = (await res.json()) as { token: string; refresh: string };
    expect(res.status).toBe(200);
    expect(next.refresh).toMatch(FORMAT);
    expect(next.refresh).not.toBe(up.refresh);
  });

  it("RPC signin answers { access, refresh }; refresh rotates it; revoke ends the session", async () => {
    const c = await open({ port });
    const signin = (await c.json({ id: 1, method: "signin", params: [creds] })) as { result: { access: string; refresh: string } };
    expect(signin.result.refresh).toMatch(FORMAT);
    const refreshed = (await c.json({ id: 2, method: "refresh", params: [signin.result] })) as { result: { access: string; refresh: string } };
    expect(refreshed.result.refresh).toMatch(FORMAT);
    expect((await c.json({ id: 3, method: "query", params: ["RETURN $access"] })) as unknown).toMatchObject({ result: [{ result: "account" }] });
    expect(await c.json({ id: 4, method: "revoke", params: [refreshed.result] })).toMatchObject({ result: null });
    expect(await c.json({ id: 5, method: "query", params: ["RETURN 1"] })).toMatchObject({ error: { message: "There was a problem with the database: The session has expired" } });
    expect(await c.json({ id: 6, method: "refresh", params: [refreshed.result] })).toMatchObject({ error: { message: "There was a problem with the database: There was a problem with authentication" } });
    expect(await c.json({ id: 7, method: "refresh", params: [{ access: "x" }] })).toMatchObject({ error: { code: -32602 } });
    c.ws.close();
  });

  it("the official SDK (2.0.8) reads the pair from signin and keeps working", async () => {
    const sdk = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
    await sdk.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "app", database: "app", reconnect: false });
    const tokens = await sdk.signin({ access: "account", variables: { email: "w@x" } });
    expect(tokens.refresh).toMatch(FORMAT);
    expect(typeof tokens.access).toBe("string");
    expect(await sdk.query("RETURN $access")).toEqual(["account"]);
    await sdk.close();
  });
});
