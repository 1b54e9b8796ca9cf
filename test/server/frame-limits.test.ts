// Frame and body limits per identity kind (attack pass 3, A7): a session not signed in gets small frames, a record user
// middling ones, a system user the full limit; every frame's values are counted while decoding. Outcomes, not timing:
// a frame over its byte limit is answered without its id (it was never decoded), one over the value limit gets Parse error.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCbor } from "../../src/server/codec/cbor.js";
import type { Compat } from "../../src/exec/session.js";
import { open } from "./clients.js";
import { startServer, type TestServer } from "./fakes.js";

const limits = { preAuthPayload: 1000, preAuthValues: 50, clientPayload: 4000, recordValues: 200, wsMaxPayload: 16000, rpcBody: 16000, maxValues: 1000 };
const invalidRequest = { error: { code: -32600, message: "Invalid Request" } };
const parseError = { error: { code: -32700, message: "Parse error" } };

/** A ping frame carrying an object of `n` keys: 2n + 8 values (keys count). */
const keysFrame = (n: number) => JSON.stringify({ id: 1, method: "ping", params: [Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]))] });
/** A ping frame of about `bytes` bytes and 5 values. */
const bigFrame = (bytes: number) => JSON.stringify({ id: 1, method: "ping", params: ["x".repeat(bytes)] });

describe.each([1, 2] as Compat[])("compat %i", (compat) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ compat, limits, authEnabled: true });
  });
  afterAll(async () => {
    await s.close();
  });

  it("before signin a frame over the pre-auth size is Invalid Request without its id (not decoded); the socket stays usable", async () => {
    const c = await open(s);
    expect(await c.raw(bigFrame(1100))).toEqual(invalidRequest);
    // undecodable text over the limit: still Invalid Request, so the text was never parsed
    expect(await c.raw(`{${"x".repeat(1100)}`)).toEqual(invalidRequest);
    expect(await c.raw(bigFrame(900))).toEqual({ id: 1, result: null });
    c.ws.close();
  });

  it("before signin a frame of more values than the pre-auth count is Parse error", async () => {
    const c = await open(s);
    expect(await c.raw(keysFrame(21))).toEqual({ id: 1, result: null });
    expect(await c.raw(keysFrame(22))).toEqual(parseError);
    c.ws.close();
  });

  it("CBOR: the same limits", async () => {
    const c = await open(s, ["cbor"]);
    expect(await c.raw(encodeCbor({ id: 1n, method: "ping", params: ["x".repeat(1100)] }))).toEqual({ error: { code: -32600n, message: "Invalid Request" } });
    const ints = (n: number) => encodeCbor({ id: 1n, method: "ping", params: [Array.from({ length: n }, () => 1n)] });
    // 1 map + 3 keys + id + method + params + the inner array + n items
    expect(await c.raw(ints(42))).toEqual({ id: 1n, result: undefined });
    expect(await c.raw(ints(43))).toEqual({ error: { code: -32700n, message: "Parse error" } });
    c.ws.close();
  });

  it("a record user gets the record limits, a system user the full ones, on the same socket as it signs in", async () => {
    const c = await open(s);
    const ok = { id: 1, result: null };
    expect(await c.json({ id: 0, method: "signup", params: [{ NS: "a", DB: "b", AC: "user" }] })).toMatchObject({ id: 0, result: "tok-record" });
    expect(await c.raw(bigFrame(3900))).toEqual(ok);
    expect(await c.raw(bigFrame(4100))).toEqual(invalidRequest);
    expect(await c.raw(keysFrame(96))).toEqual(ok);
    expect(await c.raw(keysFrame(97))).toEqual(parseError);
    expect(await c.json({ id: 0, method: "signin", params: [{ user: "root", pass: "root" }] })).toMatchObject({ id: 0 });
    expect(await c.raw(bigFrame(15000))).toEqual(ok);
    expect(await c.raw(keysFrame(496))).toEqual(ok);
    expect(await c.raw(keysFrame(497))).toEqual(parseError);
    // signed out again: the pre-auth limits
    expect(await c.json({ id: 0, method: "invalidate" })).toEqual({ id: 0, result: null });
    expect(await c.raw(bigFrame(1100))).toEqual(invalidRequest);
    c.ws.close();
  });

  it("with authentication off an anonymous session is all-powerful and gets the system limits", async () => {
    const open_ = await startServer({ compat, limits, authEnabled: false });
    try {
      const c = await open(open_);
      expect(await c.raw(bigFrame(15000))).toEqual({ id: 1, result: null });
      expect(await c.raw(keysFrame(497))).toEqual(parseError);
      c.ws.close();
    } finally {
      await open_.close();
    }
  });

  it("POST /rpc: anonymous bodies get the pre-auth size (413) and value count; Basic root the full ones", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${s.base}/rpc`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...headers }, body });
    expect((await post(bigFrame(1100))).status).toBe(413);
    expect(await (await post(keysFrame(22))).json()).toEqual(parseError);
    const root = { authorization: `Basic ${Buffer.from("root:root").toString("base64")}` };
    const r = await post(bigFrame(1100), root);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ result: null });
    expect(await (await post(keysFrame(496), root)).json()).toEqual({ result: null });
  });
});
