// Unsent answers per WebSocket and server-wide (attack pass 3, A6; pass 5, C2): an answer is held as its encoded bytes
// only, counted until its socket wrote them. A socket whose client stops reading is paused (no frames read, no queued
// request started), closed if it stays so or passes the hard cap; past half the server's total, sockets holding unsent
// answers start no new request until it falls to a quarter; past the total, the socket holding the most is closed.
// Connections per IP address are counted here too.

import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import type { WebSocket } from "ws";
import { WIRE_MESSAGES } from "../errors/catalogue.js";
import type { ServerLimits } from "./types.js";

/**
 * What the meter reports: `pause` / `resume` of a socket, `close` (a socket it closed: `{code, reason}`), `refuse` (a
 * connection over the per-IP cap), `disconnect` (a TCP connection ended), `crowded` / `uncrowded` (the server's unsent
 * bytes passed half its total / fell to a quarter).
 */
export type WireEvent = "pause" | "resume" | "close" | "refuse" | "disconnect" | "crowded" | "uncrowded";

/** Policy violation (the client reads nothing) and try-again-later (the server as a whole is full). */
const CLOSE_POLICY = 1008;
const CLOSE_TRY_LATER = 1013;
/** How long a closing socket may take to flush its close frame before it is destroyed. */
const CLOSE_GRACE_MS = 1000;
/** How long a connection over the per-IP cap has to send its request and read its 429 before it is destroyed. */
const REFUSE_GRACE_MS = 2000;

/** Server-wide counters, readable by tests and operators, and the events above. */
export class WireMeter extends EventEmitter {
  /** Answer bytes handed to sockets and not yet written by them. */
  queuedBytes = 0;
  /** Past half the server's total (until it falls to a quarter): sockets holding unsent answers start no new request. */
  crowded = false;
  pausedSockets = 0;
  closedSockets = 0;
  refusedConnections = 0;
  /** Every WebSocket's outbox and every HTTP answer its socket has not written yet. */
  readonly outboxes = new Set<Holder>();
  private readonly perIp = new Map<string, number>();
  private readonly refused = new WeakSet<Socket>();

  constructor(readonly limits: ServerLimits) {
    super();
  }

  /**
   * Count a new TCP connection. Over the per-IP cap it is marked refused: its request or upgrade gets 429, and it is
   * destroyed after REFUSE_GRACE_MS whatever it sent (a socket that never finishes its headers held a descriptor for as
   * long as Node's header timeout: attack pass 9, G11); past twice the cap it is destroyed at once.
   */
  connect(socket: Socket): void {
    const ip = socket.remoteAddress ?? "";
    const n = (this.perIp.get(ip) ?? 0) + 1;
    this.perIp.set(ip, n);
    socket.once("close", () => {
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
      this.emit("disconnect");
    });
    const cap = this.limits.maxConnectionsPerIp;
    if (cap <= 0 || n <= cap) return;
    this.refused.add(socket);
    if (n > 2 * cap) {
      this.refuses(socket);
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), REFUSE_GRACE_MS).unref();
    socket.once("close", () => clearTimeout(timer));
  }

  /** Open TCP connections from `ip`. */
  connectionsFrom(ip: string): number {
    return this.perIp.get(ip) ?? 0;
  }

  /** Is this connection over the per-IP cap? Counts the refusal. */
  refuses(socket: Socket): boolean {
    if (!this.refused.has(socket)) return false;
    this.refusedConnections++;
    this.emit("refuse");
    return true;
  }

  /** An HTTP answer its socket could not write at once: counted until the socket drains or closes. */
  holdHttp(socket: Socket): void {
    if (!socket.writableNeedDrain) return;
    const holder: Holder = { queued: socket.writableLength, shut: () => socket.destroy() };
    this.count(holder.queued);
    this.outboxes.add(holder);
    const release = () => {
      if (this.outboxes.delete(holder)) this.count(-holder.queued);
    };
    socket.once("drain", release);
    socket.once("close", release);
    this.balance();
  }

  /** Unsent bytes change by `n`: crowding starts past half the server's total and ends at a quarter (waiting sockets go on). */
  count(n: number): void {
    this.queuedBytes += n;
    const cap = this.limits.serverMaxBufferedBytes;
    if (!this.crowded && this.queuedBytes > cap / 2) {
      this.crowded = true;
      this.emit("crowded");
      for (const o of this.outboxes) o.watch?.();
    } else if (this.crowded && this.queuedBytes <= cap / 4) {
      this.crowded = false;
      this.emit("uncrowded");
      for (const o of this.outboxes) o.wake?.();
    }
  }

  /** The socket with the most unsent bytes is closed when the total passes the server's cap. */
  balance(): void {
    if (this.queuedBytes <= this.limits.serverMaxBufferedBytes) return;
    let worst: Holder | undefined;
    for (const o of this.outboxes) if (worst === undefined || o.queued > worst.queued) worst = o;
    if (worst === undefined) return;
    this.closedSockets++;
    worst.shut(CLOSE_TRY_LATER, WIRE_MESSAGES.ServerBusy, true);
    this.emit("close", { code: CLOSE_TRY_LATER, reason: WIRE_MESSAGES.ServerBusy });
  }
}

/** Unsent bytes of one connection, and how to close it. */
interface Holder {
  readonly queued: number;
  shut(code: number, reason: string, now: boolean): void;
  /** The server is no longer crowded: start what waited. */
  wake?(): void;
  /** The server is crowded: a socket holding unsent answers that writes none for wsStallMs is closed. */
  watch?(): void;
}

/** One socket's unsent answers. */
export class Outbox implements Holder {
  queued = 0;
  paused = false;
  private ended = false;
  private stall: NodeJS.Timeout | undefined;

  constructor(
    private readonly meter: WireMeter,
    private readonly ws: WebSocket,
    /** Called when the socket is read again: start what waited. */
    private readonly onResume: () => void = () => {},
  ) {
    meter.outboxes.add(this);
  }

  /** No new request of this socket starts: it is paused, or the server is crowded and this socket holds unsent answers. */
  get held(): boolean {
    return this.paused || (this.meter.crowded && this.queued > 0);
  }

  /**
   * Send one answer, counted until the socket has written it. A text answer is held as its UTF-8 bytes from here on (a
   * string waiting in the socket's queue costs V8 heap that stays after it is written, and a native copy besides).
   */
  send(frame: string | Uint8Array, binary: boolean, onError: (e: Error) => void): void {
    if (this.ended) return;
    const bytes = typeof frame === "string" ? Buffer.from(frame, "utf8") : frame;
    const n = bytes.length;
    this.add(n);
    this.ws.send(bytes, { binary }, (err) => {
      if (!this.ended) this.add(-n);
      if (err) onError(err);
      if (this.ended) return;
      if (this.paused && this.queued <= this.meter.limits.wsPauseBytes / 2) this.resume();
      else if (!this.paused) {
        // the client reads: no stall; every answer written: a socket held while the server is crowded goes on
        this.unwatch();
        if (this.queued === 0 && this.meter.crowded) this.onResume();
        else if (this.meter.crowded) this.watch();
      }
    });
    if (this.ended) return;
    const { limits } = this.meter;
    if (this.queued >= limits.wsMaxBufferedBytes) return this.overflow(true);
    if (!this.paused && this.queued > limits.wsPauseBytes) this.pause();
    else if (this.meter.crowded) this.watch();
    this.meter.balance();
  }

  private add(n: number): void {
    this.queued += n;
    this.meter.count(n);
  }

  wake(): void {
    if (!this.paused) this.unwatch();
    if (!this.ended && !this.held) this.onResume();
  }

  /** Close this socket if it holds unsent answers and writes none for wsStallMs (already so while paused). */
  watch(): void {
    if (this.ended || this.stall !== undefined || this.queued === 0) return;
    this.stall = setTimeout(() => this.overflow(false), this.meter.limits.wsStallMs);
    this.stall.unref();
  }

  private unwatch(): void {
    clearTimeout(this.stall);
    this.stall = undefined;
  }

  private pause(): void {
    this.paused = true;
    this.meter.pausedSockets++;
    this.ws.pause();
    this.unwatch();
    this.stall = setTimeout(() => this.overflow(false), this.meter.limits.wsStallMs);
    this.stall.unref();
    this.meter.emit("pause");
  }

  private resume(): void {
    this.paused = false;
    this.meter.pausedSockets--;
    this.unwatch();
    this.ws.resume();
    this.meter.emit("resume");
    this.onResume();
  }

  /** Close the socket (code and reason; at once when `now`, as its unsent bytes are what must be released). */
  shut(code: number, reason: string, now: boolean): void {
    if (this.ended) return;
    this.end();
    this.ws.close(code, reason);
    if (now) this.ws.terminate();
    else setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Close it for a limit of its own (not the server's total). */
  private overflow(now: boolean): void {
    if (this.ended) return;
    this.meter.closedSockets++;
    this.shut(CLOSE_POLICY, WIRE_MESSAGES.AnswersNotRead, now);
    this.meter.emit("close", { code: CLOSE_POLICY, reason: WIRE_MESSAGES.AnswersNotRead });
  }

  /** The socket is gone (or going): release its count. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.stall);
    if (this.paused) this.meter.pausedSockets--;
    this.paused = false;
    this.meter.outboxes.delete(this);
    this.meter.count(-this.queued);
    this.queued = 0;
  }

  get closed(): boolean {
    return this.ended;
  }
}
