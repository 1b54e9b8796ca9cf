// Benchmark (attack pass 5, C3): a record user pipelines 100 queries of ~32 KiB text (the client text limit) on one
// WebSocket, or on 4; meanwhile /health is polled and root runs `RETURN 1`. Prints how long they waited, the server in a
// child process. Run: node --import tsx bench/pipelined.ts [compat]

import os from "node:os";
import WebSocket from "ws";
import { serveChild, timed } from "./server-child.js";

const compat = process.argv[2] === "1" ? 1 : 2;
const TEXT = `RETURN array::len([${Array(8_150).fill("t:1").join(",")}])`;

async function post(port: number, path: string, body: object): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify(body) });
  return ((await res.json()) as { token: string }).token;
}

/** `frames` queries over `sockets` sockets; resolves when every one is answered. */
async function flood(port: number, token: string, sockets: number, frames: number): Promise<void> {
  await Promise.all(
    Array.from({ length: sockets }, async () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, ["json"]);
      await new Promise((r) => ws.once("open", r));
      let answered = 0;
      const done = new Promise<void>((resolve) => ws.on("message", () => ++answered === frames + 2 && resolve()));
      ws.send(JSON.stringify({ id: 1, method: "authenticate", params: [token] }));
      ws.send(JSON.stringify({ id: 2, method: "use", params: ["app", "app"] }));
      for (let i = 0; i < frames; i++) ws.send(JSON.stringify({ id: 10 + i, method: "query", params: [TEXT] }));
      await done;
      ws.close();
    }),
  );
}

async function run(port: number, token: string, rootToken: string, sockets: number, frames: number): Promise<void> {
  const health: number[] = [];
  let flooding = true;
  const t = performance.now();
  const attack = flood(port, token, sockets, frames).then(() => (flooding = false));
  const poll = (async () => {
    while (flooding) {
      health.push(await timed(port, "GET", "/health"));
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const rootMs = await timed(port, "POST", "/sql", { authorization: `Bearer ${rootToken}`, accept: "application/json", "surreal-ns": "app", "surreal-db": "app" }, "RETURN 1");
  await attack;
  await poll;
  const total = performance.now() - t;
  health.sort((a, b) => a - b);
  const label = `${sockets} socket${sockets > 1 ? "s" : ""} × ${frames} frames`;
  console.log(`${label.padEnd(22)} ${(total / 1000).toFixed(1)} s   /health median ${health[health.length >> 1]!.toFixed(0)} ms max ${health.at(-1)!.toFixed(0)} ms (${health.length} polls)   root RETURN 1 ${rootMs.toFixed(0)} ms`);
}

console.log(`pipelined 32 KiB queries, compat ${compat} — ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`);
const server = await serveChild(compat);
try {
  const creds = { NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", email: "mal@example.com", password: "pw-mal", name: "Mal" };
  const token = await post(server.port, "/signup", creds);
  const rootToken = await post(server.port, "/signin", { user: "root", pass: "root" });
  await flood(server.port, token, 1, 8); // warm-up: the parser's first runs are slower
  await run(server.port, token, rootToken, 1, 100);
  await run(server.port, token, rootToken, 4, 30);
} finally {
  await server.stop();
}
