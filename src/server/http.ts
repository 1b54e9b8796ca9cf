// The HTTP server: node:http ⇒ auth middleware ⇒ routes (console, signin, sql, key, export/import, rpc) and the WebSocket upgrade.

import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { WIRE_MESSAGES } from "../errors/catalogue.js";
import type { Session } from "../exec/session.js";
import { WireMeter } from "./backpressure.js";
import { AuthFailure, header, sessionFromRequest } from "./auth.js";
import { send, sendForbidden, type RouteRequest } from "./routes/common.js";
import { handleConsole } from "./routes/console.js";
import { handleExplain } from "./routes/explain.js";
import { handleExport, handleImport } from "./routes/export.js";
import { handleKey } from "./routes/key.js";
import { handleRpc } from "./routes/rpc.js";
import { handleSessions } from "./routes/sessions.js";
import { handleSignin } from "./routes/signin.js";
import { handleSql } from "./routes/sql.js";
import { logRequest } from "./request-log.js";
import { queriesAllowed, resolveContext, serverVersion, type ServerContext, type ServerOptions } from "./types.js";
import { createRpcSocketServer, identificationHeaders } from "./ws.js";

export interface SurrealServer {
  /** Start listening; resolves with the bound address (port 0 picks a free port). */
  listen(host: string, port: number): Promise<{ host: string; port: number }>;
  /** Stop accepting, close WebSockets (1001), finish in-flight requests, then drop idle connections. */
  close(): Promise<void>;
  readonly http: Server;
  /** Open WebSocket RPC connections. */
  readonly rpcConnections: number;
  /** WebSocket RPC requests running now, over all connections (a closed socket's end as their queries are cancelled). */
  readonly rpcInFlight: number;
  /** Unsent answer bytes, paused / closed sockets, refused connections, and their events. */
  readonly wire: WireMeter;
}

const CORS_METHODS = "GET, PUT, POST, PATCH, DELETE, OPTIONS";
const CORS_HEADERS = "accept, authorization, content-type, origin, ns, db, id, surreal-ns, surreal-db, surreal-id, surreal-auth-ns, surreal-auth-db";

/** `query`: the route runs SurrealQL, so --deny-arbitrary-query forbids it. */
type Route = { methods: readonly string[]; handler: (r: RouteRequest) => Promise<void> | void; query?: string };

function routeFor(ctx: ServerContext, path: string): Route | undefined {
  switch (path) {
    case "/":
      return { methods: ["GET", "HEAD"], handler: (r) => handleConsole(r, "index.html") };
    case "/status":
    case "/health":
      return { methods: ["GET"], handler: (r) => send(r.res, 200) };
    case "/version":
      return { methods: ["GET"], handler: (r) => send(r.res, 200, serverVersion(ctx.compat), "text/plain; charset=utf-8") };
    case "/signin":
      return { methods: ["POST"], handler: (r) => handleSignin(r, "signin") };
    case "/signup":
      return { methods: ["POST"], handler: (r) => handleSignin(r, "signup") };
    case "/sql":
      return { methods: ["POST"], handler: handleSql, query: "sql" };
    case "/export":
      return { methods: ctx.compat === 1 ? ["GET"] : ["GET", "POST"], handler: handleExport };
    case "/import":
      return { methods: ["POST"], handler: handleImport };
    case "/rpc":
      return { methods: ["POST"], handler: handleRpc };
    case "/explain":
      return { methods: ["POST"], handler: handleExplain, query: "explain" };
    case "/sessions":
      return { methods: ["GET"], handler: (r) => handleSessions(r, "list") };
    case "/sessions/kill":
      return { methods: ["POST"], handler: (r) => handleSessions(r, "kill") };
  }
  const asset = /^\/console\/([^/]+)$/.exec(path);
  if (asset) return { methods: ["GET", "HEAD"], handler: (r) => handleConsole(r, asset[1]) };
  const session = /^\/sessions\/([0-9a-f-]{36})$/i.exec(path);
  if (session) return { methods: ["DELETE"], handler: (r) => handleSessions(r, "delete", session[1]!.toLowerCase()) };
  const key = /^\/key\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (key) {
    let table: string;
    let id: string | undefined;
    try {
      table = decodeURIComponent(key[1]);
      id = key[2] === undefined ? undefined : decodeURIComponent(key[2]);
    } catch {
      return undefined;
    }
    return { methods: ["GET", "POST", "PUT", "PATCH", "DELETE"], handler: (r) => handleKey(r, table, id), query: "key" };
  }
  return undefined;
}

async function handle(ctx: ServerContext, meter: WireMeter, req: IncomingMessage, res: ServerResponse, seen: { session?: Session }): Promise<void> {
  for (const [k, v] of Object.entries(identificationHeaders(ctx))) res.setHeader(k, v);
  if (meter.refuses(req.socket)) {
    res.setHeader("connection", "close");
    return send(res, 429, WIRE_MESSAGES.TooManyConnections, "text/plain; charset=utf-8");
  }
  const origin = header(req, "origin");
  if (origin !== undefined) {
    // --allow-origin: * answers any origin; a list answers only its own
    if (ctx.allowOrigin.includes("*")) res.setHeader("access-control-allow-origin", "*");
    else if (ctx.allowOrigin.includes(origin)) res.setHeader("access-control-allow-origin", origin);
    res.setHeader("vary", "origin");
  }
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://localhost");
  } catch {
    return send(res, 400);
  }
  const route = routeFor(ctx, url.pathname);
  if (route === undefined) return send(res, 404);
  const method = req.method ?? "GET";
  if (method === "OPTIONS") {
    res.setHeader("access-control-allow-methods", CORS_METHODS);
    res.setHeader("access-control-allow-headers", CORS_HEADERS);
    res.setHeader("access-control-max-age", "86400");
    return send(res, 200);
  }
  if (!route.methods.includes(method)) {
    // GET /rpc without an Upgrade header
    res.setHeader("allow", route.methods.join(", "));
    return send(res, 405);
  }
  let session;
  try {
    session = await sessionFromRequest(ctx, req, { realtime: false });
  } catch (e) {
    if (e instanceof AuthFailure) {
      if (e.retryAfterSeconds !== undefined) res.setHeader("retry-after", String(e.retryAfterSeconds));
      return send(res, e.status, e.text, "text/plain; charset=utf-8");
    }
    throw e;
  }
  seen.session = session;
  if (route.query !== undefined && !queriesAllowed(ctx, session)) return sendForbidden(res, `The HTTP route '${route.query}' is forbidden`);
  // a client that goes away before its answer cancels its query (attack pass 4, B2)
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableEnded) gone.abort();
  });
  await route.handler({ ctx, req, res, url, session, signal: gone.signal });
  // an answer the client is slow to read counts towards the server's unsent bytes
  meter.holdHttp(req.socket);
}

export function createServer(opts: ServerOptions): SurrealServer {
  const ctx = resolveContext(opts);
  const meter = new WireMeter(ctx.limits);
  const sockets = createRpcSocketServer(ctx, meter);
  const listener: RequestListener = (req, res) => {
    const started = performance.now();
    const seen: { session?: Session } = {};
    res.once("close", () => logRequest(ctx, req, res.statusCode, started, seen.session));
    handle(ctx, meter, req, res, seen).catch((e) => {
      ctx.logger.error("request failed", e);
      send(res, 500, "Internal Server Error", "text/plain; charset=utf-8");
    });
  };
  // --web-crt / --web-key: HTTPS and WSS; requests arrive on the TLS socket, so that is the one counted
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createHttpServer(listener);
  server.on(opts.tls ? "secureConnection" : "connection", (socket: Socket) => meter.connect(socket));
  server.on("clientError", (err, socket) => {
    ctx.logger.debug("client error", err);
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
    else socket.destroy();
  });
  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    let path = "";
    try {
      path = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      /* unparsable ⇒ 404 below */
    }
    const isWebSocket = (req.headers.upgrade ?? "").toLowerCase() === "websocket";
    if (isWebSocket && path === "/rpc") sockets.handleUpgrade(req, socket, head);
    else if (isWebSocket && path === "/sql") sockets.handleSqlUpgrade(req, socket, head);
    else socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
  });

  return {
    http: server,
    get rpcConnections() {
      return sockets.connectionCount;
    },
    get rpcInFlight() {
      return sockets.inFlight;
    },
    wire: meter,
    listen(host, port) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const addr = server.address() as AddressInfo;
          ctx.logger.info(`listening on ${addr.address}:${addr.port}`);
          resolve({ host: addr.address, port: addr.port });
        });
      });
    },
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await sockets.close();
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 5000);
      force.unref();
      await stopped;
      clearTimeout(force);
    },
  };
}
