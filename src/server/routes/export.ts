// GET|POST /export and POST /import (protocol.md §6): whole-database SurrealQL out and in.

import { databaseProblem } from "../../errors/catalogue.js";
import { NotAllowed } from "../../errors/index.js";
import { executeChunked } from "../../exec/chunked.js";
import type { Session } from "../../exec/session.js";
import { INVALID_BODY, accept, bodyText, readBody, send, sendBadRequest, sendError, sendForbidden, sendUnsupportedMediaType, type RouteRequest } from "./common.js";
import { responseList, sendResults } from "./sql.js";

const NOT_ALLOWED = databaseProblem(new NotAllowed().message);

function isOwner(session: Session): boolean {
  return session.actor.roles.includes("OWNER");
}

export async function handleExport(r: RouteRequest): Promise<void> {
  const { session, ctx } = r;
  // who may export, and which secrets it gets, is the engine's rule (exec/export.ts); its errors answer 400 / 403
  if (ctx.engine.exportSql === undefined) return send(r.res, 501, "Export is not supported by this server yet", "text/plain; charset=utf-8");
  try {
    send(r.res, 200, await ctx.engine.exportSql(session), "text/plain; charset=utf-8");
  } catch (e) {
    sendError(r, e);
  }
}

export async function handleImport(r: RouteRequest): Promise<void> {
  const { session, ctx } = r;
  if (ctx.authEnabled && !isOwner(session)) return sendForbidden(r.res, NOT_ALLOWED);
  const a = accept(r.req);
  if (a !== "json" && a !== "cbor" && a !== "octet") return sendUnsupportedMediaType(r.res);
  try {
    const text = bodyText(await readBody(r.req, ctx.limits.importBody));
    if (text === undefined) return sendBadRequest(r.res, INVALID_BODY);
    // a large body runs a chunk of statements at a time (one query's answers, memory that does not grow with it)
    const responses = await executeChunked(ctx.engine, text, session);
    if (a === "octet") return send(r.res, 200);
    sendResults(r, a, responseList(responses));
  } catch (e) {
    sendError(r, e);
  }
}
