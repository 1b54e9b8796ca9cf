// Through the real server (attack pass 12, J4): a query keeps the session it started with. A signin, authenticate,
// invalidate or use sent on the same WebSocket while the query runs waits for it, and a request sent after the change
// runs with the new session. (Before: the query's later statements ran as whoever the socket had become.)

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { open, serveSchema, type Client } from "./clients.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1h SIGNIN (SELECT * FROM person WHERE email = $email);`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM person WHERE email = $email) DURATION FOR SESSION 1h;`,
};
const COMMON = `USE NS test DB test;
  DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
  DEFINE TABLE vault SCHEMALESS PERMISSIONS NONE;
  DEFINE TABLE moved SCHEMALESS PERMISSIONS FULL;
  CREATE person:bob SET email = 'bob'; CREATE vault:1 SET code = 'SECRET';
  USE NS test DB other; DEFINE TABLE moved SCHEMALESS PERMISSIONS FULL;`;

/** A record user may not SLEEP: eight password hashes in a row keep its query running while the next request arrives. */
const BUSY = "FOR $i IN [1, 2, 3, 4, 5, 6, 7, 8] { LET $h = crypto::argon2::generate('x'); };";

type Reply = { id: number; result?: { result: unknown }[] | unknown; error?: unknown };

/** Sends each request at once, without waiting; resolves with the replies in the order they came. */
async function sendAll(c: Client, requests: { method: string; params: unknown[] }[]): Promise<Reply[]> {
  requests.forEach((r, i) => c.ws.send(JSON.stringify({ id: i + 1, ...r })));
  const replies: Reply[] = [];
  for (const _ of requests) replies.push((await c.next()) as Reply);
  return replies;
}

describe.each([1, 2] as const)("compat %i: a query keeps the session it started with", (compat) => {
  let served: Awaited<ReturnType<typeof serveSchema>>;
  beforeAll(async () => {
    served = await serveSchema(compat, `${COMMON} USE NS test DB test; ${SCHEMA[compat]}`);
  });
  afterAll(() => served.close());
  const host = () => served.host;
  const signinBob = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "bob" };
  async function bob(): Promise<Client> {
    const c = await open({ port: Number(host().split(":")[1]) });
    expect(await c.json({ id: 0, method: "signin", params: [signinBob] })).toHaveProperty("result");
    return c;
  }
  /** A root connection using test / test. */
  async function rootInTest(): Promise<Client> {
    const c = await open({ port: Number(host().split(":")[1]) });
    expect(await c.json({ id: 0, method: "signin", params: [{ user: "root", pass: "root" }] })).toHaveProperty("result");
    expect(await c.json({ id: 0, method: "use", params: ["test", "test"] })).toHaveProperty("result");
    return c;
  }
  const results = (r: Reply | undefined) => (r?.result as { result: unknown }[]).map((x) => x.result);

  it("a root signin sent while a record user's query runs: the query ends as the record user; the next query runs as root", async () => {
    const c = await bob();
    const replies = await sendAll(c, [
      { method: "query", params: [`RETURN $auth.id; ${BUSY} RETURN $auth.id; SELECT * FROM vault;`] },
      { method: "signin", params: [{ user: "root", pass: "root" }] },
      { method: "query", params: ["SELECT VALUE code FROM vault;"] },
    ]);
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(results(replies[0])).toEqual(["person:bob", null, "person:bob", []]);
    expect(replies[1]).toHaveProperty("result");
    expect(results(replies[2])).toEqual([["SECRET"]]);
    c.ws.close();
  });

  it("invalidate sent while the query runs: the query keeps its identity to the end", async () => {
    const c = await bob();
    const replies = await sendAll(c, [
      { method: "query", params: [`${BUSY} RETURN $auth.id;`] },
      { method: "invalidate", params: [] },
    ]);
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
    expect(results(replies[0])).toEqual([null, "person:bob"]);
    c.ws.close();
  });

  it("use sent while a root query sleeps: the query's statements stay in the database it started in", async () => {
    const c = await rootInTest();
    const replies = await sendAll(c, [
      { method: "query", params: ["SLEEP 300ms; RETURN $session.db; CREATE moved:x;"] },
      { method: "use", params: ["test", "other"] },
      { method: "query", params: ["RETURN $session.db; SELECT VALUE id FROM moved;"] },
    ]);
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(results(replies[0])?.slice(0, 2)).toEqual([null, "test"]);
    expect(results(replies[2])).toEqual(["other", []]);
    c.ws.close();
  });

  it("a USE statement in another query while a root query sleeps: it waits, and the sleeping query stays where it started (J9)", async () => {
    const c = await rootInTest();
    const replies = await sendAll(c, [
      { method: "query", params: ["SLEEP 300ms; RETURN $session.db; CREATE moved:y;"] },
      { method: "query", params: ["USE NS test DB other; RETURN $session.db; SELECT VALUE id FROM moved:y;"] },
    ]);
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
    expect(results(replies[0])?.slice(0, 2)).toEqual([null, "test"]);
    expect(results(replies[1])?.slice(1)).toEqual(["other", []]);
    c.ws.close();
  });
});
