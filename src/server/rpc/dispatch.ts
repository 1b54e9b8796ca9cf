// RPC dispatch: a decoded message ⇒ validated request ⇒ method ⇒ the response object (`{id, result}` / `{id, error}`).

import { CodedError, SurrealError } from "../../errors/index.js";
import { sessionIdentity } from "../../iam/audit.js";
import type { Value, ValueObject } from "../../value/types.js";
import { RpcError, parseError, toRpcError } from "./errors.js";
import { invokeMethod, type RpcCall } from "./methods.js";
import { InvalidRequest, parseRequest } from "./request.js";

export function errorResponse(err: RpcError, id: Value, hasId: boolean): ValueObject {
  const out: ValueObject = {};
  if (hasId) out["id"] = id;
  out["error"] = { code: BigInt(err.code), message: err.message };
  return out;
}

/** The answer to a frame that could not be decoded at all. */
export function parseErrorResponse(): ValueObject {
  return errorResponse(parseError(), undefined, false);
}

/**
 * Handle one decoded message. Never throws: every failure is encoded as an error response.
 * `withId: false` (HTTP POST /rpc) omits the id from the answer.
 */
export async function dispatch(call: RpcCall, message: Value, opts: { withId?: boolean } = {}): Promise<ValueObject> {
  const withId = opts.withId ?? true;
  let request;
  try {
    request = parseRequest(message, call.ctx.compat);
  } catch (e) {
    const inv = e instanceof InvalidRequest ? e : undefined;
    return errorResponse(toRpcError(e), inv?.id, withId && (inv?.hasId ?? false));
  }
  const hasId = withId && request.hasId;
  const started = performance.now();
  let status = "ok";
  try {
    const result = await invokeMethod(call, request.method, request.params);
    const out: ValueObject = {};
    if (hasId) out["id"] = request.id;
    out["result"] = result;
    return out;
  } catch (e) {
    const err = toRpcError(e);
    status = e instanceof CodedError ? String(e.code) : "Internal";
    if (!(e instanceof RpcError || e instanceof SurrealError)) call.ctx.logger.error(`rpc ${request.method} failed`, e);
    return errorResponse(err, request.id, hasId);
  } finally {
    // the request log: method, outcome, duration and who asked; never the parameters
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // a client's keep-alive pings at debug, so they do not flood the log
    call.ctx.logger[request.method === "ping" ? "debug" : "info"]("rpc request", { method: request.method.slice(0, 64), status, ms, identity: sessionIdentity(call.session).identity, transport: call.transport });
  }
}
