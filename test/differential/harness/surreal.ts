// Differential harness: real SurrealDB 1.5.4 / 2.6.x engines (wasm, in memory) driven with raw RPC requests.

import { readFile } from "node:fs/promises";
import type { Value } from "../../../src/value/types.js";
import { decode, encode } from "./cbor.js";

export type SurrealVersion = "1.5.4" | "2.6.0";

export type RpcOutcome = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly message: string };

export interface RealSurreal {
  readonly version: SurrealVersion;
  /** One RPC request on the engine's single session, answered as the /rpc endpoint would. */
  rpc(method: string, params?: readonly unknown[]): Promise<RpcOutcome>;
  close(): Promise<void>;
}

/** The 2.x wasm build fetches its own .wasm by file URL; Node's fetch cannot, so serve those from disk. */
function allowFileFetch(): void {
  const g = globalThis as { __surqlFileFetch?: boolean; fetch: typeof fetch };
  if (g.__surqlFileFetch) return;
  g.__surqlFileFetch = true;
  const realFetch = g.fetch;
  g.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith("file:")) {
      return new Response(await readFile(new URL(url)), { headers: { "content-type": "application/wasm" } });
    }
    return realFetch(input, init);
  };
}

const messageOf = (e: unknown): string => (typeof e === "string" ? e : String((e as Error)?.message ?? e));

async function openV1(): Promise<(request: object) => Promise<Uint8Array>> {
  const mod = (await import("surrealdb-wasm-v1")) as unknown as {
    surrealdbWasmEngines(): { mem: new (ctx: object) => { connect(url: URL): Promise<void>; db: { execute(b: Uint8Array): Promise<Uint8Array> } } };
  };
  const Engine = mod.surrealdbWasmEngines().mem;
  const engine = new Engine({ emitter: { emit() {} }, encodeCbor: encode, decodeCbor: decode });
  await engine.connect(new URL("mem://"));
  let id = 0;
  return (request) => engine.db.execute(encode({ id: ++id, ...request }));
}

async function openV2(): Promise<(request: object) => Promise<Uint8Array>> {
  allowFileFetch();
  const mod = (await import("surrealdb-wasm-v2")) as unknown as {
    createWasmEngines(): { mem: (ctx: object) => SdkEngine };
  };
  interface SdkEngine {
    subscribe(event: string, cb: (arg: unknown) => void): void;
    open(state: object): void;
    send(request: object): Promise<{ raw: Uint8Array }>;
  }
  let n = 0;
  const engine = mod.createWasmEngines().mem({
    uniqueId: () => String(++n),
    codecs: { cbor: { encode, decode: (bytes: Uint8Array) => ({ raw: bytes }) } },
  });
  const warn = console.warn;
  console.warn = () => {};
  try {
    await new Promise((resolve, reject) => {
      engine.subscribe("connected", resolve);
      engine.subscribe("error", reject);
      engine.open({ url: new URL("mem://") });
    });
  } finally {
    console.warn = warn;
  }
  return async (request) => (await engine.send(request)).raw;
}

/** Opens a fresh in-memory SurrealDB with a root user root/root, as `surreal start --user root --pass root`. */
export async function openSurreal(version: SurrealVersion): Promise<RealSurreal> {
  const send = version === "1.5.4" ? await openV1() : await openV2();
  let queue: Promise<unknown> = Promise.resolve();
  const call = async (method: string, params?: readonly unknown[]): Promise<RpcOutcome> => {
    try {
      const bytes = await send(params === undefined ? { method } : { method, params });
      return { ok: true, value: decode(bytes) };
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    }
  };
  const rpc = (method: string, params?: readonly unknown[]) => {
    const next = queue.then(() => call(method, params));
    queue = next;
    return next;
  };
  const root = await rpc("query", ["DEFINE USER root ON ROOT PASSWORD 'root' ROLES OWNER"]);
  if (!root.ok) throw new Error(`could not define the root user: ${root.message}`);
  return { version, rpc, close: async () => {} };
}
