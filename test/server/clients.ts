// Test clients for a real server: a surql-auth instance serving a schema per compat, and a JSON-RPC WebSocket.

import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { Compat } from "../../src/exec/session.js";
import { decodeCbor, encodeCbor } from "../../src/server/codec/cbor.js";
import type { Value } from "../../src/value/types.js";

/** A real server on 127.0.0.1 and a free port, root/root, with `schema` imported. */
export async function serveSchema(compat: Compat, schema: string): Promise<{ host: string; close(): Promise<void> }> {
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
  await db.importText(schema);
  const { server, port } = await db.listen("127.0.0.1", 0);
  return { host: `127.0.0.1:${port}`, close: () => server.close() };
}

/** A server per compat serving `schema` while the test file runs; the returned hosts are filled in before the tests. */
export function serveBothCompats(schema: string): Record<Compat, string> {
  const hosts: Record<Compat, string> = { 1: "", 2: "" };
  const servers: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    for (const compat of [1, 2] as const) {
      const served = await serveSchema(compat, schema);
      servers.push(served);
      hosts[compat] = served.host;
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  return hosts;
}

export type JsonRpcReply = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

/** A JSON WebSocket on `url`; `rpc` sends one request (id 1) and resolves with the next reply, in order. */
export async function jsonRpcSocket(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; rpc(method: string, params: unknown[]): Promise<JsonRpcReply> }> {
  const ws = new WebSocket(url, { headers });
  const replies: JsonRpcReply[] = [];
  const waiters: ((v: JsonRpcReply) => void)[] = [];
  ws.on("message", (d: Buffer) => {
    const v = JSON.parse(d.toString()) as JsonRpcReply;
    const w = waiters.shift();
    if (w) w(v);
    else replies.push(v);
  });
  await new Promise((r) => ws.once("open", r));
  const rpc = (method: string, params: unknown[]) => {
    ws.send(JSON.stringify({ id: 1, method, params }));
    return new Promise<JsonRpcReply>((resolve) => (replies.length ? resolve(replies.shift()!) : waiters.push(resolve)));
  };
  return { ws, rpc };
}

/** A client socket that buffers incoming messages so tests can await them in order. */
export class Client {
  private readonly inbox: Value[] = [];
  private readonly waiters: ((v: Value) => void)[] = [];
  readonly closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data: Buffer, isBinary) => {
      const v = isBinary ? decodeCbor(new Uint8Array(data)) : (JSON.parse(data.toString("utf8")) as Value);
      const w = this.waiters.shift();
      if (w) w(v);
      else this.inbox.push(v);
    });
    this.closed = new Promise((resolve) => ws.on("close", (code) => resolve(code)));
  }

  next(): Promise<Value> {
    const v = this.inbox.shift();
    if (v !== undefined) return Promise.resolve(v);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  json(msg: unknown): Promise<Value> {
    this.ws.send(JSON.stringify(msg));
    return this.next();
  }

  cbor(msg: Value): Promise<Value> {
    this.ws.send(encodeCbor(msg));
    return this.next();
  }

  raw(data: string | Uint8Array): Promise<Value> {
    this.ws.send(data);
    return this.next();
  }
}

/** A WebSocket on `s`'s /rpc, open (or rejected with the HTTP status and body of a refused upgrade). */
export function open(s: { readonly port: number }, protocols: string[] = [], headers: Record<string, string> = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/rpc`, protocols, { headers });
    const client = new Client(ws);
    ws.once("open", () => resolve(client));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
    });
  });
}
