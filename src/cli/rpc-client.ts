// CLI: a small WebSocket RPC client speaking CBOR (so values keep their SurrealQL types), answers matched by id.

import WebSocket from "ws";
import { decodeCbor, encodeCbor } from "../server/codec/cbor.js";
import type { Compat } from "../exec/session.js";
import type { Value } from "../value/types.js";

/** An RPC error answer: SurrealDB's code and message. */
export class RpcAnswerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The WebSocket RPC URL of an endpoint given as http(s):// or ws(s)://, with or without /rpc. */
export function rpcUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  url.protocol = url.protocol.replace(/^http/, "ws");
  if (!url.pathname.endsWith("/rpc")) url.pathname = `${url.pathname.replace(/\/$/, "")}/rpc`;
  return url;
}

export class RpcClient {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (v: Value) => void; reject: (e: Error) => void }>();
  /** The server's dialect, from its `version` answer (values are encoded by it). */
  compat: Compat = 2;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      let answer: Value;
      try {
        answer = decodeCbor(new Uint8Array(data), { compat: this.compat });
      } catch {
        return;
      }
      const a = answer as { id?: Value; result?: Value; error?: { code: bigint | number; message: string } };
      const waiter = this.waiting.get(Number(a.id));
      if (!waiter) return;
      this.waiting.delete(Number(a.id));
      if (a.error) waiter.reject(new RpcAnswerError(Number(a.error.code), a.error.message));
      else waiter.resolve(a.result);
    });
    ws.on("close", () => {
      for (const w of this.waiting.values()) w.reject(new Error("the connection closed"));
      this.waiting.clear();
    });
  }

  static async connect(endpoint: string): Promise<RpcClient> {
    const ws = new WebSocket(rpcUrl(endpoint), "cbor");
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const client = new RpcClient(ws);
    const version = await client.call("version");
    if (typeof version === "string" && /-1\./.test(version)) client.compat = 1;
    return client;
  }

  call(method: string, params: Value[] = []): Promise<Value> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(encodeCbor({ id: BigInt(id), method, params }, { compat: this.compat }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** Signs the client in as the command line says: a token, or a system user at its level; then selects ns / db. */
export async function signIn(
  client: RpcClient,
  opts: { user?: string | undefined; pass?: string | undefined; token?: string | undefined; ns?: string | undefined; db?: string | undefined; authLevel: "root" | "namespace" | "database" },
): Promise<void> {
  if (opts.token !== undefined) await client.call("authenticate", [opts.token]);
  else if (opts.user !== undefined) {
    const creds: Record<string, string> = { user: opts.user, pass: opts.pass ?? "" };
    if (opts.authLevel !== "root" && opts.ns) creds.NS = opts.ns;
    if (opts.authLevel === "database" && opts.db) creds.DB = opts.db;
    await client.call("signin", [creds]);
  }
  if (opts.ns || opts.db) await client.call("use", [opts.ns ?? null, opts.db ?? null]);
}
