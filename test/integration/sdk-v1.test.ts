// The official 1.x SDK (surrealdb@1.3.2, npm alias surrealdb-v1) against surql-auth in compat 1 on a loopback port.

import { Surreal, Table } from "surrealdb-v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";

const clock = { t: Date.now(), now() { return this.t; } };
let url: string;
let close: () => Promise<void>;
const clients: Surreal[] = [];

async function client(): Promise<Surreal> {
  const s = new Surreal();
  clients.push(s);
  await s.connect(url, { namespace: "app", database: "app" });
  return s;
}

beforeAll(async () => {
  const db = await SurqlAuth.open({ compat: 1, clock, root: { user: "root", pass: "root" }, import: ["examples/schema-v1.surql"] });
  const { server, port } = await db.listen("127.0.0.1", 0);
  url = `ws://127.0.0.1:${port}/rpc`;
  close = () => server.close();
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await close?.();
});

describe("official SDK 1.3.2 against surql-auth (compat 1, scopes)", () => {
  it("signs up and in through a scope; the token carries SC and lasts SESSION (1d); the user reads only itself", async () => {
    const s = await client();
    const token = await s.signup({ namespace: "app", database: "app", scope: "account", name: "Ann", email: "ann@example.com", password: "pw-ann" });
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(Object.keys(claims)).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "DB", "SC", "ID"]);
    expect(claims.SC).toBe("account");
    expect(Number(claims.exp) - Number(claims.iat)).toBe(86400); // SESSION 1d
    const bob = await client();
    await bob.signup({ namespace: "app", database: "app", scope: "account", name: "Bob", email: "bob@example.com", password: "pw-bob" });
    const again = await client();
    await again.signin({ namespace: "app", database: "app", scope: "account", email: "ann@example.com", password: "pw-ann" });
    const rows = await again.select<{ name: string }>(new Table("user"));
    expect(rows.map((r) => r.name)).toEqual(["Ann"]);
    const [scope] = await again.query<[string]>("RETURN $scope");
    expect(scope).toBe("account");
  });

  it("system users sign in without expiry; errors carry SurrealDB 1.x's texts", async () => {
    const s = await client();
    await s.signin({ username: "root", password: "root" });
    const [exp] = await s.query<[unknown]>("RETURN $session.exp");
    expect(exp ?? null).toBeNull();
    await expect(s.signup({ namespace: "app", database: "app", scope: "account", name: "X", email: "ann@example.com", password: "x" })).rejects.toThrow(
      "The signup query failed",
    );
    await expect(s.signin({ namespace: "app", database: "app", scope: "nope", email: "a", password: "b" })).rejects.toThrow();
  });

  it("a scope session expires after SESSION and signin on the same connection revives it", async () => {
    const s = await client();
    await s.signin({ namespace: "app", database: "app", scope: "account", email: "bob@example.com", password: "pw-bob" });
    clock.t += 86_400_000 + 2_000;
    await expect(s.query("RETURN 1")).rejects.toThrow("The session has expired");
    await s.signin({ namespace: "app", database: "app", scope: "account", email: "bob@example.com", password: "pw-bob" });
    const [one] = await s.query<[number]>("RETURN 1");
    expect(one).toBe(1);
  });
});
