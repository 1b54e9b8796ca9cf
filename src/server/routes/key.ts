// /key/:table[/:id] (protocol.md §5): REST verbs ⇒ one SurrealQL statement on the request session.

import { isValueObject, type Value, type ValueObject } from "../../value/types.js";
import { DecodeError, decodeJsonBody, parseJsonText } from "../codec/index.js";
import { INVALID_BODY, readBody, send, sendBadRequest, sendError, sendUnsupportedMediaType, type RouteRequest } from "./common.js";
import { resultFormat, responseList, sendResults } from "./sql.js";

/** `/key/person/1` ⇒ 1 (int), `/key/person/tobie` ⇒ "tobie": the id is read as a value when it parses as one. */
function recordKey(text: string): Value {
  try {
    const v = parseJsonText(text);
    return typeof v === "bigint" || typeof v === "string" || Array.isArray(v) || isValueObject(v) ? v : text;
  } catch {
    return text;
  }
}

function statement(method: string, hasId: boolean, compat: 1 | 2): string | undefined {
  const target = hasId ? "type::thing($table, $id)" : "type::table($table)";
  const write = hasId && compat === 2 ? "UPSERT" : "UPDATE";
  switch (method) {
    case "GET":
      return hasId ? `SELECT * FROM ${target}` : `SELECT * FROM ${target} LIMIT $limit START $start`;
    case "POST":
      return `CREATE ${target} CONTENT $data`;
    case "PUT":
      return `${write} ${target} CONTENT $data`;
    case "PATCH":
      return `${write} ${target} MERGE $data`;
    case "DELETE":
      return `DELETE ${target} RETURN BEFORE`;
    default:
      return undefined;
  }
}

function intParam(r: RouteRequest, name: string, fallback: bigint): bigint | undefined {
  const text = r.url.searchParams.get(name);
  if (text === null) return fallback;
  return /^-?\d{1,18}$/.test(text) ? BigInt(text) : undefined;
}

export async function handleKey(r: RouteRequest, table: string, id: string | undefined): Promise<void> {
  const method = r.req.method ?? "GET";
  const sql = statement(method, id !== undefined, r.ctx.compat);
  if (sql === undefined) return send(r.res, 405);
  const format = resultFormat(r);
  if (format === undefined) return sendUnsupportedMediaType(r.res);
  try {
    const vars: ValueObject = { table };
    if (id !== undefined) vars["id"] = recordKey(id);
    if (method === "GET" && id === undefined) {
      const limit = intParam(r, "limit", 100n);
      const start = intParam(r, "start", 0n);
      if (limit === undefined || start === undefined) return sendBadRequest(r.res, "Failed to deserialize query string");
      vars["limit"] = limit;
      vars["start"] = start;
    }
    if (method === "POST" || method === "PUT" || method === "PATCH") {
      let data: Value;
      try {
        data = decodeJsonBody(await readBody(r.req, r.ctx.limits.sqlBody));
      } catch (e) {
        if (e instanceof DecodeError) return sendBadRequest(r.res, INVALID_BODY);
        throw e;
      }
      if (!isValueObject(data)) return sendBadRequest(r.res, INVALID_BODY);
      vars["data"] = data;
    }
    await sendResults(r, format, responseList(await r.ctx.engine.execute(sql, r.session, vars, { signal: r.signal })));
  } catch (e) {
    sendError(r, e);
  }
}
