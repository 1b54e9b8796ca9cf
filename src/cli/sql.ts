// CLI `sql`: a SurrealQL shell (or one --query) against a running server over WebSocket JSON RPC.

import { createInterface } from "node:readline";
import WebSocket from "ws";
import type { SqlOptions } from "./args.js";

interface RpcAnswer {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** A minimal JSON RPC client: one request at a time, answers matched by id. */
class RpcClient {
  private next = 0;
  private readonly waiting = new Map<number, (a: RpcAnswer) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      let answer: RpcAnswer;
      try {
        answer = JSON.parse(String(data)) as RpcAnswer;
      } catch {
        return;
      }
      if (typeof answer.id === "number") this.waiting.get(answer.id)?.(answer);
    });
  }
  static connect(endpoint: string): Promise<RpcClient> {
    const url = new URL(endpoint);
    url.protocol = url.protocol.replace(/^http/, "ws");
    if (!url.pathname.endsWith("/rpc")) url.pathname = `${url.pathname.replace(/\/$/, "")}/rpc`;
    const ws = new WebSocket(url, "json");
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new RpcClient(ws)));
      ws.once("error", reject);
    });
  }
  call(method: string, params: unknown[] = []): Promise<unknown> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (a) => {
        this.waiting.delete(id);
        if (a.error) reject(new Error(a.error.message));
        else resolve(a.result);
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }
  close(): void {
    this.ws.close();
  }
}

function show(results: unknown): string {
  if (!Array.isArray(results)) return JSON.stringify(results, null, 2);
  return results
    .map((r: { status?: string; result?: unknown }, i) => `-- statement ${i + 1} (${r.status ?? "?"})\n${JSON.stringify(r.result, null, 2)}`)
    .join("\n\n");
}

export async function sql(opts: SqlOptions): Promise<number> {
  const client = await RpcClient.connect(opts.endpoint);
  try {
    if (opts.user !== undefined) {
      const creds: Record<string, string> = { user: opts.user, pass: opts.pass ?? "" };
      if (opts.authLevel !== "root" && opts.ns) creds.NS = opts.ns;
      if (opts.authLevel === "database" && opts.db) creds.DB = opts.db;
      await client.call("signin", [creds]);
    }
    if (opts.ns || opts.db) await client.call("use", [opts.ns ?? null, opts.db ?? null]);
    if (opts.query !== undefined) {
      process.stdout.write(`${show(await client.call("query", [opts.query]))}\n`);
      return 0;
    }
    const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: "surql> " });
    let buffer = "";
    rl.prompt();
    for await (const line of rl) {
      buffer += `${line}\n`;
      if (!/;\s*$/.test(line) && line.trim() !== "") {
        rl.setPrompt("   ... ");
        rl.prompt();
        continue;
      }
      const text = buffer.trim();
      buffer = "";
      if (text) {
        try {
          process.stdout.write(`${show(await client.call("query", [text]))}\n`);
        } catch (e) {
          process.stdout.write(`error: ${(e as Error).message}\n`);
        }
      }
      rl.setPrompt("surql> ");
      rl.prompt();
    }
    return 0;
  } finally {
    client.close();
  }
}
