// Through the real server (attack pass 4, B2): a client that goes away cancels its queries — an aborted POST /sql, a
// terminated WebSocket — and nothing they wrote is committed; a record user's connection runs few requests at once.
// No timings: the query time limit is a minute, so only the cancellation ends these queries within vitest's timeout.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { QueryResponse } from "../../src/exec/contract.js";
import type { SurrealServer } from "../../src/server/index.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1h SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
} as const;
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;
/** Far longer than vitest's timeout without a time limit. */
const LOOP = `FOR $i IN ${items(3000)} { FOR $j IN ${items(3000)} { CREATE note SET i = $i; } }`;
const ROOT = { accept: "application/json", authorization: `Basic ${Buffer.from("root:root").toString("base64")}`, "surreal-ns": "test", "surreal-db": "test" };
const TOO_MANY = "Too many concurrent requests on this connection";

describe.each([1, 2] as const)("compat %i: a client that goes away", (compat) => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let base: string;
  let port: number;
  beforeAll(async () => {
    db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, queryTimeoutMs: 60_000 });
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
    await db.importText(`USE NS test DB test; DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth; DEFINE TABLE note SCHEMALESS PERMISSIONS FULL; ${SCHEMA[compat]}`);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Resolves with the next query the engine starts, and with its answer once it ends. */
  function nextQuery(): Promise<{ ended: Promise<QueryResponse[]> }> {
    const execute = db.engine.execute.bind(db.engine);
    return new Promise((started) => {
      db.engine.execute = (...args) => {
        db.engine.execute = execute;
        const ended = execute(...args);
        // the query runs by the time its first yield lets this timer fire
        setTimeout(() => started({ ended }), 0);
        return ended;
      };
    });
  }

  const notes = async () => ((await (await fetch(`${base}/sql`, { method: "POST", headers: ROOT, body: "SELECT * FROM note" })).json()) as { result: unknown }[])[0]!.result;

  const signup = async (email: string) => {
    const body = JSON.stringify({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email });
    return (await fetch(`${base}/signup`, { method: "POST", headers: { accept: "text/plain" }, body })).text();
  };

  it("an aborted POST /sql cancels its query: its BEGIN … COMMIT block writes nothing", async () => {
    const started = nextQuery();
    const client = new AbortController();
    const request = fetch(`${base}/sql`, { method: "POST", headers: ROOT, body: `BEGIN; CREATE note:first; ${LOOP}; COMMIT;`, signal: client.signal });
    request.catch(() => undefined);
    const { ended } = await started;
    client.abort();
    const answers = await ended;
    expect(answers.map((a) => a.status)).toEqual(["ERR", "ERR"]);
    expect(answers[1]!.result).toBe("The query was not executed due to a cancelled transaction");
    expect(await notes()).toEqual([]);
  });

  it("a terminated WebSocket cancels its running query; the server's in-flight count drops to zero", async () => {
    const token = await signup("ws@x");
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => ws.once("open", r));
    const started = nextQuery();
    ws.send(JSON.stringify({ id: 1, method: "query", params: [`${LOOP}; RETURN 1`] }));
    const { ended } = await started;
    expect(server.rpcInFlight).toBe(1);
    ws.terminate();
    const answers = await ended;
    expect(answers.map((a) => a.result)).toEqual(["The query was not executed due to a cancelled transaction", "The query was not executed due to a cancelled transaction"]);
    while (server.rpcInFlight > 0) await new Promise((r) => setTimeout(r, 5));
    expect(await notes()).toEqual([]);
  });

  it("a record user's connection runs 8 requests and queues 16: the 25th is refused; closing it ends them all", async () => {
    const token = await signup("many@x");
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => ws.once("open", r));
    const first = new Promise<{ id: number; error?: { message: string } }>((r) => ws.once("message", (d: Buffer) => r(JSON.parse(d.toString()))));
    for (let id = 1; id <= 25; id++) ws.send(JSON.stringify({ id, method: "query", params: ["RETURN sleep(10s)"] }));
    const refused = await first;
    expect(refused.id).toBe(25);
    expect(refused.error?.message).toContain(TOO_MANY);
    expect(server.rpcInFlight).toBe(8);
    ws.terminate();
    while (server.rpcInFlight > 0) await new Promise((r) => setTimeout(r, 5));
  });
});
