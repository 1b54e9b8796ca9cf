// POST /sql (protocol.md §4): SurrealQL text + query-string variables ⇒ engine ⇒ the statement result array.

import type { QueryResponse } from "../../exec/contract.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { WireFormat } from "../codec/index.js";
import { INVALID_BODY, accept, bodyText, readBody, sendAnswer, sendBadRequest, sendError, sendUnsupportedMediaType, type RouteRequest } from "./common.js";

/** The wire format an Accept header asks for among those a result array can be sent in; undefined ⇒ 415. */
export function resultFormat(r: RouteRequest): WireFormat | undefined {
  const a = accept(r.req);
  return a === "json" || a === "cbor" ? a : undefined;
}

export function responseList(responses: readonly QueryResponse[]): Value[] {
  return responses.map((x) => ({ result: x.result, status: x.status, time: x.time }));
}

export function sendResults(r: RouteRequest, format: WireFormat, results: Value): Promise<void> {
  return sendAnswer(r, format, results);
}

export async function handleSql(r: RouteRequest): Promise<void> {
  const format = resultFormat(r);
  if (format === undefined) return sendUnsupportedMediaType(r.res);
  try {
    const text = bodyText(await readBody(r.req, r.ctx.limits.sqlBody));
    if (text === undefined) return sendBadRequest(r.res, INVALID_BODY);
    const vars: ValueObject = {};
    for (const [k, v] of r.url.searchParams) vars[k] = v;
    await sendResults(r, format, responseList(await r.ctx.engine.execute(text, r.session, vars, { signal: r.signal })));
  } catch (e) {
    sendError(r, e);
  }
}
