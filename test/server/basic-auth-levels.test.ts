// HTTP Basic auth levels on a live server: v2 reads surreal-auth-ns/-db, v1 legacy searches ROOT → NS → DB by surreal-ns/-db.

import { describe, expect, it } from "vitest";
import { serveBothCompats } from "./clients.js";

const schema = `USE NS app DB app; DEFINE USER dbu ON DATABASE PASSWORD 'dbu-pass' ROLES VIEWER; DEFINE TABLE item PERMISSIONS FULL;`;
const hosts = serveBothCompats(schema);

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

async function sql(compat: 1 | 2, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://${hosts[compat]}/sql`, { method: "POST", headers: { Accept: "application/json", ...headers }, body: "RETURN session::db()" });
  return { status: res.status, body: await res.text() };
}

describe("HTTP Basic auth levels", () => {
  it("v1 legacy: a database user authenticates with only surreal-ns / surreal-db", async () => {
    const r = await sql(1, { Authorization: basic("dbu", "dbu-pass"), "surreal-ns": "app", "surreal-db": "app" });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)[0]).toMatchObject({ status: "OK", result: "app" });
  });

  it("v1 legacy: the same user without ns/db headers is not found", async () => {
    const r = await sql(1, { Authorization: basic("dbu", "dbu-pass") });
    expect(r.status).toBe(401);
    expect(r.body).toBe("There was a problem with authentication");
  });

  it("v2: the level comes from surreal-auth-ns / surreal-auth-db", async () => {
    const withLevel = await sql(2, { Authorization: basic("dbu", "dbu-pass"), "surreal-ns": "app", "surreal-db": "app", "surreal-auth-ns": "app", "surreal-auth-db": "app" });
    expect(withLevel.status).toBe(200);
    const withoutLevel = await sql(2, { Authorization: basic("dbu", "dbu-pass"), "surreal-ns": "app", "surreal-db": "app" });
    expect(withoutLevel.status).toBe(401);
  });
});
