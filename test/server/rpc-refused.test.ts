// Frames the server cannot read get an answer (attack pass 10: a CBOR query whose variables carried tag 35, 21065 or
// 44–57 got none). Real `ws` clients on 127.0.0.1, both compats: a value SurrealDB refuses is answered in its words
// (2.x `Error: Encountered an unknown CBOR tag` -32000, 1.x `Invalid Request` -32600) with the request's id; bytes that
// do not decode get `Parse error` -32700; the socket stays usable; the log names the reason and never the frame's content.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Surreal } from "surrealdb";
import WebSocket from "ws";
import { createLogger } from "../../src/cli/logger.js";
import { SurqlAuth } from "../../src/index.js";
import { CBOR_REFUSED, decodeCbor, encodeCbor } from "../../src/server/codec/cbor.js";
import type { SurrealServer } from "../../src/server/index.js";
import type { Value } from "../../src/value/types.js";

const SECRET = "hunter2-Secret-in-a-frame";

/** A CBOR request `{ id, method: "query", params: ["RETURN $x", { s: SECRET, x: <tag>(<payload>) }] }` built by hand. */
function taggedQuery(id: number, tag: number, payloadHex: string): Uint8Array {
  const head = Buffer.from(encodeCbor({ id: BigInt(id), method: "query", params: ["RETURN $x", { s: SECRET }] }));
  // the variables map is last: widen it from one entry to two and append `x: tag(payload)`
  const vars = head.lastIndexOf(0xa1);
  const tagHead = tag < 24 ? Buffer.of(0xc0 + tag) : tag < 256 ? Buffer.of(0xd8, tag) : Buffer.of(0xd9, tag >> 8, tag & 0xff);
  return Buffer.concat([head.subarray(0, vars), Buffer.of(0xa2), head.subarray(vars + 1), Buffer.from("6178", "hex"), tagHead, Buffer.from(payloadHex, "hex")]);
}

describe.each([1, 2] as const)("undecodable RPC frames are answered (compat %i)", (compat) => {
  let server: SurrealServer;
  let port: number;
  const lines: string[] = [];

  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, logger: createLogger("debug", { format: "json", write: (l) => lines.push(l) }) });
    ({ server, port } = await db.listen("127.0.0.1", 0));
  });
  afterAll(async () => {
    await server.close();
  });

  /** A CBOR socket signed in as root: `send` writes raw bytes and resolves with the next answer. */
  async function cborSocket(): Promise<{ ws: WebSocket; send(bytes: Uint8Array): Promise<Record<string, Value>> }> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, ["cbor"]);
    const answers: ((v: Record<string, Value>) => void)[] = [];
    ws.on("message", (d: Buffer) => answers.shift()?.(decodeCbor(new Uint8Array(d)) as Record<string, Value>));
    await new Promise((r) => ws.once("open", r));
    const send = (bytes: Uint8Array) => new Promise<Record<string, Value>>((resolve) => (answers.push(resolve), ws.send(bytes)));
    await send(encodeCbor({ id: 1n, method: "signin", params: [{ user: "root", pass: "root" }] }));
    return { ws, send };
  }

  const refusal = compat === 2 ? { code: -32000n, message: `Error: ${CBOR_REFUSED.unknownTag}` } : { code: -32600n, message: "Invalid Request" };

  it.each([
    [35, "62612b"],
    [21065, "62612b"],
    [44, "01"],
    [50, "01"],
    [57, "80"],
    [15, "6131"],
  ])("a query variable of tag %i: SurrealDB's error with the request's id; the socket goes on", async (tag, payload) => {
    const { ws, send } = await cborSocket();
    expect(await send(taggedQuery(7, tag, payload))).toEqual({ id: 7n, error: refusal });
    expect(await send(encodeCbor({ id: 8n, method: "query", params: ["RETURN $x", { x: 2n }] }))).toMatchObject({ id: 8n, result: [{ status: "OK", result: 2n }] });
    ws.close();
  });

  it("a malformed tagged value is answered in SurrealDB's words for it (2.x)", async () => {
    const { ws, send } = await cborSocket();
    const answer = await send(taggedQuery(9, 37, "4101"));
    expect(answer).toEqual({ id: 9n, error: compat === 2 ? { code: -32000n, message: `Error: ${CBOR_REFUSED.uuidBytes}` } : refusal });
    ws.close();
  });

  it("bytes that do not decode: Parse error without an id (none can be read); a text frame on a CBOR socket too", async () => {
    const { ws, send } = await cborSocket();
    const frame = taggedQuery(10, 35, "62612b");
    expect(await send(frame.subarray(0, frame.length - 2))).toEqual({ error: { code: -32700n, message: "Parse error" } });
    const text = await new Promise<Value>((resolve) => {
      ws.once("message", (d: Buffer) => resolve(decodeCbor(new Uint8Array(d))));
      ws.send("{}");
    });
    expect(text).toEqual({ error: { code: -32700n, message: "Parse error" } });
    ws.close();
  });

  it("HTTP POST /rpc: the same refusal, without an id (as every HTTP answer)", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
      method: "POST",
      headers: { "content-type": "application/cbor", authorization: `Basic ${Buffer.from("root:root").toString("base64")}` },
      body: taggedQuery(11, 35, "62612b"),
    });
    expect(res.status).toBe(200);
    expect(decodeCbor(new Uint8Array(await res.arrayBuffer()))).toEqual({ error: refusal });
  });

  it.runIf(compat === 2)("the official SDK's query with a variable it tags unknown (a Set, tag 258) rejects in SurrealDB's words instead of waiting for ever", async () => {
    const db = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
    await db.connect(`ws://127.0.0.1:${port}/rpc`, { namespace: "n", database: "d", reconnect: false, authentication: { username: "root", password: "root" } });
    await expect(db.query("RETURN $x", { x: new Set([1]) })).rejects.toThrow(CBOR_REFUSED.unknownTag);
    expect(await db.query("RETURN 1")).toEqual([1]);
    await db.close();
  });

  it("the log names each refusal and its reason, never the frame's content", () => {
    const refusals = lines.map((l) => JSON.parse(l) as { fields: Record<string, unknown> }).filter((l) => l.fields["message"] === "rpc frame refused");
    expect(refusals.map((l) => l.fields["reason"])).toContain(CBOR_REFUSED.unknownTag);
    expect(refusals.map((l) => l.fields["reason"])).toContain("Parse error");
    expect(refusals.every((l) => l.fields["identity"] !== undefined && ["ws", "http"].includes(String(l.fields["transport"])))).toBe(true);
    expect(lines.filter((l) => l.includes(SECRET) || l.includes("hunter2"))).toEqual([]);
  });
});
