// The official SDK (2.0.8) with surql-auth as an in-process engine (`engines` option): no socket at all.

import { Surreal, Table } from "surrealdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
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
  db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"] });
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
});
