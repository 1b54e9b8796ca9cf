// GET|POST /export and POST /import (protocol.md §6): whole-database SurrealQL out and in.

import { databaseProblem } from "../../errors/catalogue.js";
import { NotAllowed } from "../../errors/index.js";
import type { ServerResponse } from "node:http";
import { chunkedResponses } from "../../exec/chunked.js";
import type { QueryResponse } from "../../exec/contract.js";
import type { Session } from "../../exec/session.js";
import { ArrayPieces, MIME, type WireFormat } from "../codec/index.js";
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
    // a large body runs a chunk of statements at a time: one query's answers, sent as they come (attack pass 10, H4)
    await sendAnswers(r, a === "octet" ? undefined : a, chunkedResponses(ctx.engine, text, session, r.signal));
  } catch (e) {
    sendError(r, e);
  }
}

/**
 * The answers of an import: one chunk's as one answer, as before; more are streamed, each chunk's written before the
 * next runs (and waiting while the socket is full), so no more than a chunk's answers is held. `format` undefined: the
 * answers are dropped and the answer is empty. An error after the answer began cuts it off (the client sees a broken
 * transfer, not a shorter list).
 */
async function sendAnswers(r: RouteRequest, format: WireFormat | undefined, chunks: AsyncGenerator<QueryResponse[]>): Promise<void> {
  let held: QueryResponse[] | undefined;
  let pieces: ArrayPieces | undefined;
  try {
    for await (const answers of chunks) {
      if (format === undefined) continue;
      if (pieces === undefined && held === undefined) {
        held = answers;
        continue;
      }
      if (pieces === undefined) {
        // a second chunk: the answer is streamed from here on
        pieces = new ArrayPieces(format, r.ctx.compat);
        r.res.statusCode = 200;
        r.res.setHeader("content-type", MIME[format]);
        await write(r.res, pieces.open());
        await write(r.res, pieces.items(responseList(held ?? [])));
        held = undefined;
      }
      if (!(await write(r.res, pieces.items(responseList(answers))))) return;
    }
  } catch (e) {
    if (pieces === undefined) throw e;
    r.ctx.logger.error("import failed after its answer began", e);
    r.res.destroy();
    return;
  }
  if (format === undefined) return send(r.res, 200);
  if (pieces === undefined) return sendResults(r, format, responseList(held ?? []));
  r.res.end(pieces.close());
}

/** Write a piece, waiting while the socket's buffer is full; false when the client went away. */
async function write(res: ServerResponse, piece: string | Uint8Array): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(piece)) return true;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
  return !res.destroyed;
}
