// POST /rpc (protocol.md §7.1): one RPC request per HTTP call on a fresh, request-scoped session.

import { DecodeError, decodeRpcMessage, type WireFormat } from "../codec/index.js";
import type { Value } from "../../value/types.js";
import { dispatch, undecodableResponse } from "../rpc/dispatch.js";
import { header } from "../auth.js";
import { messageLimits } from "../types.js";
import { mediaType, readBody, sendAnswer, sendError, sendUnsupportedMediaType, type RouteRequest } from "./common.js";

export async function handleRpc(r: RouteRequest): Promise<void> {
  const contentType = mediaType(header(r.req, "content-type"));
  if (contentType !== "json" && contentType !== "cbor") return sendUnsupportedMediaType(r.res);
  // an Accept SurrealDB cannot parse (e.g. */*) counts as absent
  const wanted = mediaType(header(r.req, "accept"));
  if (wanted !== undefined && wanted !== contentType) return sendUnsupportedMediaType(r.res);
  const format: WireFormat = contentType;
  const reply = (v: Value) => sendAnswer(r, format, v);
  try {
    // an anonymous request (no Basic / Bearer header) gets the small pre-auth limits
    const limit = messageLimits(r.ctx, r.session, "http");
    const body = await readBody(r.req, limit.bytes);
    let message;
    try {
      message = decodeRpcMessage(format, body, r.ctx.compat, limit.values);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      return await reply(undecodableResponse({ ctx: r.ctx, session: r.session, transport: "http" }, e, { withId: false }));
    }
    await reply(await dispatch({ ctx: r.ctx, session: r.session, transport: "http", signal: r.signal }, message, { withId: false }));
  } catch (e) {
    sendError(r, e);
  }
}
