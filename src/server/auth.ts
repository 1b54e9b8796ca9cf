// Auth middleware (protocol.md §1.1): request headers ⇒ a Session, authenticated by Basic or Bearer credentials.

import { isIP } from "node:net";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { databaseProblem } from "../errors/catalogue.js";
import { INVALID_AUTH, LocalError, SurrealError } from "../errors/index.js";
import { newSession, type Session } from "../exec/session.js";
import { TooManyAttempts } from "../iam/throttle.js";
import type { ServerContext } from "./types.js";

/** The middleware refused the request: 401 (429 when throttled, with Retry-After) with `text` as the plain-text body. */
export class AuthFailure extends LocalError {
  constructor(
    readonly text: string,
    readonly retryAfterSeconds?: number,
  ) {
    super("AuthFailure", text);
  }

  get status(): 401 | 429 {
    return this.retryAfterSeconds === undefined ? 401 : 429;
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The text a failed authentication shows: the generic message bare, anything else wrapped. */
export function authFailureText(e: unknown): string {
  if (e instanceof SurrealError) return e.code === "InvalidAuth" ? e.message : databaseProblem(e.message);
  return INVALID_AUTH;
}

function sessionId(ctx: ServerContext, req: IncomingMessage, realtime: boolean): string | undefined {
  if (ctx.compat === 1) return header(req, "surreal-id") ?? header(req, "id");
  const id = header(req, "surreal-id");
  if (id !== undefined) {
    if (!UUID_RE.test(id)) throw new AuthFailure(INVALID_AUTH);
    return id.toLowerCase();
  }
  const requestId = realtime ? header(req, "x-request-id") : undefined;
  return requestId ?? randomUUID();
}

/**
 * The client's address as `--client-ip` says: none, the socket's, or a proxy header's. X-Forwarded-For gives its last
 * entry, the one the proxy in front of us appended (the entries before it are whatever the client sent: attack pass 6,
 * D7); a header value that is not an IP address gives the socket's address, so no free text reaches `$session.ip`,
 * the audit log or the per-address throttle.
 */
export function clientAddress(ctx: ServerContext, req: IncomingMessage): string | undefined {
  switch (ctx.clientIp) {
    case "none":
      return undefined;
    case "socket":
      return req.socket.remoteAddress;
    case "X-Forwarded-For":
      return ipOr(header(req, "x-forwarded-for")?.split(",").pop(), req);
    default:
      return ipOr(header(req, ctx.clientIp.toLowerCase()), req);
  }
}

const ipOr = (value: string | undefined, req: IncomingMessage): string | undefined => {
  const ip = value?.trim();
  return ip !== undefined && isIP(ip) !== 0 ? ip : req.socket.remoteAddress;
};

/** Build the session of a request (or WebSocket upgrade) and authenticate it. Throws AuthFailure. */
export async function sessionFromRequest(ctx: ServerContext, req: IncomingMessage, opts: { realtime: boolean }): Promise<Session> {
  const v1 = ctx.compat === 1;
  const session = newSession({
    ns: header(req, "surreal-ns") ?? (v1 ? header(req, "ns") : undefined),
    db: header(req, "surreal-db") ?? (v1 ? header(req, "db") : undefined),
    id: sessionId(ctx, req, opts.realtime),
    ip: clientAddress(ctx, req),
    origin: header(req, "origin"),
    rt: opts.realtime,
  });
  const authorization = header(req, "authorization");
  if (authorization === undefined) return session;
  const space = authorization.indexOf(" ");
  const scheme = space < 0 ? authorization : authorization.slice(0, space);
  const credentials = space < 0 ? "" : authorization.slice(space + 1).trim();
  try {
    if (scheme.toLowerCase() === "basic") {
      const decoded = Buffer.from(credentials, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (credentials === "" || colon < 0) throw new AuthFailure(INVALID_AUTH);
      // v2: the auth level comes from surreal-auth-ns / surreal-auth-db. v1 legacy mode (SurrealDB's default, and
      // ours) searches ROOT → NS → DB using the session's namespace and database headers (auth.md §3.6).
      await ctx.iam.basicAuth(
        session,
        decoded.slice(0, colon),
        decoded.slice(colon + 1),
        v1 ? { ns: session.ns, db: session.db } : { ns: header(req, "surreal-auth-ns"), db: header(req, "surreal-auth-db") },
      );
    } else if (scheme.toLowerCase() === "bearer" && credentials !== "") {
      await ctx.iam.authenticate(session, credentials, "bearer");
    } else throw new AuthFailure(INVALID_AUTH);
  } catch (e) {
    if (e instanceof AuthFailure) throw e;
    if (e instanceof TooManyAttempts) throw new AuthFailure(e.message, e.retryAfterSeconds);
    ctx.logger.debug("authentication failed", e);
    throw new AuthFailure(authFailureText(e));
  }
  return session;
}
