// Protected variables through a real loopback server (WS JSON, WS CBOR, POST /rpc, POST /sql) in both compats:
// a record user who sets auth / this / input to read another user's records gets the protected-variable error and nothing else.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { decodeCbor, encodeCbor } from "../../src/server/codec/cbor.js";
import { RecordId, type Value } from "../../src/value/types.js";

const refused = (name: string) => `There was a problem with the database: '${name}' is a protected variable and cannot be set`;
const rpcRefused = (name: string) => ({ code: -32000, message: refused(name) });

const schema = (compat: 1 | 2) => `
USE NS test DB test;
CREATE user:a SET email = 'a@x'; CREATE user:b SET email = 'b@x';
${
  compat === 1
    ? "DEFINE SCOPE account SESSION 1h SIGNIN (SELECT * FROM user WHERE email = $email) SIGNUP (CREATE user SET email = $email);"
    : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) SIGNUP (CREATE user SET email = $email);"
}
DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select, update, delete WHERE owner = $auth.id, FOR create FULL;
DEFINE TABLE note SCHEMALESS PERMISSIONS FOR select WHERE $this.owner = $auth.id;
DEFINE TABLE gate SCHEMALESS PERMISSIONS FOR select FULL, FOR create WHERE $input.ok = true;
CREATE post:a SET owner = user:a, text = 'mine'; CREATE post:b SET owner = user:b, text = 'secret-b';
CREATE note:a SET owner = user:a, text = 'mine'; CREATE note:b SET owner = user:b, text = 'secret-b';
`;

/** Each attack: the query, the variables it smuggles in, the name refused. */
const ATTACKS: [string, Record<string, Value>, string][] = [
  ["SELECT VALUE text FROM post", { auth: { id: new RecordId("user", "b") } }, "auth"],
  ["SELECT VALUE text FROM note", { this: { owner: new RecordId("user", "a") } }, "this"],
  ["CREATE gate:1 CONTENT { ok: false }", { input: { ok: true } }, "input"],
  ["SELECT VALUE text FROM post", { session: { rd: new RecordId("user", "b") } }, "session"],
];

/** The same variables as JSON puts them on the wire. */
function jsonVars(vars: Record<string, Value>): unknown {
  return JSON.parse(JSON.stringify(vars, (_k, v: unknown) => (v instanceof RecordId ? `${v.table}:${String(v.id)}` : v)));
}

describe.each([1, 2] as const)("compat %s", (compat) => {
  let server: SurrealServer;
  let port: number;
  let token: string;
  const creds = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "a@x" };

  beforeAll(async () => {
    // many refused signins from one address: the throttle (test/server/throttle.test.ts) stays out of the way
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, throttle: { enabled: false } });
    ({ server, port } = await db.listen("127.0.0.1", 0));
    await db.importText(schema(compat));
    const r = await fetch(`http://127.0.0.1:${port}/signin`, { method: "POST", headers: { accept: "text/plain" }, body: JSON.stringify(creds) });
    token = await r.text();
  });
  afterAll(async () => {
    await server.close();
  });

  async function socket(protocol: "json" | "cbor") {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, [protocol]);
    const inbox: Value[] = [];
    const waiters: ((v: Value) => void)[] = [];
    ws.on("message", (d: Buffer, binary: boolean) => {
      const v = binary ? decodeCbor(new Uint8Array(d)) : (JSON.parse(d.toString("utf8")) as Value);
      const w = waiters.shift();
      if (w) w(v);
      else inbox.push(v);
    });
    await new Promise((r) => ws.once("open", r));
    let id = 0;
    const rpc = async (method: string, params: unknown[]): Promise<Record<string, unknown>> => {
      const msg = { id: ++id, method, params };
      ws.send(protocol === "cbor" ? encodeCbor(msg as unknown as Value) : JSON.stringify(msg));
      const reply = await new Promise<Record<string, unknown>>((resolve) => (inbox.length ? resolve(inbox.shift() as never) : waiters.push(resolve as never)));
      // CBOR carries the error code as an integer (bigint here); compare it as JSON does
      const error = reply.error as { code: number | bigint; message: string } | undefined;
      return error ? { ...reply, error: { code: Number(error.code), message: error.message } } : reply;
    };
    expect((await rpc("authenticate", [token])).error).toBeUndefined();
    expect((await rpc("use", ["test", "test"])).error).toBeUndefined();
    return { ws, rpc };
  }

  /** What the record user may read: only its own rows, nothing created by an attack. */
  async function untouched(rpc: (m: string, p: unknown[]) => Promise<Record<string, unknown>>) {
    const r = (await rpc("query", ["SELECT VALUE text FROM post; SELECT VALUE text FROM note; SELECT * FROM gate"])).result as { result: unknown }[];
    expect(r.map((x) => x.result)).toEqual([["mine"], ["mine"], []]);
  }

  it.each(["json", "cbor"] as const)("WebSocket %s: query variables, let / set and signin variables are refused", async (protocol) => {
    const { ws, rpc } = await socket(protocol);
    try {
      for (const [sql, vars, name] of ATTACKS) {
        const r = await rpc("query", [sql, protocol === "json" ? jsonVars(vars) : vars]);
        expect([r.error, r.result]).toEqual([rpcRefused(name), undefined]);
      }
      for (const name of ["auth", "this", "input", "scope", "access"]) {
        expect((await rpc("let", [name, "x"])).error).toEqual(rpcRefused(name));
        expect((await rpc("set", [name, "x"])).error).toEqual(rpcRefused(name));
      }
      await untouched(rpc);
      // signin variables: SurrealDB answers its own names with the generic query failure; we do the same for the engine's
      const failed = compat === 1 ? "There was a problem with the database: The signin query failed" : "There was a problem with the database: The record access signin query failed";
      for (const name of ["auth", "this", "input"]) {
        expect(((await rpc("signin", [{ ...creds, [name]: "user:b" }])).error as { message: string }).message).toBe(failed);
      }
    } finally {
      ws.close();
    }
  });

  it("POST /signin and /signup: a protected variable fails as the generic query failure", async () => {
    for (const route of ["signin", "signup"]) {
      for (const name of ["auth", "this", "input"]) {
        const res = await fetch(`http://127.0.0.1:${port}/${route}`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify({ ...creds, email: route === "signin" ? "a@x" : "n@x", [name]: "user:b" }) });
        const body = (await res.json()) as Record<string, unknown>;
        expect([res.status, body.token]).toEqual([400, undefined]);
        expect(body.information).toBe(`There was a problem with the database: The ${compat === 1 ? "" : "record access "}${route} query failed`);
      }
    }
  });

  it("POST /rpc: query variables are refused", async () => {
    for (const [sql, vars, name] of ATTACKS) {
      const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" },
        body: JSON.stringify({ id: 1, method: "query", params: [sql, jsonVars(vars)] }),
      });
      expect(await res.json()).toEqual({ error: rpcRefused(name) });
    }
  });

  it("POST /sql: URL parameters are refused", async () => {
    for (const [sql, name] of [["SELECT VALUE text FROM post", "auth"], ["SELECT VALUE text FROM note", "this"], ["CREATE gate:1 CONTENT { ok: false }", "input"]]) {
      const res = await fetch(`http://127.0.0.1:${port}/sql?${name}=user:b`, {
        method: "POST",
        headers: { accept: "application/json", authorization: `Bearer ${token}`, "surreal-ns": "test", "surreal-db": "test" },
        body: sql,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { information: string }).information).toBe(refused(name));
    }
    const { ws, rpc } = await socket("json");
    try {
      await untouched(rpc);
    } finally {
      ws.close();
    }
  });
});
