// Differential harness: surql-auth in-process as an RPC target (the same method handlers the WebSocket uses).

import { SurqlAuth } from "../../../src/index.js";
import { toRpcError } from "../../../src/server/rpc/errors.js";
import { decode, encode } from "./cbor.js";
import type { Value } from "../../../src/value/types.js";
import type { RpcTarget } from "./steps.js";
import type { SurrealVersion } from "./surreal.js";

/** A fresh surql-auth with root/root, in the compat matching the SurrealDB version. */
export async function openOurs(version: SurrealVersion, opts: { v1TokenDuration?: number } = {}): Promise<RpcTarget> {
  const db = await SurqlAuth.open({
    compat: version === "1.5.4" ? 1 : 2,
    root: { user: "root", pass: "root" },
    // The wasm engines run without authentication enforcement: anonymous sessions may do everything.
    auth: false,
    // The harness compares with SurrealDB's own 1 h token default, not the seed's 24 h (a documented setting).
    v1TokenDuration: opts.v1TokenDuration ?? 3600,
    // SurrealDB throttles nothing: scenarios that fail signins on purpose must get its answers, not ours
    throttle: { enabled: false },
  });
  const conn = db.connect();
  return {
    async rpc(method, params) {
      try {
        // Params travel as CBOR, as they do to the real engine (a JS 7 arrives as an integer, not a float).
        const wire = decode(encode(params ?? [])) as Value[];
        return { ok: true, value: await conn.rpc(method, wire) };
      } catch (e) {
        return { ok: false, message: toRpcError(e).message };
      }
    },
  };
}
