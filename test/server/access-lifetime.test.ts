// R5 over a real loopback server: a record user's open WebSocket ends once its access method (1.x scope) is removed,
// and its token gets the generic 401 over HTTP (stricter than SurrealDB, which keeps the session; SECURITY.md).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { jsonRpcSocket } from "./clients.js";

const CLAUSES = `SIGNUP (CREATE tuser SET name = $username) SIGNIN (SELECT * FROM tuser WHERE name = $username)`;
const SCHEMA = {
  1: `DEFINE SCOPE tacc SESSION 1h ${CLAUSES};`,
  2: `DEFINE ACCESS tacc ON DATABASE TYPE RECORD ${CLAUSES} DURATION FOR TOKEN 1h;`,
};
const REMOVE = { 1: "REMOVE SCOPE tacc", 2: "REMOVE ACCESS tacc ON DATABASE" };

describe.each([1, 2] as const)("R5: sessions end with their access method over the server, compat %i", (compat) => {
  let server: SurrealServer;
  let port: number;
  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    await db.importText(`USE NS app DB app; DEFINE TABLE tuser SCHEMALESS PERMISSIONS FULL; ${SCHEMA[compat]}`);
    ({ server, port } = await db.listen("127.0.0.1", 0));
  });
  afterAll(async () => {
    await server.close();
  });

  it("REMOVE ACCESS / REMOVE SCOPE ends the open WebSocket and refuses the token", async () => {
    const url = `ws://127.0.0.1:${port}/rpc`;
    const user = await jsonRpcSocket(url);
    const root = await jsonRpcSocket(url);
    try {
      const { result: token } = await user.rpc("signup", [{ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "tacc", username: "eve" }]);
      expect(typeof token).toBe("string");
      expect((await user.rpc("query", ["RETURN $auth.id; SELECT * FROM tuser"])).error).toBeUndefined();
      expect((await root.rpc("signin", [{ user: "root", pass: "root" }])).error).toBeUndefined();
      await root.rpc("use", ["app", "app"]);
      expect((await root.rpc("query", [REMOVE[compat]])).result).toMatchObject([{ status: "OK" }]);

      expect((await user.rpc("query", ["RETURN $auth.id; SELECT * FROM tuser"])).error?.message).toBe("There was a problem with the database: The session has expired");
      const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers: { accept: "application/json", authorization: `Bearer ${String(token)}` }, body: "RETURN $auth.id" });
      // SurrealDB: "The access method 'tacc' does not exist in the database 'app'" (1.x: "The scope 'tacc' does not exist")
      expect([res.status, await res.text()]).toEqual([401, "There was a problem with authentication"]);
    } finally {
      user.ws.close();
      root.ws.close();
    }
  });
});
