// Benchmarks against a real server: `surql-auth start` in a child process (the compiled dist/ when built, else
// through tsx) and WebSocket RPC clients.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";

/** Starts `surql-auth start` on `path`; resolves with the child and its port once it listens. */
export async function startServer(path: string, extra: readonly string[] = []): Promise<{ child: ChildProcess; port: number; main: string[] }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  // the command a user runs (package.json's bin): on Linux it starts the server as its child with its memory settings
  const main = existsSync("dist/src/cli/surql-auth.cjs") ? ["dist/src/cli/surql-auth.cjs"] : ["--import", "tsx", "src/cli/surql-auth.cts"];
  const args = [...main, "start", "--user", "root", "--pass", "root", "--import", "examples/schema-v2.surql"];
  // one client address signs one user in over and over: no throttle
  const limits = join(mkdtempSync(join(tmpdir(), "surql-bench-limits-")), "limits.json");
  writeFileSync(limits, JSON.stringify({ throttle: { enabled: false } }));
  args.push("--bind", `127.0.0.1:${port}`, "--max-connections-per-ip", "0", "--limits", limits, "--log", "warn", ...extra, path);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return { child, port, main };
  }
  child.kill();
  throw new Error("the server did not start");
}

/** One WebSocket RPC connection: `call` sends a request and waits for its answer. */
export async function connect(port: number): Promise<{ ws: WebSocket; call(method: string, params: unknown[]): Promise<unknown> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  let id = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data)) as { id: number; result?: unknown; error?: { message: string } };
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error) w?.reject(new Error(msg.error.message));
    else w?.resolve(msg.result);
  });
  const call = (method: string, params: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      waiting.set(++id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, call };
}


export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}
