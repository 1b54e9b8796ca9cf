// RPC dispatch: a decoded message ⇒ validated request ⇒ method ⇒ the response object (`{id, result}` / `{id, error}`).

import { CodedError, SurrealError } from "../../errors/index.js";
import { sessionIdentity } from "../../iam/audit.js";
import type { Value, ValueObject } from "../../value/types.js";
import { RPC_MESSAGES } from "../../errors/catalogue.js";
import type { DecodeError } from "../codec/index.js";
import { PARSE_ERROR, RpcError, invalidRequest, parseError, thrownError, toRpcError } from "./errors.js";
import { changesSession } from "./gate.js";
import { invokeMethod, type RpcCall } from "./methods.js";
import { InvalidRequest, parseRequest, usableId } from "./request.js";

export function errorResponse(err: RpcError, id: Value, hasId: boolean): ValueObject {
  const out: ValueObject = {};
  if (hasId) out["id"] = id;
  out["error"] = { code: BigInt(err.code), message: err.message };
  return out;
}

/**
 * The answer to a frame that did not decode, logged with SurrealDB's words only (never the frame's content): Parse
 * error (no id: none could be read), or for a value SurrealDB refuses its words (2.x `Error: Encountered an unknown
 * CBOR tag`, 1.x `Invalid Request`) with the request's id when the rest of the frame holds a usable one (SurrealDB
 * sends none there, so a client could not match the answer to its request). `withId: false` (HTTP POST /rpc) omits it.
 */
export function undecodableResponse(call: Omit<RpcCall, "signal">, e: DecodeError, opts: { withId?: boolean } = {}): ValueObject {
  const reason = e.refused === undefined ? RPC_MESSAGES[PARSE_ERROR] : e.message;
  call.ctx.logger.info("rpc frame refused", { reason, identity: sessionIdentity(call.session).identity, transport: call.transport });
  if (e.refused === undefined) return errorResponse(parseError(), undefined, false);
  const { id, hasId } = usableId(e.refused.salvaged);
  return errorResponse(call.ctx.compat === 1 ? invalidRequest() : thrownError(e.message), id, (opts.withId ?? true) && hasId);
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
    const invoke = () => invokeMethod(call, request.method, request.params);
    const result = await (call.gate ? call.gate.run(changesSession(request.method, request.params), invoke) : invoke());
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
