// Through the real server (attack pass 3, A4): a record / scope user's query text past MAX_CLIENT_QUERY_TEXT gets the
// size error over POST /sql, POST /rpc and the WebSocket alike; the largest allowed text answers, and /health answers
// while it runs; a WebSocket frame past the client payload limit is refused before decoding for them, not for root.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import { MAX_CLIENT_QUERY_TEXT } from "../../src/exec/query-text.js";
import { defaultLimits } from "../../src/server/types.js";
import type { SurrealServer } from "../../src/server/index.js";
import { jsonRpcSocket } from "./clients.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1h SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
} as const;
const TOO_LARGE = `There was a problem with the database: The query is too large: a record user's or guest's query text must not exceed ${MAX_CLIENT_QUERY_TEXT} bytes`;

/** `RETURN array::len([t:1, t:1, …])` of exactly `bytes` bytes (padded with spaces), and its count of ids. */
function recordIds(bytes: number): { text: string; count: number } {
  const count = Math.floor((bytes - 20) / 4);
  const text = `RETURN array::len([${Array(count).fill("t:1").join(",")}])`;
  return { text: text + " ".repeat(bytes - text.length), count };
}

describe.each([1, 2] as const)("compat %i: a record user's query text", (compat) => {
  let server: SurrealServer;
  let base: string;
  let token: string;
  const signup = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "big@x" };
  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    let port: number;
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
    await db.importText(`USE NS test DB test; DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth; ${SCHEMA[compat]}`);
    token = await (await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body: JSON.stringify(signup) })).text();
  });
  afterAll(async () => {
    await server.close();
  });
  const headers = () => ({ accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" });

  it("POST /sql: the largest allowed text answers while /health answers too; one byte more is the size error", async () => {
    const { text, count } = recordIds(MAX_CLIENT_QUERY_TEXT);
    const sql = fetch(`${base}/sql`, { method: "POST", headers: headers(), body: text });
    const health = fetch(`${base}/health`);
    expect((await health).status).toBe(200);
    expect(((await (await sql).json()) as { result: unknown }[])[0]!.result).toBe(count);
    const over = await fetch(`${base}/sql`, { method: "POST", headers: headers(), body: text + " " });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { information: string }).information).toBe(TOO_LARGE);
  });

  it("POST /rpc and the WebSocket: the size error; the frame limit for record users, not for root", async () => {
    const over = recordIds(MAX_CLIENT_QUERY_TEXT + 1).text;
    const rpc = await fetch(`${base}/rpc`, {
      method: "POST",
      headers: { ...headers(), "content-type": "application/json" },
      body: JSON.stringify({ id: 1, method: "query", params: [over] }),
    });
    expect(((await rpc.json()) as { error: { message: string } }).error.message).toBe(TOO_LARGE);

    const socket = await jsonRpcSocket(`${base.replace("http", "ws")}/rpc`);
    try {
      expect((await socket.rpc("signin", [signup])).error).toBeUndefined();
      expect((await socket.rpc("use", ["test", "test"])).error).toBeUndefined();
      expect((await socket.rpc("query", [over])).error?.message).toBe(TOO_LARGE);
      // a frame past the client payload limit: refused before decoding
      const huge = "x".repeat(defaultLimits.clientPayload);
      expect((await socket.rpc("query", ["RETURN $x", { x: huge }])).error).toEqual({ code: -32600, message: "Invalid Request" });
      // root may send it
      expect((await socket.rpc("signin", [{ user: "root", pass: "root" }])).error).toBeUndefined();
      expect((await socket.rpc("query", ["RETURN string::len($x)", { x: huge }])).result).toEqual([expect.objectContaining({ status: "OK", result: huge.length })]);
    } finally {
      socket.ws.close();
    }
  });
});
