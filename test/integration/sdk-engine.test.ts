// The official SDK (2.0.8) with surql-auth as an in-process engine (`engines` option): no socket at all.

import { ServerError, Surreal, Table } from "surrealdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RpcError, SurqlAuth } from "../../src/index.js";
import { surqlAuthEngines } from "../../src/sdk.js";

let db: SurqlAuth;
const clients: Surreal[] = [];

async function client(): Promise<Surreal> {
  const s = new Surreal({ engines: surqlAuthEngines(db) });
  clients.push(s);
  await s.connect("surql-auth://", { namespace: "app", database: "app" });
  return s;
}

beforeAll(async () => {
  // root fails its signin four times on purpose (error shapes): the throttle (test/iam/throttle.test.ts) stays out of the way
  db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"], throttle: { enabled: false } });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

describe("official SDK with surql-auth as its in-process engine", () => {
  it("signs up, signs in, and reads through PERMISSIONS", async () => {
    const s = await client();
    const tokens = await s.signup({ access: "account", variables: { name: "Ann", email: "ann@example.com", password: "pw-ann" } });
    expect(tokens.access).toMatch(/^eyJ/);
    const other = await client();
    await other.signup({ access: "account", variables: { name: "Bob", email: "bob@example.com", password: "pw-bob" } });
    const again = await client();
    await again.signin({ access: "account", variables: { email: "ann@example.com", password: "pw-ann" } });
    const rows = await again.select<{ name: string }>(new Table("user"));
    expect(rows.map((r) => r.name)).toEqual(["Ann"]);
    const [who] = await again.query<[string]>("RETURN $auth.name");
    expect(who).toBe("Ann");
  });

  it("passes SurrealDB's errors through", async () => {
    const s = await client();
    await expect(s.signin({ access: "account", variables: { email: "ann@example.com", password: "wrong" } })).rejects.toThrow("No record was returned");
    await expect(s.signin({ username: "root", password: "nope" })).rejects.toThrow("There was a problem with authentication");
  });

  it("throws the SDK's own error classes, with the code and message the WebSocket engine gets", async () => {
    const s = await client();
    const embedded = await s.signin({ username: "root", password: "nope" }).catch((e: unknown) => e);
    expect(embedded).toBeInstanceOf(ServerError);
    const { server, port } = await db.listen("127.0.0.1", 0);
    const remote = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
    try {
      await remote.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "app", database: "app", reconnect: false });
      const wire = await remote.signin({ username: "root", password: "nope" }).catch((e: unknown) => e);
      expect(Object.getPrototypeOf(embedded)).toBe(Object.getPrototypeOf(wire));
      const pick = (e: unknown) => ({ code: (e as ServerError).code, kind: (e as ServerError).kind, message: (e as Error).message });
      expect(pick(embedded)).toEqual(pick(wire));
      expect(pick(embedded)).toMatchObject({ code: -32000, message: "There was a problem with the database: There was a problem with authentication" });
    } finally {
      await remote.close();
      await server.close();
    }
  });
});

describe("embedded Connection errors", () => {
  it("are RpcErrors with the wire's code and message; the SurrealError behind it is the cause", async () => {
    const conn = db.connect();
    const e = await conn.signin({ user: "root", pass: "nope" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e).toMatchObject({ code: -32000, message: "There was a problem with the database: There was a problem with authentication" });
    expect((e as Error).cause).toMatchObject({ code: "InvalidAuth", message: "There was a problem with authentication" });
    const unknown = await conn.rpc("frobnicate").catch((x: unknown) => x);
    expect(unknown).toMatchObject({ code: -32601, message: "Method not found" });
  });
});
