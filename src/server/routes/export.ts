// GET|POST /export and POST /import (protocol.md §6): whole-database SurrealQL out and in.

import { NotAllowed } from "../../errors/index.js";
import type { Session } from "../../exec/session.js";
import { INVALID_BODY, accept, bodyText, readBody, send, sendBadRequest, sendError, sendForbidden, sendUnsupportedMediaType, type RouteRequest } from "./common.js";
import { responseList, sendResults } from "./sql.js";

const NOT_ALLOWED = `There was a problem with the database: ${new NotAllowed().message}`;

/** `View` on the session's database: any role, at the database's level or above it (auth.md §6.1). */
function canView(session: Session): boolean {
  const { actor } = session;
  if (actor.roles.length === 0) return false;
  switch (actor.level) {
    case "Root":
      return true;
    case "Namespace":
      return actor.ns === session.ns;
    case "Database":
      return actor.ns === session.ns && actor.db === session.db;
    default:
      return false;
  }
}

function isOwner(session: Session): boolean {
  return session.actor.roles.includes("OWNER");
}

export async function handleExport(r: RouteRequest): Promise<void> {
  const { session, ctx } = r;
  if (session.ns === undefined) return sendBadRequest(r.res, "There was a problem with the database: Specify a namespace to use");
  if (session.db === undefined) return sendBadRequest(r.res, "There was a problem with the database: Specify a database to use");
  if (ctx.authEnabled && !canView(session)) return sendForbidden(r.res, NOT_ALLOWED);
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
    const responses = await ctx.engine.execute(text, session, {});
    if (a === "octet") return send(r.res, 200);
    sendResults(r, a, responseList(responses));
  } catch (e) {
    sendError(r, e);
  }
}
