// WebSocket RPC (GET /rpc, protocol.md §7.1): one authenticated Session per connection, frames ⇒ dispatch ⇒ responses.

import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { QUERY_MESSAGES, WIRE_MESSAGES } from "../errors/catalogue.js";
import { ExpiredSession, SurrealError } from "../errors/index.js";
import type { Session } from "../exec/session.js";
import type { Value, ValueObject } from "../value/types.js";
import { AuthFailure, sessionFromRequest } from "./auth.js";
import { logRequest } from "./request-log.js";
import { Outbox, type WireMeter } from "./backpressure.js";
import { DecodeError, decodeRpcMessage, encodeFrame, encodeValue, type WireFormat } from "./codec/index.js";
import { databaseError, invalidRequest, toRpcError } from "./rpc/errors.js";
import { dispatch, errorResponse, undecodableResponse } from "./rpc/dispatch.js";
import { SessionGate } from "./rpc/gate.js";
import { usableId } from "./rpc/request.js";
import type { ServerContext } from "./types.js";
import { connectionLimits, messageLimits, serverVersion } from "./types.js";

const SUPPORTED_PROTOCOLS = new Set(["json", "cbor"]);

/** The answer to a request past what one connection runs and holds waiting. */
const TOO_MANY_REQUESTS = "Too many concurrent requests on this connection";

/** Identification headers, also on upgrade responses and refusals. */
export function identificationHeaders(ctx: ServerContext): Record<string, string> {
  return ctx.noIdentificationHeaders ? {} : { server: "SurrealDB", "surreal-version": serverVersion(ctx.compat) };
}

/** State of one RPC socket. */
class Connection {
  private inFlight = 0;
  /** Aborted at close: the connection's running queries are cancelled (attack pass 4, B2). */
  private readonly gone = new AbortController();
  private readonly queue: { readonly message: Value }[] = [];
  private closed = false;
  /** Requests that change the session wait for the running ones (rpc/gate.ts). */
  private readonly gate = new SessionGate();
  alive = true;
  readonly outbox: Outbox;

  constructor(
    private readonly ctx: ServerContext,
    readonly ws: WebSocket,
    readonly session: Session,
    readonly format: WireFormat,
    meter: WireMeter,
    /** Requests running over every connection of the server. */
    private readonly running: { count: number },
  ) {
    this.outbox = new Outbox(meter, ws, () => this.startQueued());
  }

  onMessage(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    // the session's limits as it stands now: small until it signs in, so an anonymous frame is never decoded at length
    const limit = messageLimits(this.ctx, this.session, "ws");
    if (bytes.length > limit.bytes) {
      this.send(errorResponse(invalidRequest(), undefined, false));
      return;
    }
    let message: Value;
    try {
      if (this.format === "cbor" && !isBinary) throw new DecodeError("Expected a binary frame");
      message = decodeRpcMessage(this.format, isBinary ? new Uint8Array(bytes) : bytes.toString("utf8"), this.ctx.compat, limit.values);
    } catch (e) {
      if (!(e instanceof DecodeError)) this.ctx.logger.error("rpc frame decoding failed", e);
      // every undecodable frame is answered
      this.send(undecodableResponse({ ctx: this.ctx, session: this.session, transport: "ws" }, e instanceof DecodeError ? e : new DecodeError("")));
      return;
    }
    // the session's bounds as it stands now: a record user's connection runs few requests at once
    const bound = connectionLimits(this.ctx, this.session);
    if (!this.outbox.held && this.inFlight < bound.inFlight) this.run(message);
    else if (this.queue.length < bound.queued) this.queue.push({ message });
    else {
      const { id, hasId } = usableId(message);
      this.send(errorResponse(databaseError(TOO_MANY_REQUESTS), id, hasId));
    }
  }

  private run(message: Value): void {
    this.inFlight++;
    this.running.count++;
    dispatch({ ctx: this.ctx, session: this.session, transport: "ws", signal: this.gone.signal, gate: this.gate }, message)
      .then((response) => this.send(response))
      .catch((e) => this.ctx.logger.error("rpc dispatch failed", e))
      .finally(() => {
        this.inFlight--;
        this.running.count--;
        this.startQueued();
      });
  }

  /** Start queued requests while there is room, unless the client is not reading its answers (or the server is crowded). */
  private startQueued(): void {
    while (!this.closed && !this.outbox.held && this.inFlight < connectionLimits(this.ctx, this.session).inFlight) {
      const next = this.queue.shift();
      if (next === undefined) return;
      this.run(next.message);
    }
  }

  /** Answer: encoded at once when small; a large answer a piece at a time (attack pass 11, I5), the request held in flight meanwhile. */
  private send(response: ValueObject): Promise<void> | void {
    if (this.closed) return;
    try {
      const frame = encodeFrame(this.format, response, this.ctx.compat, () => this.closed);
      if (!(frame instanceof Promise)) return this.deliver(frame);
      return frame.then(
        (f) => f && this.deliver(f),
        (e) => this.failed(response, e),
      );
    } catch (e) {
      this.failed(response, e);
    }
  }

  /** The answer could not be encoded: its request gets the error instead. */
  private failed(response: ValueObject, e: unknown): void {
    this.ctx.logger.error("rpc response encoding failed", e);
    const id = response["id"];
    this.deliver(encodeValue(this.format, errorResponse(toRpcError(e), id, "id" in response), this.ctx.compat));
  }

  private deliver(frame: string | Uint8Array): void {
    if (this.closed) return;
    this.outbox.send(frame, this.format !== "json", (err) => this.ctx.logger.debug("rpc response not sent", err));
  }

  close(): void {
    this.outbox.end();
    this.closed = true;
    this.queue.length = 0;
    this.gone.abort();
    this.session.params.clear();
  }
}

export interface RpcSocketServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** GET /sql as a WebSocket: each text frame is SurrealQL, each reply the JSON text of its response list. */
  handleSqlUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Close every socket (1001 going away) and stop the heartbeat. */
  close(): Promise<void>;
  readonly connectionCount: number;
  /** Requests running now over every connection. */
  readonly inFlight: number;
}

function refuse(ctx: ServerContext, socket: Duplex, status: number, reason: string, text: string, retryAfterSeconds?: number): void {
  const headers = { ...identificationHeaders(ctx), ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }), "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(text)), connection: "close" };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines.join("\r\n")}\r\n\r\n${text}`);
}

export function createRpcSocketServer(ctx: ServerContext, meter: WireMeter): RpcSocketServer {
  const connections = new Set<Connection>();
  const running = { count: 0 };
  const idsInUse = new Set<string>();
  const wss = new WebSocketServer({
    noServer: true,
    // the hard cap closes the socket; frames between the soft limit and the cap get an error response
    maxPayload: ctx.limits.wsMaxPayload * 2,
    handleProtocols: (protocols) => {
      for (const p of protocols) if (SUPPORTED_PROTOCOLS.has(p)) return p;
      return false;
    },
  });
  const sqlWss = new WebSocketServer({ noServer: true, maxPayload: ctx.limits.sqlBody });
  for (const server of [wss, sqlWss])
    server.on("headers", (headers) => {
      for (const [k, v] of Object.entries(identificationHeaders(ctx))) headers.push(`${k}: ${v}`);
    });
  const sqlSockets = new Set<WebSocket>();

  function acceptSql(ws: WebSocket, session: Session): void {
    sqlSockets.add(ws);
    // a statement waits while its client reads no answers (or the server is crowded with unread ones)
    const waiting: (() => void)[] = [];
    const outbox = new Outbox(meter, ws, () => {
      while (!outbox.held && waiting.length > 0) waiting.shift()!();
    });
    // closing the socket cancels its running query
    const gone = new AbortController();
    // statements of one socket run one after another, as many waiting as an RPC connection holds
    let chain: Promise<void> = Promise.resolve();
    let pending = 0;
    ws.on("message", (data: RawData) => {
      const bound = connectionLimits(ctx, session);
      if (pending >= bound.inFlight + bound.queued) {
        outbox.send(TOO_MANY_REQUESTS, false, (err) => ctx.logger.debug("sql reply not sent", err));
        return;
      }
      pending++;
      const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString("utf8");
      chain = chain.then(async () => {
        if (outbox.held) await new Promise<void>((resolve) => waiting.push(resolve));
        pending--;
        if (gone.signal.aborted) return;
        ctx.iam.seen?.(session);
        let reply: string | Uint8Array | undefined;
        try {
          const responses = await ctx.engine.execute(text, session, {}, { signal: gone.signal });
          reply = await encodeFrame("json", responses.map((r) => ({ result: r.result, status: r.status, time: r.time })), ctx.compat, () => gone.signal.aborted);
        } catch (e) {
          reply = e instanceof SurrealError ? e.message : QUERY_MESSAGES.Internal();
          if (e instanceof ExpiredSession) ctx.audit.sessionExpired(session);
          if (!(e instanceof SurrealError)) ctx.logger.error("sql socket query failed", e);
        }
        if (reply !== undefined && ws.readyState === ws.OPEN) outbox.send(reply, false, (err) => ctx.logger.debug("sql reply not sent", err));
      });
    });
    ws.on("error", (e) => ctx.logger.warn("websocket error", e));
    ws.on("close", () => {
      gone.abort();
      outbox.end();
      for (const resume of waiting.splice(0)) resume();
      sqlSockets.delete(ws);
      ctx.iam.closed?.(session).catch((e) => ctx.logger.debug("session deregistration failed", e));
    });
  }

  /** Authenticates an upgrade; `onSession` answers it and returns the status it sent (for the request log). */
  function upgrade(req: IncomingMessage, socket: Duplex, onSession: (session: Session) => number): void {
    const started = performance.now();
    socket.on("error", (e) => ctx.logger.debug("upgrade socket error", e));
    if (meter.refuses(req.socket)) {
      refuse(ctx, socket, 429, "Too Many Requests", WIRE_MESSAGES.TooManyConnections);
      return logRequest(ctx, req, 429, started, undefined);
    }
    sessionFromRequest(ctx, req, { realtime: true })
      .then((session) => logRequest(ctx, req, onSession(session), started, session))
      .catch((e) => {
        if (e instanceof AuthFailure) refuse(ctx, socket, e.status, e.status === 429 ? "Too Many Requests" : "Unauthorized", e.text, e.retryAfterSeconds);
        else {
          ctx.logger.error("websocket upgrade failed", e);
          refuse(ctx, socket, 500, "Internal Server Error", "Internal Server Error");
        }
        logRequest(ctx, req, e instanceof AuthFailure ? 401 : 500, started, undefined);
      });
  }

  const heartbeat =
    ctx.limits.wsPingIntervalMs > 0
      ? setInterval(() => {
          for (const c of connections) {
            // a paused socket reads no pong: the outbox's stall timer governs it
            if (c.outbox.paused) continue;
            if (!c.alive) {
              c.ws.terminate();
              continue;
            }
            c.alive = false;
            c.ws.ping();
          }
        }, ctx.limits.wsPingIntervalMs)
      : undefined;
  heartbeat?.unref();

  function accept(ws: WebSocket, session: Session): void {
    const format: WireFormat = ws.protocol === "cbor" ? "cbor" : "json";
    const conn = new Connection(ctx, ws, session, format, meter, running);
    connections.add(conn);
    if (ctx.compat === 2 && session.id !== undefined) idsInUse.add(session.id);
    ws.on("pong", () => (conn.alive = true));
    ws.on("message", (data, isBinary) => {
      conn.alive = true;
      try {
        conn.onMessage(data, isBinary);
      } catch (e) {
        ctx.logger.error("rpc message handling failed", e);
      }
    });
    ws.on("error", (e) => ctx.logger.warn("websocket error", e));
    ws.on("close", () => {
      conn.close();
      connections.delete(conn);
      ctx.iam.closed?.(session).catch((e) => ctx.logger.debug("session deregistration failed", e));
      if (ctx.compat === 2 && session.id !== undefined) idsInUse.delete(session.id);
    });
  }

  return {
    get connectionCount() {
      return connections.size;
    },
    get inFlight() {
      return running.count;
    },
    handleUpgrade(req, socket, head) {
      upgrade(req, socket, (session) => {
        if (ctx.compat === 2 && session.id !== undefined && idsInUse.has(session.id)) {
          ctx.iam.closed?.(session).catch((e) => ctx.logger.debug("session deregistration failed", e));
          refuse(ctx, socket, 400, "Bad Request", "The connection id is already in use");
          return 400;
        }
        wss.handleUpgrade(req, socket, head, (ws) => accept(ws, session));
        return 101;
      });
    },
    handleSqlUpgrade(req, socket, head) {
      upgrade(req, socket, (session) => {
        sqlWss.handleUpgrade(req, socket, head, (ws) => acceptSql(ws, session));
        return 101;
      });
    },
    async close() {
      if (heartbeat) clearInterval(heartbeat);
      const closing = [...connections].map(
        (c) =>
          new Promise<void>((resolve) => {
            c.ws.once("close", () => resolve());
            c.ws.close(1001, "Server shutting down");
            setTimeout(() => {
              c.ws.terminate();
              resolve();
            }, 1000).unref();
          }),
      );
      for (const ws of sqlSockets) ws.terminate();
      await Promise.all(closing);
      wss.close();
      sqlWss.close();
    },
  };
}
