// WebSocket RPC through a real listening server and raw `ws` clients: formats, session state, malformed frames, limits, auth.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { decodeCbor, encodeCbor } from "../../src/server/codec/cbor.js";
import { RecordId, Table, type Value } from "../../src/value/types.js";
import { open } from "./clients.js";
import { startServer, type TestServer } from "./fakes.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ compat: 2, limits: { wsMaxPayload: 1024 } });
});
afterAll(async () => {
  await s.close();
});

describe("formats", () => {
  it("no subprotocol ⇒ JSON text frames", async () => {
    const c = await open(s);
    expect(c.ws.protocol).toBe("");
    expect(await c.json({ id: 1, method: "version" })).toEqual({ id: 1, result: "surrealdb-2.6.0" });
    c.ws.close();
  });

  it("json subprotocol", async () => {
    const c = await open(s, ["json"]);
    expect(c.ws.protocol).toBe("json");
    expect(await c.json({ id: "a", method: "ping" })).toEqual({ id: "a", result: null });
    c.ws.close();
  });

  it("cbor subprotocol ⇒ binary frames with SurrealDB tags", async () => {
    const c = await open(s, ["cbor"]);
    expect(c.ws.protocol).toBe("cbor");
    expect(await c.cbor({ id: 7n, method: "ping" })).toEqual({ id: 7n, result: undefined });
    s.engine.respond = () => [{ status: "OK", result: [{ id: new RecordId("person", 1n) }], time: "1ms" }];
    expect(await c.cbor({ id: 8n, method: "select", params: [new RecordId("person", 1n)] })).toEqual({ id: 8n, result: { id: new RecordId("person", 1n) } });
    expect(s.engine.last.vars).toEqual({ what: new RecordId("person", 1n) });
    c.ws.close();
  });

  it("the first supported subprotocol offered wins", async () => {
    const c = await open(s, ["msgpack", "cbor", "json"]);
    expect(c.ws.protocol).toBe("cbor");
    c.ws.close();
  });

  it("only unsupported subprotocols ⇒ the client refuses the connection; the server lives", async () => {
    await expect(open(s, ["msgpack"])).rejects.toThrow();
    const c = await open(s);
    expect(await c.json({ id: 1, method: "ping" })).toEqual({ id: 1, result: null });
    c.ws.close();
  });

  it("JSON params get the legacy string coercion", async () => {
    const c = await open(s);
    s.engine.respond = () => [{ status: "OK", result: [], time: "1ms" }];
    await c.json({ id: 1, method: "select", params: ["person:1"] });
    expect(s.engine.last.vars).toEqual({ what: new RecordId("person", 1n) });
    await c.json({ id: 2, method: "select", params: ["person"] });
    expect(s.engine.last.vars).toEqual({ what: new Table("person") });
    c.ws.close();
  });
});

describe("connection session", () => {
  it("use / let / signin persist for the connection; each connection has its own session", async () => {
    const a = await open(s);
    const b = await open(s);
    s.engine.respond = () => [{ status: "OK", result: 1n, time: "1ms" }];
    await a.json({ id: 1, method: "use", params: ["n", "d"] });
    await a.json({ id: 2, method: "let", params: ["x", 5] });
    expect(await a.json({ id: 3, method: "signin", params: [{ user: "root", pass: "root" }] })).toEqual({ id: 3, result: "tok-root" });
    await a.json({ id: 4, method: "query", params: ["RETURN $x"] });
    expect(s.engine.last).toMatchObject({ ns: "n", db: "d", actor: "root", vars: { x: 5n } });
    expect(s.engine.last.session.rt).toBe(true);
    await b.json({ id: 1, method: "query", params: ["RETURN $x"] });
    expect(s.engine.last).toMatchObject({ ns: undefined, db: undefined, actor: "", vars: {} });
    a.ws.close();
    b.ws.close();
  });

  it("Basic and Bearer headers on the upgrade authenticate the socket from the start", async () => {
    const c = await open(s, [], { authorization: basic("root", "root"), "surreal-ns": "n", "surreal-db": "d" });
    s.engine.respond = () => [{ status: "OK", result: 1n, time: "1ms" }];
    await c.json({ id: 1, method: "query", params: ["RETURN 1"] });
    expect(s.engine.last).toMatchObject({ ns: "n", db: "d", actor: "root" });
    c.ws.close();
    const t = await open(s, [], { authorization: "Bearer tok-root" });
    await t.json({ id: 1, method: "query", params: ["RETURN 1"] });
    expect(s.engine.last.actor).toBe("root");
    t.ws.close();
  });

  it.each([
    [basic("root", "wrong"), "There was a problem with authentication"],
    ["Bearer nope", "There was a problem with authentication"],
  ])("a failing Authorization %s refuses the upgrade with 401", async (authorization, body) => {
    await expect(open(s, [], { authorization })).rejects.toMatchObject({ status: 401, body });
  });

  it("identification headers on the upgrade response", async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${s.port}/rpc`);
      ws.once("upgrade", (res) => resolve(res.headers));
      ws.once("error", reject);
      ws.once("open", () => ws.close());
    });
    expect(headers["server"]).toBe("SurrealDB");
    expect(headers["surreal-version"]).toBe("surrealdb-2.6.0");
  });

  it("v2: a connection id already in use ⇒ 400; a non-UUID one ⇒ 401", async () => {
    const id = "0191e3b2-6c1a-7000-8000-0000000000aa";
    const a = await open(s, [], { "surreal-id": id });
    await expect(open(s, [], { "surreal-id": id })).rejects.toMatchObject({ status: 400 });
    await expect(open(s, [], { "surreal-id": "nope" })).rejects.toMatchObject({ status: 401 });
    a.ws.close();
    await a.closed;
  });

  it("upgrades elsewhere than /rpc and /sql are refused", async () => {
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${s.port}/health`);
        ws.once("open", resolve);
        ws.once("error", reject);
      }),
    ).rejects.toThrow(/404/);
  });

  it("the session is released when the socket closes", async () => {
    const before = await countConnections();
    const c = await open(s);
    await c.json({ id: 1, method: "ping" });
    expect(await countConnections()).toBe(before + 1);
    c.ws.close();
    await c.closed;
    while ((await countConnections()) !== before) await new Promise((r) => setImmediate(r));
    expect(await countConnections()).toBe(before);
  });
});

describe("GET /sql as a WebSocket", () => {
  it("runs each text frame as SurrealQL on the upgrade's session and answers the JSON response list", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/sql`, { headers: { authorization: "Bearer tok-root", "surreal-ns": "n", "surreal-db": "d" } });
    const replies: string[] = [];
    const waiters: ((v: string) => void)[] = [];
    ws.on("message", (d: Buffer) => {
      const w = waiters.shift();
      if (w) w(d.toString());
      else replies.push(d.toString());
    });
    const next = () => new Promise<string>((resolve) => (replies.length ? resolve(replies.shift()!) : waiters.push(resolve)));
    await new Promise((r) => ws.once("open", r));
    s.engine.respond = (c) => [{ status: "OK", result: c.query, time: "1ms" }];
    ws.send("RETURN 1");
    expect(await next()).toBe('[{"result":"RETURN 1","status":"OK","time":"1ms"}]');
    expect(s.engine.last).toMatchObject({ ns: "n", db: "d", actor: "root" });
    ws.send("BAD SQL");
    expect(await next()).toBe("Parse error: Unexpected token `SQL`");
    ws.close();
  });

  it("refuses bad credentials with 401", async () => {
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${s.port}/sql`, { headers: { authorization: "Bearer nope" } });
        ws.once("open", resolve);
        ws.once("error", reject);
      }),
    ).rejects.toThrow(/401/);
  });
});

/** Open RPC sockets as the server sees them. */
async function countConnections(): Promise<number> {
  return s.server.rpcConnections;
}

describe("malformed frames get an error response, never a crash", () => {
  it.each<[string, string | Uint8Array, Value]>([
    ["bad JSON", "{nope", { error: { code: -32700, message: "Parse error" } }],
    ["a JSON scalar", "42", { error: { code: -32600, message: "Invalid Request" } }],
    ["a missing id", '{"method":"ping"}', { result: null }],
    ["an id of a bad type", '{"id":[1],"method":"ping"}', { error: { code: -32600, message: "Invalid Request" } }],
    ["a missing method", '{"id":1}', { id: 1, error: { code: -32600, message: "Invalid Request" } }],
    ["an unknown method", '{"id":1,"method":"explode"}', { id: 1, error: { code: -32601, message: "Method not found" } }],
    ["wrong param counts", '{"id":1,"method":"use","params":["a"]}', { id: 1, error: { code: -32602, message: "Invalid params" } }],
    ["a v2 version field of 3", '{"id":1,"method":"ping","version":3}', { id: 1, error: { code: -32600, message: "Invalid Request" } }],
    ["binary non-UTF-8 on a JSON socket", new Uint8Array([0xff, 0xfe]), { error: { code: -32700, message: "Parse error" } }],
  ])("JSON socket: %s", async (_name, frame, expected) => {
    const c = await open(s);
    expect(await c.raw(frame)).toEqual(expected);
    expect(await c.json({ id: 99, method: "ping" })).toEqual({ id: 99, result: null });
    c.ws.close();
  });

  it.each<[string, string | Uint8Array, Value?]>([
    ["bad CBOR", new Uint8Array([0xff])],
    ["truncated CBOR", new Uint8Array([0xa1, 0x62, 0x69])],
    ["a text frame", '{"id":1,"method":"ping"}'],
    // a value SurrealDB refuses: its words (test/server/rpc-refused.test.ts)
    ["an unknown tag", new Uint8Array([0xd9, 0x01, 0x00, 0xf6]), { error: { code: -32000n, message: "Error: Encountered an unknown CBOR tag" } }],
  ])("CBOR socket: %s ⇒ an error answer", async (_name, frame, expected: Value = { error: { code: -32700n, message: "Parse error" } }) => {
    const c = await open(s, ["cbor"]);
    expect(await c.raw(frame)).toEqual(expected);
    expect(await c.cbor({ id: 1n, method: "ping" })).toEqual({ id: 1n, result: undefined });
    c.ws.close();
  });

  it("a frame over the payload limit gets Invalid Request; one past the hard cap closes only that socket (1009)", async () => {
    const c = await open(s);
    expect(await c.raw(JSON.stringify({ id: 1, method: "ping", params: ["x".repeat(1100)] }))).toEqual({ error: { code: -32600, message: "Invalid Request" } });
    expect(await c.json({ id: 2, method: "ping" })).toEqual({ id: 2, result: null });
    c.ws.send(JSON.stringify({ id: 3, method: "ping", params: ["x".repeat(5000)] }));
    expect(await c.closed).toBe(1009);
    const d = await open(s);
    expect(await d.json({ id: 1, method: "ping" })).toEqual({ id: 1, result: null });
    d.ws.close();
  });
});

describe("concurrency", () => {
  it("answers concurrent requests by id, bounded by the in-flight limit and queue", async () => {
    const t = await startServer({ limits: { wsMaxInFlight: 1, wsMaxQueued: 1 } });
    try {
      const gates: (() => void)[] = [];
      t.engine.respond = (call) =>
        new Promise((resolve) => gates.push(() => resolve([{ status: "OK", result: call.query, time: "1ms" }])));
      const c = await open(t);
      c.ws.send(JSON.stringify({ id: "a", method: "query", params: ["A"] }));
      c.ws.send(JSON.stringify({ id: "b", method: "query", params: ["B"] }));
      c.ws.send(JSON.stringify({ id: "c", method: "query", params: ["C"] }));
      // the third finds one running and one queued
      expect(await c.next()).toEqual({ id: "c", error: { code: -32000, message: "There was a problem with the database: Too many concurrent requests on this connection" } });
      while (gates.length < 1) await new Promise((r) => setImmediate(r));
      expect(t.engine.calls.map((x) => x.query)).toEqual(["A"]);
      gates[0]();
      expect(await c.next()).toEqual({ id: "a", result: [{ result: "A", status: "OK", time: "1ms" }] });
      while (gates.length < 2) await new Promise((r) => setImmediate(r));
      gates[1]();
      expect(await c.next()).toEqual({ id: "b", result: [{ result: "B", status: "OK", time: "1ms" }] });
      c.ws.close();
    } finally {
      await t.close();
    }
  });

  it("a queued NONE message is answered and does not stall the queue", async () => {
    const t = await startServer({ limits: { wsMaxInFlight: 1, wsMaxQueued: 4 } });
    try {
      let release = () => {};
      t.engine.respond = () => new Promise((resolve) => (release = () => resolve([{ status: "OK", result: 1n, time: "1ms" }])));
      const c = await open(t, ["cbor"]);
      c.ws.send(encodeCbor({ id: 1n, method: "query", params: ["RETURN 1"] }));
      c.ws.send(new Uint8Array([0xf7]));
      c.ws.send(encodeCbor({ id: 2n, method: "ping" }));
      while (t.engine.calls.length < 1) await new Promise((r) => setImmediate(r));
      release();
      expect(await c.next()).toMatchObject({ id: 1n });
      expect(await c.next()).toEqual({ error: { code: -32600n, message: "Invalid Request" } });
      expect(await c.next()).toEqual({ id: 2n, result: undefined });
      c.ws.close();
    } finally {
      await t.close();
    }
  });

  it("out-of-order completion: responses carry their own ids", async () => {
    const t = await startServer();
    try {
      const gates = new Map<string, () => void>();
      t.engine.respond = (call) => new Promise((resolve) => gates.set(call.query, () => resolve([{ status: "OK", result: call.query, time: "1ms" }])));
      const c = await open(t);
      c.ws.send(JSON.stringify({ id: 1, method: "query", params: ["slow"] }));
      c.ws.send(JSON.stringify({ id: 2, method: "query", params: ["fast"] }));
      while (gates.size < 2) await new Promise((r) => setImmediate(r));
      gates.get("fast")!();
      expect(await c.next()).toMatchObject({ id: 2 });
      gates.get("slow")!();
      expect(await c.next()).toMatchObject({ id: 1 });
      c.ws.close();
    } finally {
      await t.close();
    }
  });
});

describe("lifecycle", () => {
  it("the server pings its sockets", async () => {
    const t = await startServer({ limits: { wsPingIntervalMs: 10 } });
    try {
      const c = await open(t);
      await new Promise<void>((resolve) => c.ws.once("ping", () => resolve()));
      c.ws.close();
    } finally {
      await t.close();
    }
  });

  it("a socket that never answers pings is dropped; the server lives on", async () => {
    const t = await startServer({ limits: { wsPingIntervalMs: 10 } });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${t.port}/rpc`, { autoPong: false });
      const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
      await new Promise((r) => ws.once("open", r));
      expect(await closed).toBe(1006);
      expect((await fetch(`${t.base}/health`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("close() shuts open sockets with 1001 and stops listening", async () => {
    const t = await startServer();
    const c = await open(t);
    await t.close();
    expect(await c.closed).toBe(1001);
    await expect(fetch(`${t.base}/health`)).rejects.toThrow();
  });
});
