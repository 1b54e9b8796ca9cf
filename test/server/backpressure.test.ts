// Back-pressure on the wire (attack pass 3, A6): a client that stops reading its answers gets its socket paused
// (no frames read, no queued request started) and closed past the hard cap or the server's total, releasing what it
// held; connections per IP address are capped. Events and the server's counters, not timing or RSS.

import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type WebSocket from "ws";
import type { Compat } from "../../src/exec/session.js";
import { Outbox, WireMeter } from "../../src/server/backpressure.js";
import { defaultLimits, type ServerLimits } from "../../src/server/types.js";
import { open, type Client } from "./clients.js";
import { startServer, type TestServer } from "./fakes.js";

/** Every answer is one 256 KiB string: a few dozen unread fill the kernel's buffers and then the server's. */
const BIG = "x".repeat(256 * 1024);
const REQUESTS = 200;

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

async function serve(compat: Compat, limits: Partial<ServerLimits>): Promise<TestServer> {
  const s = await startServer({ compat, limits: { wsMaxInFlight: 4, clientMaxQueued: 256, ...limits } });
  s.engine.respond = () => [{ status: "OK", result: BIG, time: "1ms" }];
  servers.push(s);
  return s;
}

/** The client's TCP socket: pausing it stops reading, so the server's answers pile up. */
const tcp = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

function flood(c: Client, n: number): void {
  for (let i = 0; i < n; i++) c.ws.send(JSON.stringify({ id: i, method: "query", params: ["RETURN 1"] }));
}

/** Stop reading `c` and flood it; resolves with the server's close event for it, once its unsent bytes are released. */
async function starve(s: TestServer, c: Client): Promise<unknown> {
  tcp(c.ws).pause();
  const shut = once(s.server.wire, "close");
  flood(c, REQUESTS);
  const [event] = await shut;
  expect(s.server.wire.queuedBytes).toBe(0);
  return event;
}

/** Read again until the server's close reaches the client. */
async function drain(c: Client): Promise<void> {
  tcp(c.ws).resume();
  await c.closed;
}

const notRead = { code: 1008, reason: "Too many answers not read by the client" };

it("a text answer is handed to its socket as UTF-8 bytes (no string waits in the socket's queue) and counted exactly", () => {
  const meter = new WireMeter(defaultLimits);
  const sent: unknown[] = [];
  const ws = { send: (data: unknown) => sent.push(data) } as unknown as WebSocket;
  new Outbox(meter, ws).send("é".repeat(10), false, () => {});
  expect(Buffer.isBuffer(sent[0])).toBe(true);
  expect((sent[0] as Buffer).toString("utf8")).toBe("é".repeat(10));
  expect(meter.queuedBytes).toBe(20);
});

describe.each([1, 2] as Compat[])("compat %i", (compat) => {
  it("a socket whose client reads nothing is paused; reading again resumes it and every answer arrives", async () => {
    const s = await serve(compat, { wsPauseBytes: 64 * 1024, wsMaxBufferedBytes: 1 << 30, serverMaxBufferedBytes: 1 << 30 });
    const c = await open(s);
    tcp(c.ws).pause();
    const paused = once(s.server.wire, "pause");
    flood(c, REQUESTS);
    await paused;
    expect(s.server.wire.pausedSockets).toBe(1);
    expect(s.server.wire.queuedBytes).toBeGreaterThan(64 * 1024);
    // queued requests wait: only those in flight when it paused have run
    expect(s.engine.calls.length).toBeLessThan(REQUESTS);
    const resumed = once(s.server.wire, "resume");
    tcp(c.ws).resume();
    await resumed;
    const ids = new Set<unknown>();
    for (let i = 0; i < REQUESTS; i++) ids.add(((await c.next()) as { id: unknown }).id);
    expect(ids.size).toBe(REQUESTS);
    expect(s.engine.calls.length).toBe(REQUESTS);
    const closed = c.closed;
    c.ws.close();
    await closed;
  });

  it("past the per-socket hard cap the socket is closed (1008) and what it held is released", async () => {
    const s = await serve(compat, { wsPauseBytes: 64 * 1024, wsMaxBufferedBytes: 1024 * 1024, serverMaxBufferedBytes: 1 << 30 });
    const c = await open(s);
    expect(await starve(s, c)).toEqual(notRead);
    expect(s.server.wire.pausedSockets).toBe(0);
    expect(s.server.wire.closedSockets).toBe(1);
    await drain(c);
  });

  it("past the server's total the socket holding the most is closed (1013); another keeps working", async () => {
    const s = await serve(compat, { wsPauseBytes: 1 << 30, wsMaxBufferedBytes: 1 << 30, serverMaxBufferedBytes: 2 * 1024 * 1024 });
    // answers of requests already running pass the total after the server is crowded
    s.engine.respond = () => [{ status: "OK", result: "z".repeat(1024 * 1024), time: "1ms" }];
    const good = await open(s);
    const c = await open(s);
    expect(await starve(s, c)).toEqual({ code: 1013, reason: "Too many unread answers on the server" });
    expect(await good.json({ id: "ok", method: "ping" })).toEqual({ id: "ok", result: null });
    await drain(c);
    good.ws.close();
  });

  it("past half the server's total a socket holding unread answers starts no new request; another does; all arrive once read", async () => {
    const s = await serve(compat, { wsPauseBytes: 1 << 30, wsMaxBufferedBytes: 1 << 30, serverMaxBufferedBytes: 16 * 1024 * 1024 });
    const good = await open(s);
    const c = await open(s);
    tcp(c.ws).pause();
    const crowded = once(s.server.wire, "crowded");
    flood(c, REQUESTS);
    await crowded;
    // what ran when the server became crowded finishes; nothing more of c starts
    while (s.server.rpcInFlight > 0) await new Promise((r) => setImmediate(r));
    const started = s.engine.calls.length;
    expect(started).toBeLessThan(REQUESTS);
    expect(await good.json({ id: "q", method: "query", params: ["RETURN 1"] })).toMatchObject({ id: "q" });
    expect(s.engine.calls.length).toBe(started + 1);
    expect(s.server.wire.closedSockets).toBe(0);
    // c reads again: its waiting requests run and every answer arrives
    tcp(c.ws).resume();
    const ids = new Set<unknown>();
    for (let i = 0; i < REQUESTS; i++) ids.add(((await c.next()) as { id: unknown }).id);
    expect(ids.size).toBe(REQUESTS);
    expect(s.server.wire.crowded).toBe(false);
    good.ws.close();
    c.ws.close();
  });

  it("a socket held while the server is crowded that writes nothing for wsStallMs is closed (1008), releasing what it held", async () => {
    const s = await serve(compat, { wsPauseBytes: 1 << 30, wsMaxBufferedBytes: 1 << 30, serverMaxBufferedBytes: 16 * 1024 * 1024, wsStallMs: 0 });
    const c = await open(s);
    expect(await starve(s, c)).toEqual(notRead);
    expect(s.server.wire.crowded).toBe(false);
    await drain(c);
  });

  it("a socket paused past wsStallMs is closed (1008)", async () => {
    const s = await serve(compat, { wsPauseBytes: 64 * 1024, wsMaxBufferedBytes: 1 << 30, serverMaxBufferedBytes: 1 << 30, wsStallMs: 0 });
    const c = await open(s);
    expect(await starve(s, c)).toEqual(notRead);
    await drain(c);
  });

  it("HTTP: an answer a client does not read counts towards the server's total; past it that connection is closed", async () => {
    const s = await serve(compat, { serverMaxBufferedBytes: 2 * 1024 * 1024 });
    s.engine.respond = () => [{ status: "OK", result: "y".repeat(16 * 1024 * 1024), time: "1ms" }];
    // a raw socket with no reader: the answer stays in the server's buffers
    const sock = connect(s.port, "127.0.0.1");
    await once(sock, "connect");
    const shut = once(s.server.wire, "close");
    sock.write(`POST /sql HTTP/1.1\r\nhost: x\r\naccept: application/json\r\nauthorization: Basic ${Buffer.from("root:root").toString("base64")}\r\ncontent-length: 8\r\n\r\nRETURN 1`);
    expect(await shut).toEqual([{ code: 1013, reason: "Too many unread answers on the server" }]);
    const gone = once(sock, "close");
    sock.resume();
    await gone;
    expect(s.server.wire.queuedBytes).toBe(0);
  });

  it("the connection over the per-IP cap is refused with 429 (WebSocket and HTTP); closing one makes room", async () => {
    const s = await serve(compat, { maxConnectionsPerIp: 2 });
    const a = await open(s);
    const b = await open(s);
    await expect(open(s)).rejects.toMatchObject({ status: 429, body: "Too many connections from this address" });
    const r = await fetch(`${s.base}/health`);
    expect(r.status).toBe(429);
    expect(await r.text()).toBe("Too many connections from this address");
    expect(s.server.wire.refusedConnections).toBe(2);
    a.ws.close();
    while (s.server.wire.connectionsFrom("127.0.0.1") >= 2) await once(s.server.wire, "disconnect");
    const c = await open(s);
    expect(await c.json({ id: 1, method: "ping" })).toEqual({ id: 1, result: null });
    b.ws.close();
    c.ws.close();
  });

  it("connections over the per-IP cap that never finish their headers are closed: past twice the cap at once, others after a grace (attack pass 9, G11)", async () => {
    const s = await serve(compat, { maxConnectionsPerIp: 2 });
    const held = [await open(s), await open(s)];
    const slow: Socket[] = [];
    for (let i = 0; i < 4; i++) {
      const sock = connect(s.port, "127.0.0.1");
      sock.on("error", () => {});
      await once(sock, "connect");
      sock.write("GET /health HTTP/1.1\r\nhost: x\r\n");
      slow.push(sock);
    }
    // every slow socket ends although none of them finished its request; the two held ones stay usable
    await Promise.all(slow.map((sock) => (sock.destroyed ? Promise.resolve() : once(sock, "close"))));
    while (s.server.wire.connectionsFrom("127.0.0.1") > 2) await once(s.server.wire, "disconnect");
    expect(s.server.wire.refusedConnections).toBeGreaterThanOrEqual(2);
    expect(await held[0]!.json({ id: 1, method: "ping" })).toEqual({ id: 1, result: null });
    for (const c of held) c.ws.close();
  });
});
