// A database-level system user stays in its namespace and database over every transport (pentest F9): HTTP Basic with
// surreal-ns / surreal-db pointing elsewhere, `USE` in POST /sql, and RPC `use` on a WebSocket. Stricter than SurrealDB.

import { describe, expect, it } from "vitest";
import { jsonRpcSocket, serveBothCompats } from "./clients.js";

const schema = `
USE NS app DB app; DEFINE USER v ON DATABASE PASSWORD 'v' ROLES VIEWER; DEFINE TABLE open SCHEMALESS PERMISSIONS FULL; CREATE open:1 SET s = 'home';
USE NS other DB o; DEFINE TABLE open SCHEMALESS PERMISSIONS FULL; CREATE open:1 SET s = 'SECRET_other'; DEFINE PARAM $p3 VALUE 'SECRET_param';`;
const base = serveBothCompats(schema);
const NS = "You don't have permission to change to the other namespace";

const basic = `Basic ${Buffer.from("v:v").toString("base64")}`;

async function sql(compat: 1 | 2, body: string, headers: Record<string, string>): Promise<unknown[]> {
  const res = await fetch(`http://${base[compat]}/sql`, { method: "POST", headers: { Accept: "application/json", Authorization: basic, ...headers }, body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: unknown }[]).map((r) => r.result);
}

describe.each([1, 2] as const)("a database user stays home over HTTP and WebSocket (compat %i)", (compat) => {
  const level: Record<string, string> = compat === 2 ? { "surreal-auth-ns": "app", "surreal-auth-db": "app" } : {};

  it("POST /sql with Basic: USE elsewhere, then every read is refused", async () => {
    const out = await sql(compat, "SELECT VALUE s FROM open; USE NS other DB o; SELECT * FROM open; RETURN $p3", { ...level, "surreal-ns": "app", "surreal-db": "app" });
    expect(out).toEqual([["home"], null, NS, NS]);
  });

  if (compat === 2) {
    it("POST /sql with Basic and surreal-ns / surreal-db pointing at another namespace", async () => {
      expect(await sql(compat, "SELECT * FROM open; RETURN $p3", { ...level, "surreal-ns": "other", "surreal-db": "o" })).toEqual([NS, NS]);
    });
  }

  it("WebSocket: signin, RPC use elsewhere, then query and select are refused", async () => {
    const { ws, rpc } = await jsonRpcSocket(`ws://${base[compat]}/rpc`);
    try {
      expect((await rpc("signin", [{ NS: "app", DB: "app", user: "v", pass: "v" }])).error).toBeUndefined();
      expect(await rpc("use", ["other", "o"])).toMatchObject({ result: null });
      const q = await rpc("query", ["SELECT * FROM open; RETURN $p3"]);
      expect((q.result as { result: unknown }[]).map((r) => r.result)).toEqual([NS, NS]);
      expect((await rpc("select", ["open"])).error?.message).toContain(NS);
    } finally {
      ws.close();
    }
  });
});
