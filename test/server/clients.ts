// Test clients for a real server: a surql-auth instance serving a schema per compat, and a JSON-RPC WebSocket.

import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../src/index.js";
import type { Compat } from "../../src/exec/session.js";

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
