// Through the real server: a record user's CPU-bound query (F7) does not stall other clients — /health answers while
// it runs — and it ends with SurrealDB's timeout error. Ordering, not timing: /health is asked once the query runs.
// A value built by sharing (R7) is refused where it is built, so the query ends at once.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1h SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
} as const;
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;

describe.each([1, 2] as const)("compat %i: a record user's heavy query", (compat) => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let base: string;
  beforeAll(async () => {
    db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, queryTimeoutMs: 500 });
    let port: number;
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
    await db.importText(`USE NS test DB test; DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth; ${SCHEMA[compat]}`);
  });
  afterAll(async () => {
    await server.close();
  });

  it("lets /health answer while it runs, and ends with the timeout error", async () => {
    const body = JSON.stringify({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "heavy@x" });
    const token = await (await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body })).text();
    // once the engine starts the query, ask /health
    const order: string[] = [];
    let health: Promise<number> | undefined;
    const execute = db.engine.execute.bind(db.engine);
    db.engine.execute = (query, session, vars) => {
      const running = execute(query, session, vars);
      setImmediate(() => (health = fetch(`${base}/health`).then((r) => (order.push("health"), r.status))));
      return running;
    };
    try {
      const sql = await fetch(`${base}/sql`, {
        method: "POST",
        headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" },
        body: `FOR $i IN ${items(1000)} { FOR $j IN ${items(1000)} { LET $y = $j; } }; RETURN 1`,
      });
      order.push("sql");
      const answers = (await sql.json()) as { status: string; result: unknown }[];
      expect(answers.map((a) => a.result)).toEqual(["The query was not executed because it exceeded the timeout", "The query was not executed because it exceeded the timeout"]);
      expect(await health).toBe(200);
      expect(order).toEqual(["health", "sql"]);
    } finally {
      db.engine.execute = execute;
    }
  });

  it("R7: a value shared into a tree of 2³⁰ leaves answers the size error, and /health answers after it", async () => {
    const body = JSON.stringify({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "shared@x" });
    const token = await (await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body })).text();
    const chain = ["LET $x0 = {};", ...Array.from({ length: 30 }, (_, i) => `LET $x${i + 1} = {a: $x${i}, b: $x${i}};`)].join(" ");
    const fold = "RETURN type::is::object(array::fold(array::range(0, 30), {}, |$acc, $i| {a: $acc, b: $acc}))";
    const sql = await fetch(`${base}/sql`, {
      method: "POST",
      headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" },
      body: compat === 1 ? `${chain} CREATE person SET d = $x30 RETURN NONE` : fold,
    });
    const answers = (await sql.json()) as { status: string; result: unknown }[];
    expect(answers.map((a) => a.result)).toContain("The value is too large: a value must not exceed 16777216 bytes");
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
