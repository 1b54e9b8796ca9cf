// The request log at info: each HTTP request (and WebSocket upgrade) with its method, path, status, duration and the
// kind of identity it ran as; never a body, a query string or a header.

import type { IncomingMessage } from "node:http";
import type { Session } from "../exec/session.js";
import { sessionIdentity } from "../iam/audit.js";
import type { ServerContext } from "./types.js";

/** Logs one answered request; `started` is its `performance.now()` at arrival, `session` the one it ran on, if any. */
export function logRequest(ctx: ServerContext, req: IncomingMessage, status: number, started: number, session: Session | undefined): void {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).slice(0, 256);
  const ms = Math.round((performance.now() - started) * 10) / 10;
  // health checks (load balancers poll them) at debug
  const level = path === "/health" || path === "/status" ? "debug" : "info";
  ctx.logger[level]("http request", { method: req.method, path, status, ms, identity: sessionIdentity(session).identity });
}
