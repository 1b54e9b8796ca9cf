// F13 over a real loopback server: a record user's Bearer token and live WebSocket session end with its record, and a
// new registrant of the same id is never reachable through them (stricter than SurrealDB; SECURITY.md).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

const CLAUSES = `SIGNUP (CREATE type::thing('acct2', $username) SET pass = crypto::argon2::generate($password))
  SIGNIN (SELECT * FROM type::thing('acct2', $username) WHERE crypto::argon2::compare(pass, $password))`;
const SCHEMA = {
  1: `DEFINE SCOPE acct2 SESSION 1h ${CLAUSES};`,
  2: `DEFINE ACCESS acct2 ON DATABASE TYPE RECORD ${CLAUSES} DURATION FOR TOKEN 1h;`,
};

/** What an expired session answers over RPC (SurrealDB's wording); SDKs treat it as "sign in again". */
const EXPIRED = "There was a problem with the database: The session has expired";

type Reply = { result?: unknown; error?: { message: string } };

async function openWs(port: number) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`);
  const replies = new Map<number, (r: Reply) => void>();
  ws.on("message", (d: Buffer) => {
    const v = JSON.parse(d.toString()) as Reply & { id: number };
    replies.get(v.id)?.(v);
  });
  await new Promise((r) => ws.once("open", r));
  let next = 0;
  const rpc = (method: string, params: unknown[]) =>
    new Promise<Reply>((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, rpc };
}

describe.each([1, 2] as const)("record identity lifetime over the server, compat %i", (compat) => {
  let server: SurrealServer;
  let base: string;
  let port: number;
  // real time plus whole seconds the test skips (iat has whole seconds)
  let offset = 0;
  const skip = () => (offset += 1000);
  const cred = (username: string, password: string) => ({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "acct2", username, password });
  const sql = (token: string, body: string) =>
    fetch(`${base}/sql`, { method: "POST", headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "app", "surreal-db": "app" }, body });
  const signup = async (username: string, password: string) => {
    const res = await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body: JSON.stringify(cred(username, password)) });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, clock: { now: () => Date.now() + offset } });
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
    await db.importText(`USE NS app DB app;
      DEFINE TABLE acct2 SCHEMALESS PERMISSIONS FOR select, update, delete WHERE id = $auth.id;
      DEFINE FIELD pass ON acct2 TYPE string PERMISSIONS FOR select NONE;
      ${SCHEMA[compat]}`);
  });
  afterAll(async () => {
    await server.close();
  });

  it("F13: the squatter's token and open session cannot reach the next registrant's record", async () => {
    const attacker = await openWs(port);
    const other = await openWs(port);
    try {
      const { result: token } = await attacker.rpc("signup", [cred("carol", "attacker")]);
      expect(typeof token).toBe("string");
      // a second connection authenticated with the same token before the deletion
      expect((await other.rpc("authenticate", [token])).error).toBeUndefined();
      expect((await attacker.rpc("query", ["DELETE $auth.id"])).error).toBeUndefined();
      skip();
      const carol = await signup("carol", "carols-real-pw");
      expect((await (await sql(carol, "UPDATE $auth.id SET diary = 'SECRET_carol_diary'")).json()) as unknown[]).toMatchObject([{ status: "OK" }]);

      // every way back in with the old identity is closed
      for (const ws of [attacker, other]) {
        expect((await ws.rpc("query", ["SELECT * FROM acct2"])).error?.message).toBe(EXPIRED);
        expect((await ws.rpc("select", ["acct2:carol"])).error?.message).toBe(EXPIRED);
      }
      const bearer = await sql(token as string, "SELECT * FROM acct2");
      expect([bearer.status, await bearer.text()]).toEqual([401, "There was a problem with authentication"]);
      const fresh = await openWs(port);
      try {
        expect((await fresh.rpc("authenticate", [token])).error?.message).toBe("There was a problem with the database: There was a problem with authentication");
      } finally {
        fresh.ws.close();
      }

      // Carol's own token works
      const mine = (await (await sql(carol, "SELECT VALUE diary FROM acct2")).json()) as { result: unknown }[];
      expect(mine[0]?.result).toEqual(["SECRET_carol_diary"]);
    } finally {
      attacker.ws.close();
      other.ws.close();
    }
  });

  it("a token whose record root deleted gets 401; a fresh signin after re-creation works", async () => {
    const dave = await signup("dave", "pw");
    expect((await sql(dave, "RETURN $auth.id = acct2:dave")).status).toBe(200);
    skip();
    const root = `Basic ${Buffer.from("root:root").toString("base64")}`;
    const del = await fetch(`${base}/sql`, { method: "POST", headers: { accept: "application/json", authorization: root, "surreal-ns": "app", "surreal-db": "app" }, body: "DELETE acct2:dave" });
    expect(del.status).toBe(200);
    expect((await sql(dave, "RETURN 1")).status).toBe(401);
    skip();
    const again = await signup("dave", "pw2");
    expect((await sql(dave, "RETURN 1")).status).toBe(401);
    const [res] = (await (await sql(again, "RETURN $auth.id = acct2:dave")).json()) as { result: unknown }[];
    expect(res?.result).toBe(true);
  });
});
