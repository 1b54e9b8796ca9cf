// GET|POST /export and POST /import (protocol.md §6): whole-database SurrealQL out and in.

import { NotAllowed } from "../../errors/index.js";
import type { Session } from "../../exec/session.js";
import { INVALID_BODY, accept, bodyText, readBody, send, sendBadRequest, sendError, sendForbidden, sendUnsupportedMediaType, type RouteRequest } from "./common.js";
import { responseList, sendResults } from "./sql.js";

const NOT_ALLOWED = `There was a problem with the database: ${new NotAllowed().message}`;

function hasRole(session: Session, role: "OWNER" | undefined): boolean {
  return role === undefined ? session.actor.roles.length > 0 : session.actor.roles.includes(role);
}

export async function handleExport(r: RouteRequest): Promise<void> {
  const { session, ctx } = r;
  if (session.ns === undefined) return sendBadRequest(r.res, "There was a problem with the database: Specify a namespace to use");
  if (session.db === undefined) return sendBadRequest(r.res, "There was a problem with the database: Specify a database to use");
  if (ctx.authEnabled && !hasRole(session, undefined)) return sendForbidden(r.res, NOT_ALLOWED);
  if (ctx.engine.exportSql === undefined) return send(r.res, 501, "Export is not supported by this server yet", "text/plain; charset=utf-8");
  try {
    send(r.res, 200, await ctx.engine.exportSql(session), "text/plain; charset=utf-8");
  } catch (e) {
    sendError(r, e);
  }
}

export async function handleImport(r: RouteRequest): Promise<void> {
  const { session, ctx } = r;
  if (ctx.authEnabled && !hasRole(session, "OWNER")) return sendForbidden(r.res, NOT_ALLOWED);
  const a = accept(r.req);
  if (a !== "json" && a !== "cbor" && a !== "octet") return sendUnsupportedMediaType(r.res);
  try {
    const text = bodyText(await readBody(r.req, ctx.limits.importBody));
    if (text === undefined) return sendBadRequest(r.res, INVALID_BODY);
    const responses = await ctx.engine.execute(text, session, {});
    if (a === "octet") return send(r.res, 200);
    sendResults(r, a, responseList(responses));
  } catch (e) {
    sendError(r, e);
  }
}
