// Large answers through a real server (attack pass 11, I5): every send path — WebSocket RPC (JSON, CBOR), the /sql
// WebSocket, POST /rpc, POST /sql, /key — encodes a large answer a piece at a time with turns of the event loop between
// pieces, and the bytes a client receives are those the whole-value encoders write; the official SDK reads them.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Surreal } from "surrealdb";
import { decodeCbor } from "../../src/server/codec/cbor.js";
import { encodeValue, parseJsonText, type WireFormat } from "../../src/server/codec/index.js";
import { ANSWER_PIECE } from "../../src/server/codec/pieces.js";
import type { Value, ValueObject } from "../../src/value/types.js";
import { startServer, type TestServer } from "./fakes.js";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ compat: 2 });
});
afterAll(async () => {
  await s.close();
});

const auth = { authorization: `Basic ${Buffer.from("root:root").toString("base64")}`, "surreal-ns": "n", "surreal-db": "d" };

// piece boundaries fall inside escapes, NULs and a surrogate pair
const BIG = ("\0é😀\"\\x\n" + "y".repeat(ANSWER_PIECE - 9)).repeat(5);
const ROWS = Array.from({ length: 20_000 }, (_, i) => ({ n: BigInt(i), s: `row ${i}` }));

/**
 * The engine's answer: BIG, the rows, then an object whose field the encoder reads last, recording how many turns of
 * the event loop passed between the engine's answer and that read.
 */
function answerCountingTurns(): { turns: () => number } {
  let turns = 0;
  let running = false;
  let seen = -1;
  const tick = (): void => {
    turns++;
    if (running) setImmediate(tick);
  };
  s.engine.respond = () => {
    running = true;
    turns = 0;
    setImmediate(tick);
    const last: ValueObject = {};
    Object.defineProperty(last, "z", {
      enumerable: true,
      get: () => {
        if (seen < 0) seen = turns;
        running = false;
        return "end";
      },
    });
    return [{ status: "OK", result: [BIG, ROWS, last], time: "1ms" }];
  };
  return { turns: () => seen };
}

/** The bytes must be the whole-value encoder's for what they decode to (keys sorted, SurrealDB's escapes and tags). */
function expectCanonical(format: WireFormat, bytes: Buffer): Value {
  const v = format === "cbor" ? decodeCbor(new Uint8Array(bytes)) : parseJsonText(bytes.toString("utf8"));
  const again = encodeValue(format, v, 2);
  expect(Buffer.from(typeof again === "string" ? Buffer.from(again, "utf8") : again).equals(bytes)).toBe(true);
  return v;
}

/** The statement result inside an answer (an RPC answer's `result`, or the /sql list itself). */
function resultOf(answer: Value): Value[] {
  const list = (Array.isArray(answer) ? answer : (answer as ValueObject)["result"]) as ValueObject[];
  return list[0]!["result"] as Value[];
}

async function wsAnswer(protocol: WireFormat, path = "/rpc"): Promise<Buffer> {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}${path}`, path === "/rpc" ? [protocol] : [], { headers: auth });
  await new Promise((r) => ws.once("open", r));
  const got = new Promise<Buffer>((resolve) => ws.once("message", (d: Buffer) => resolve(d)));
  if (path === "/sql") ws.send("RETURN $big");
  else if (protocol === "json") ws.send(JSON.stringify({ id: 1, method: "query", params: ["RETURN $big"] }));
  else ws.send((await import("../../src/server/codec/cbor.js")).encodeCbor({ id: 1n, method: "query", params: ["RETURN $big"] }));
  const bytes = await got;
  ws.close();
  return bytes;
}

async function httpAnswer(format: WireFormat, path: string, init: { method: string; body?: string | Uint8Array; contentType?: string }): Promise<Buffer> {
  const res = await fetch(`${s.base}${path}`, {
    method: init.method,
    headers: { ...auth, accept: `application/${format}`, ...(init.contentType ? { "content-type": init.contentType } : {}) },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
  return bytes;
}

describe("a large answer on every send path (attack pass 11, I5)", () => {
  const paths: [string, WireFormat, () => Promise<Buffer>][] = [];
  for (const format of ["json", "cbor"] as const) {
    paths.push([`WebSocket RPC ${format}`, format, () => wsAnswer(format)]);
    paths.push([`POST /sql ${format}`, format, () => httpAnswer(format, "/sql", { method: "POST", body: "RETURN $big" })]);
    paths.push([`GET /key ${format}`, format, () => httpAnswer(format, "/key/person", { method: "GET" })]);
  }
  paths.push(["/sql WebSocket", "json", () => wsAnswer("json", "/sql")]);
  paths.push(["POST /rpc json", "json", () => httpAnswer("json", "/rpc", { method: "POST", contentType: "application/json", body: JSON.stringify({ id: 1, method: "query", params: ["RETURN 1"] }) })]);

  for (const [name, format, fetchAnswer] of paths) {
    it(`${name}: encoded over turns of the event loop, the bytes the whole-value encoder writes`, async () => {
      const counted = answerCountingTurns();
      const answer = expectCanonical(format, await fetchAnswer());
      const [big, rows, last] = resultOf(answer);
      expect(big === BIG).toBe(true);
      expect((rows as Value[]).length).toBe(ROWS.length);
      expect(last).toEqual({ z: "end" });
      expect(counted.turns()).toBeGreaterThanOrEqual(3);
    });
  }

  it("POST /rpc cbor: the same", async () => {
    const { encodeCbor } = await import("../../src/server/codec/cbor.js");
    const counted = answerCountingTurns();
    const body = encodeCbor({ id: 1n, method: "query", params: ["RETURN 1"] });
    const answer = expectCanonical("cbor", await httpAnswer("cbor", "/rpc", { method: "POST", contentType: "application/cbor", body }));
    expect(resultOf(answer)[0] === BIG).toBe(true);
    expect(counted.turns()).toBeGreaterThanOrEqual(3);
  });

  it("a small answer is sent within the turn the engine answers in", async () => {
    const counted = answerCountingTurns();
    const respond = s.engine.respond;
    s.engine.respond = (call) => {
      const [answer] = respond(call) as { status: "OK"; result: Value[]; time: string }[];
      return [{ ...answer!, result: [answer!.result[2]!] }];
    };
    await wsAnswer("json");
    expect(counted.turns()).toBe(0);
  });

  it.each(["ws", "http"] as const)("the official SDK reads a large answer over %s", async (scheme) => {
    s.engine.respond = () => [{ status: "OK", result: [BIG, ROWS], time: "1ms" }];
    const db = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
    await db.connect(`${scheme}://127.0.0.1:${s.port}/rpc`, { namespace: "n", database: "d", reconnect: false });
    try {
      await db.signin({ username: "root", password: "root" });
      const [result] = await db.query("RETURN $big").collect<[[string, { n: number; s: string }[]]]>();
      expect(result[0] === BIG).toBe(true);
      expect(result[1]).toHaveLength(ROWS.length);
      expect(result[1][19_999]).toEqual({ n: 19_999, s: "row 19999" });
    } finally {
      await db.close();
    }
  });
});
