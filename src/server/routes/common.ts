// Shared HTTP plumbing for the routes: bounded bodies, Accept negotiation, SurrealDB's error bodies.

import type { IncomingMessage, ServerResponse } from "node:http";
import { WIRE_MESSAGES, databaseProblem } from "../../errors/catalogue.js";
import { ExpiredSession, INVALID_AUTH, LocalError, SurrealError } from "../../errors/index.js";
import type { Session } from "../../exec/session.js";
import { TooManyAttempts } from "../../iam/throttle.js";
import type { Value } from "../../value/types.js";
import type { ServerContext } from "../types.js";
import { header } from "../auth.js";
import { MIME, encodeInPieces, encodeSmall, type WireFormat } from "../codec/index.js";

/** What a route handler receives. */
export interface RouteRequest {
  readonly ctx: ServerContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The session the auth middleware built for this request. */
  readonly session: Session;
  /** Aborted when the client goes away before its answer is sent: its query is cancelled. */
  readonly signal: AbortSignal;
}

/** Media types SurrealDB knows (protocol.md §1.2); anything else counts as absent. */
export type MediaType = "json" | "cbor" | "pack" | "surrealdb" | "octet" | "text";

const MEDIA: Record<string, MediaType> = {
  "application/json": "json",
  "application/cbor": "cbor",
  "application/pack": "pack",
  "application/surrealdb": "surrealdb",
  "application/octet-stream": "octet",
  "text/plain": "text",
};

export function mediaType(value: string | undefined): MediaType | undefined {
  return value === undefined ? undefined : MEDIA[value.trim()];
}

export function accept(req: IncomingMessage): MediaType | undefined {
  return mediaType(header(req, "accept"));
}

const TOO_LARGE = "Failed to buffer the request body: length limit exceeded";

/** The body exceeded its route's limit. */
export class PayloadTooLarge extends LocalError {
  constructor() {
    super("PayloadTooLarge", TOO_LARGE);
  }
}

/** Read the whole body, failing as soon as it exceeds `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(header(req, "content-length"));
    if (Number.isFinite(declared) && declared > limit) {
      reject(new PayloadTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    req.on("error", (e) => {
      if (done) return;
      done = true;
      reject(e);
    });
  });
}

export function send(res: ServerResponse, status: number, body: string | Uint8Array = "", contentType?: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  if (contentType !== undefined && body.length > 0) res.setHeader("content-type", contentType);
  res.setHeader("content-length", typeof body === "string" ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

/**
 * A 200 answer in `format`: encoded at once when small, else a piece at a time with a turn of the event loop between
 * pieces (attack pass 11, I5), then written piece by piece under one content-length (the same bytes). Nothing is sent
 * once the client is gone.
 */
export async function sendAnswer(r: RouteRequest, format: WireFormat, v: Value): Promise<void> {
  const now = encodeSmall(format, v, r.ctx.compat);
  if (now !== undefined) return send(r.res, 200, now, MIME[format]);
  const pieces = await encodeInPieces(format, v, r.ctx.compat, () => r.signal.aborted);
  if (pieces === undefined || r.res.headersSent) return;
  r.res.statusCode = 200;
  r.res.setHeader("content-type", MIME[format]);
  r.res.setHeader("content-length", pieces.reduce((n, p) => n + p.length, 0));
  // written at once: the server's count of unsent bytes (holdHttp) sees them all, as it saw a whole answer
  for (const p of pieces) r.res.write(p);
  r.res.end();
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  send(res, status, JSON.stringify(body), "application/json");
}

export function sendAuthFailed(res: ServerResponse): void {
  sendJson(res, 401, {
    code: 401,
    details: "Authentication failed",
    description: "Your authentication details are invalid. Reauthenticate using valid authentication parameters.",
    information: INVALID_AUTH,
  });
}

export function sendForbidden(res: ServerResponse, information: string): void {
  sendJson(res, 403, { code: 403, details: "Forbidden", description: "Not allowed to do this.", information });
}

export function sendUnsupportedMediaType(res: ServerResponse): void {
  sendJson(res, 415, {
    code: 415,
    details: "Unsupported media type",
    description: "The request needs to adhere to certain constraints. Refer to the documentation for supported content types.",
  });
}

/** Refused by the throttle: 429, Retry-After, and the catalogue's text as `information`. */
export function sendTooManyAttempts(res: ServerResponse, e: TooManyAttempts): void {
  res.setHeader("retry-after", String(e.retryAfterSeconds));
  sendJson(res, 429, { code: 429, details: "Too many requests", description: "Too many attempts: wait before trying again.", information: e.message });
}

/** A signin / signup without a usable Accept: 415 with what to send, instead of SurrealDB's 200 with an empty body. */
export function sendAcceptRequired(res: ServerResponse): void {
  sendJson(res, 415, {
    code: 415,
    details: "Unsupported media type",
    description: "The request needs to adhere to certain constraints. Refer to the documentation for supported content types.",
    information: WIRE_MESSAGES.AcceptRequired,
  });
}

export function sendBadRequest(res: ServerResponse, information: string): void {
  sendJson(res, 400, {
    code: 400,
    details: "Request problems detected",
    description: "There is a problem with your request. Refer to the documentation for further information.",
    information,
  });
}

export const INVALID_BODY = "The request body contains invalid data";

export function sendTooLarge(res: ServerResponse): void {
  res.setHeader("connection", "close");
  send(res, 413, TOO_LARGE, "text/plain; charset=utf-8");
}

/** A handler error as SurrealDB's HTTP layer reports it (§1.3). */
export function sendError(r: RouteRequest, e: unknown): void {
  if (e instanceof PayloadTooLarge) return sendTooLarge(r.res);
  if (e instanceof TooManyAttempts) return sendTooManyAttempts(r.res, e);
  if (e instanceof SurrealError) {
    if (e instanceof ExpiredSession) r.ctx.audit.sessionExpired(r.session);
    if (e.code === "InvalidAuth") return sendAuthFailed(r.res);
    if (e.code === "NotAllowed") return sendForbidden(r.res, databaseProblem(e.message));
    return sendBadRequest(r.res, databaseProblem(e.message));
  }
  r.ctx.logger.error(`${r.req.method} ${r.url.pathname} failed`, e);
  send(r.res, 500, "Internal Server Error", "text/plain; charset=utf-8");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text of a body, or undefined if it is not valid UTF-8. */
export function bodyText(body: Uint8Array): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}
