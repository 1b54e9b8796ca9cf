// What a database EDITOR plants in a schema body does no more than an EDITOR may when an OWNER triggers it, over HTTP
// and WebSocket (pentest R1): no REMOVE DATABASE / NAMESPACE, no DEFINE NAMESPACE, no other tenant. And USE never
// stands inside a body or block, so nothing a query runs re-points the caller's session (pentest R2). Stricter than
// SurrealDB for R1 (it runs bodies with the invoker's rights); USE inside a block is a parse error in SurrealDB too.

import { describe, expect, it } from "vitest";
import { jsonRpcSocket, serveBothCompats } from "./clients.js";

const schema = `
USE NS app DB app; DEFINE USER e ON DATABASE PASSWORD 'e' ROLES EDITOR; DEFINE DATABASE app3; DEFINE NAMESPACE scratch;
USE NS other DB o; DEFINE TABLE open SCHEMALESS PERMISSIONS FULL; CREATE open:1 SET s = 'SECRET_other';`;

const PLANT = `
DEFINE TABLE t1 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t1 THEN { REMOVE DATABASE app3; };
DEFINE TABLE t4 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t4 THEN { REMOVE NAMESPACE scratch; };
DEFINE TABLE t6 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD v ON t6 VALUE { REMOVE DATABASE app3; 1 };
DEFINE TABLE t7 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD w ON t7 ASSERT { REMOVE DATABASE app3; true };
DEFINE TABLE t8 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD z ON t8 VALUE { DEFINE NAMESPACE evilns; 1 };
DEFINE FUNCTION fn::rmdb() { REMOVE DATABASE app3; RETURN 'ok'; };`;

const IAM = "IAM error: Not enough permissions to perform this action";
const base = serveBothCompats(schema);

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}`).toString("base64")}`;

async function sql(compat: 1 | 2, user: "e" | "root", body: string): Promise<{ status: number; results: unknown[] }> {
  const level: Record<string, string> = compat === 2 && user === "e" ? { "surreal-auth-ns": "app", "surreal-auth-db": "app" } : {};
  const res = await fetch(`http://${base[compat]}/sql`, {
    method: "POST",
    headers: { Accept: "application/json", Authorization: basic(user), "surreal-ns": "app", "surreal-db": "app", ...level },
    body,
  });
  const json = (await res.json()) as { result: unknown }[] | { information?: string; details?: string };
  return { status: res.status, results: Array.isArray(json) ? json.map((r) => r.result) : [json.information ?? json.details] };
}

describe.each([1, 2] as const)("an EDITOR's planted bodies, triggered by root (compat %i)", (compat) => {
  it("events, field VALUE / ASSERT and a function fail for root; the database, the namespace and the other tenant stay", async () => {
    const planted = await sql(compat, "e", PLANT);
    expect(planted.status).toBe(200);
    expect(planted.results).toEqual(Array(11).fill(null));
    // USE in an event body does not even parse (SurrealDB 1.5.4 / 2.6.0 refuse it the same way)
    const use = await sql(compat, "e", "DEFINE TABLE t2 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t2 THEN { USE NS other DB o; UPSERT open:1 SET s = 'pwned' }");
    expect(use.status).toBe(400);
    expect(String(use.results[0])).toContain("Parse error: Unexpected token `NAMESPACE` expected delimiter `}`");

    const fired = await sql(compat, "root", "CREATE t1 SET a = 1; CREATE t4 SET a = 1; CREATE t6 SET a = 1; CREATE t7 SET a = 1; CREATE t8 SET a = 1; RETURN fn::rmdb()");
    expect(fired.results).toEqual(Array(6).fill(IAM));
    const after = await sql(compat, "root", "RETURN object::keys((INFO FOR NS).databases); RETURN object::keys((INFO FOR ROOT).namespaces); USE NS other DB o; SELECT VALUE s FROM open");
    expect(after.results.map((r) => (Array.isArray(r) ? [...r].sort() : r))).toEqual([["app", "app3"], ["app", "other", "scratch"], null, ["SECRET_other"]]);
  });
});

describe.each([1, 2] as const)("a root WebSocket stays where it is across requests (compat %i)", (compat) => {
  it("a block with USE is refused, a planted body fails, and the next requests still run in app / app", async () => {
    const { ws, rpc } = await jsonRpcSocket(`ws://${base[compat]}/rpc`);
    try {
      expect((await rpc("signin", [{ user: "root", pass: "root" }])).error).toBeUndefined();
      expect(await rpc("use", ["app", "app"])).toMatchObject({ result: null });
      expect((await rpc("query", ["RETURN { USE NS other DB o; 1 }"])).error?.message).toContain("Parse error");
      expect((await rpc("query", ["CREATE t1 SET a = 2 RETURN NONE"])).result).toMatchObject([{ status: "ERR", result: IAM }]);
      const where = await rpc("query", ["RETURN [session::ns(), session::db()]; CREATE marker:ws SET by = 'root'"]);
      expect((where.result as { result: unknown }[]).map((r) => r.result)).toEqual([["app", "app"], [{ id: "marker:ws", by: "root" }]]);
      const other = await rpc("query", ["USE NS other DB o; SELECT * FROM marker"]);
      expect((other.result as { result: unknown }[]).map((r) => r.result)).toEqual([null, []]);
    } finally {
      ws.close();
    }
  });
});
