// Benchmark (attack pass 5, C2): N WebSockets signed in as one record user each ask for a ~1 MB record many times and
// never read; prints the server's RSS (now and peak, the server in a child process), the sockets it closed and how
// long /health took meanwhile. Run: node --import tsx bench/paused-sockets.ts [sockets…]   (default 10 40 100)

import { request } from "node:http";
import os from "node:os";
import type { Socket } from "node:net";
import WebSocket from "ws";
import { serveChild, type ServerChild } from "./server-child.js";

const REQUESTS = 300;
const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);

function health(port: number): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/health", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(performance.now() - t));
    });
    req.on("error", reject);
    req.end();
  });
}

async function post(port: number, path: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { accept: "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** A socket signed in as the record user that asks for the big record REQUESTS times and reads nothing. */
async function starve(port: number, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, ["json"]);
  ws.on("error", () => {});
  await new Promise((r, j) => (ws.once("open", r), ws.once("error", j)));
  const ready = new Promise((r) => ws.once("message", r));
  ws.send(JSON.stringify({ id: 1, method: "authenticate", params: [token] }));
  await ready;
  (ws as unknown as { _socket: Socket })._socket.pause();
  ws.send(JSON.stringify({ id: 2, method: "use", params: ["app", "app"] }));
  // in batches of what a connection may hold (8 running, 16 queued), so few are refused outright
  void (async () => {
    for (let i = 0; i < REQUESTS && ws.readyState === WebSocket.OPEN; i++) {
      ws.send(JSON.stringify({ id: 10 + i, method: "query", params: ["SELECT * FROM note:big"] }));
      if (i % 24 === 23) await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return ws;
}

async function run(server: ServerChild, token: string, sockets: number): Promise<void> {
  const before = server.memory().rssMb;
  const open: WebSocket[] = [];
  let peak = before;
  let slowest = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      slowest = Math.max(slowest, await health(server.port));
      peak = Math.max(peak, server.memory().rssMb);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  for (let i = 0; i < sockets; i++) open.push(await starve(server.port, token));
  // let the server work through what it was sent
  const timeline: number[] = [];
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const rss = server.memory().rssMb;
    peak = Math.max(peak, rss);
    if (i % 8 === 7) timeline.push(Math.round(rss));
  }
  if (process.env["TIMELINE"]) console.log(timeline.join(" "));
  const during = server.memory().rssMb;
  const { closedSockets, queuedMb } = await server.wire();
  for (const ws of open) ws.terminate();
  polling = false;
  await poll;
  await new Promise((r) => setTimeout(r, 1000));
  const after = server.memory().rssMb;
  const collected = await server.wire(true);
  console.log(
    `${String(sockets).padStart(3)} paused sockets × ${REQUESTS}: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (${during.toFixed(0)} after 30 s with ${queuedMb.toFixed(0)} MiB unsent, ` +
      `${after.toFixed(0)} after closing, ${server.memory().rssMb.toFixed(0)} after a full GC: heap ${collected.heapMb.toFixed(0)} MiB, external ${collected.externalMb.toFixed(0)} MiB), ` +
      `${closedSockets} closed by the server, /health max ${slowest.toFixed(0)} ms`,
  );
}

console.log(`paused sockets, ~1 MB answers — ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`);
for (const sockets of counts.length > 0 ? counts : [10, 40, 100]) {
  // a fresh server per run: its RSS peak is its own
  const server = await serveChild(2);
  try {
    const rootToken = ((await (await post(server.port, "/signin", { user: "root", pass: "root" })).json()) as { token: string }).token;
    const sql = await post(server.port, "/sql", "DEFINE TABLE note PERMISSIONS FULL; CREATE note:big SET data = string::repeat('x', 1000000);" as unknown as object, {
      authorization: `Bearer ${rootToken}`,
      "surreal-ns": "app",
      "surreal-db": "app",
    });
    if (!sql.ok) throw new Error(await sql.text());
    const token = ((await (await post(server.port, "/signup", { NS: "app", DB: "app", AC: "account", name: "Mal", email: "mal@example.com", password: "pw-mal" })).json()) as { token: string }).token;
    await run(server, token, sockets);
  } finally {
    await server.stop();
  }
}
