// Benchmarks against a server in a child process (its event loop and memory its own): `serveChild` starts one on
// 127.0.0.1 with an example schema and reads its RSS; the child's side is this file run with `serve`.

import { fork, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Compat } from "../src/exec/session.js";

export interface ServerChild {
  readonly port: number;
  readonly child: ChildProcess;
  /** The child's resident memory now and its peak (MB), from /proc. */
  memory(): { rssMb: number; peakMb: number };
  /** The server's unsent answer bytes and the sockets it closed; with `gc`, after a full garbage collection. */
  wire(gc?: boolean): Promise<{ queuedMb: number; closedSockets: number; heapMb: number; externalMb: number }>;
  stop(): Promise<void>;
}

/** Milliseconds one HTTP request to the server on `port` takes to be answered. */
export function timed(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(performance.now() - t));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A surql-auth server with examples/schema-v<compat>.surql in a child process (node --import tsx). */
export function serveChild(compat: Compat): Promise<ServerChild> {
  const child = fork(fileURLToPath(import.meta.url), ["serve", String(compat)], { execArgv: ["--import", "tsx", "--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const status = (field: string) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8").split("\n").find((l) => l.startsWith(field)) ?? "")?.[1] ?? 0) / 1024;
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (m) => {
      const { port } = m as { port: number };
      resolve({
        port,
        child,
        memory: () => ({ rssMb: status("VmRSS:"), peakMb: status("VmHWM:") }),
        wire: (gc = false) =>
          new Promise((done) => {
            child.once("message", (w) => done(w as Awaited<ReturnType<ServerChild["wire"]>>));
            child.send({ gc });
          }),
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

if (process.argv[2] === "serve") {
  const { SurqlAuth } = await import("../src/index.js");
  const compat = Number(process.argv[3]) === 1 ? 1 : 2;
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, import: [`examples/schema-v${compat}.surql`] });
  const { server, port } = await db.listen("127.0.0.1", 0);
  process.send?.({ port });
  const report = () => {
    const mb = (n: number) => n / 2 ** 20;
    const { heapUsed, external } = process.memoryUsage();
    process.send?.({ queuedMb: mb(server.wire.queuedBytes), closedSockets: server.wire.closedSockets, heapMb: mb(heapUsed), externalMb: mb(external) });
  };
  process.on("message", (m) => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!(m as { gc?: boolean }).gc || gc === undefined) return report();
    // buffers are freed by a sweeper after the collection: collect again once it ran
    gc();
    setTimeout(() => (gc(), report()), 500);
  });
  if (process.env["WIRE_DEBUG"]) {
    const { wire } = server;
    setInterval(() => console.log(`server: sockets ${server.rpcConnections}, unsent ${(wire.queuedBytes / 2 ** 20).toFixed(0)} MiB, paused ${wire.pausedSockets}, closed ${wire.closedSockets}, running ${server.rpcInFlight}, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB, external ${(process.memoryUsage().external / 2 ** 20).toFixed(0)} MiB`), 2000).unref();
  }
  process.on("SIGTERM", () => process.exit(0));
}
