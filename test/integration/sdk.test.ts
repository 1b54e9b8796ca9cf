// The official `surrealdb` SDK (2.0.8) against the real surql-auth server on a loopback port, unchanged.

import { GeometryCollection, GeometryLine, GeometryMultiPoint, GeometryPoint, GeometryPolygon, Surreal, Table } from "surrealdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";

/** A clock the test moves by hand (session expiry without sleeping). */
const clock = { t: Date.now(), now() { return this.t; } };

let db: SurqlAuth;
let url: string;
let close: () => Promise<void>;
const clients: Surreal[] = [];

async function client(ns = "app", dbName = "app"): Promise<Surreal> {
  // Node 20 has no global WebSocket (Node 22 does): hand the SDK the `ws` package's, as an app on Node 20 would.
  const s = new Surreal({ websocketImpl: WebSocket as never });
  clients.push(s);
  await s.connect(url, { namespace: ns, database: dbName });
  return s;
}

beforeAll(async () => {
  db = await SurqlAuth.open({ clock, root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"] });
  const { server, port } = await db.listen("127.0.0.1", 0);
  url = `ws://127.0.0.1:${port}/rpc`;
  close = () => server.close();
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await close?.();
});

const ann = { name: "Ann", email: "ann@example.com", password: "pw-ann" };

describe("official SDK 2.0.8 against surql-auth (compat 2)", () => {
  it("connects (the version check passes) and signs up a record user", async () => {
    const s = await client();
    const tokens = await s.signup({ namespace: "app", database: "app", access: "account", variables: ann });
    expect(tokens.access).toMatch(/^eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9\./);
    const [rows] = await s.query<[{ name: string; email: string }[]]>("SELECT name, email FROM user");
    expect(rows).toEqual([{ name: "Ann", email: "ann@example.com" }]);
  });

  it("signs in, reads only its own record through table PERMISSIONS, and authenticates a fresh connection with the token", async () => {
    const bob = await client();
    await bob.signup({ namespace: "app", database: "app", access: "account", variables: { name: "Bob", email: "bob@example.com", password: "pw-bob" } });
    const s = await client();
    const tokens = await s.signin({ namespace: "app", database: "app", access: "account", variables: { email: ann.email, password: ann.password } });
    const mine = await s.select<{ name: string }>(new Table("user"));
    expect(mine.map((r) => r.name)).toEqual(["Ann"]);

    const fresh = await client();
    await fresh.authenticate(tokens.access);
    const [who] = await fresh.query<[string]>("RETURN $auth.name");
    expect(who).toBe("Ann");
    const root = await client();
    await root.signin({ username: "root", password: "root" });
    const all = await root.select<{ name: string }>(new Table("user"));
    expect(all.map((r) => r.name).sort()).toEqual(["Ann", "Bob"]);
  });

  it("surfaces SurrealDB's errors through the SDK (wrong password, duplicate email, bad email)", async () => {
    const s = await client();
    await expect(s.signin({ namespace: "app", database: "app", access: "account", variables: { email: ann.email, password: "wrong" } })).rejects.toThrow(
      "No record was returned",
    );
    await expect(s.signup({ namespace: "app", database: "app", access: "account", variables: ann })).rejects.toThrow("The record access signup query failed");
    await expect(s.signin({ username: "root", password: "nope" })).rejects.toThrow("There was a problem with authentication");
  });

  it("invalidate drops the identity; a viewer cannot write", async () => {
    const s = await client();
    await s.signin({ namespace: "app", database: "app", username: "reader", password: "reader-pass" });
    const [, denied] = await s.query("SELECT * FROM user; DEFINE TABLE x").responses();
    expect(denied?.success).toBe(false);
    await s.invalidate();
    await expect(s.query("SELECT * FROM user")).rejects.toThrow(/Not enough permissions|authentication/);
  });

  it("non-point geometries sent as CBOR come back as the SDK's classes, also after an export and an import", async () => {
    const s = await client("geo", "src");
    await s.signin({ username: "root", password: "root" });
    const P = (x: number, y: number) => new GeometryPoint([x, y]);
    const line = new GeometryLine([P(1, 2), P(3, 4)]);
    const geo = {
      line,
      polygon: new GeometryPolygon([new GeometryLine([P(0, 0), P(1, 0), P(1, 1), P(0, 0)])]),
      points: new GeometryMultiPoint([P(0, 0), P(1, 1)]),
      collection: new GeometryCollection([P(1, 2), line]),
    };
    await s.query("CREATE g:1 CONTENT $geo", { geo });
    const http = url.replace(/^ws/, "http").replace(/\/rpc$/, "");
    const auth = { authorization: `Basic ${Buffer.from("root:root").toString("base64")}`, "surreal-ns": "geo" };
    const text = await (await fetch(`${http}/export`, { headers: { ...auth, "surreal-db": "src" } })).text();
    const imported = await fetch(`${http}/import`, { method: "POST", headers: { ...auth, "surreal-db": "copy", accept: "application/json" }, body: text });
    expect(imported.status).toBe(200);
    for (const dbName of ["src", "copy"]) {
      await s.use({ namespace: "geo", database: dbName });
      const [[row]] = await s.query<[Record<string, unknown>[]]>("SELECT line, polygon, points, collection FROM g:1");
      for (const [k, v] of Object.entries(geo)) {
        expect(row![k], `${dbName}.${k}`).toBeInstanceOf(v.constructor);
        expect(JSON.stringify(row![k]), `${dbName}.${k}`).toBe(JSON.stringify(v));
      }
    }
  });

  it("an expired session refuses queries and signin on the same connection revives it", async () => {
    const s = await client();
    await s.signin({ namespace: "app", database: "app", username: "reader", password: "reader-pass" });
    clock.t += 86_400_000 + 2_000; // reader: DURATION FOR SESSION 1d
    await expect(s.query("RETURN 1")).rejects.toThrow("The session has expired");
    await s.signin({ namespace: "app", database: "app", username: "reader", password: "reader-pass" });
    const [one] = await s.query<[number]>("RETURN 1");
    expect(one).toBe(1);
  });
});
