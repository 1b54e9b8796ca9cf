// exec/: the fair CPU scheduler. Every query asks here for its CPU slices: before parsing its text and at each yield of
// its budget (src/exec/budget.ts, every SLICE_MS of work). One event-loop turn grants at most one waiting slice, so I/O
// (new requests, /health, pings, signins) is served between slices however many queries are runnable (attack pass 5,
// C3: 100 resumed in one turn held the loop ~2 s). Waiting slices are served round robin by identity, then by
// connection within an identity, then in order: one connection running 8 queries gets the share of one, and one
// identity's many connections the share of one identity.

import type { Session } from "./session.js";

/** Work between two asks for a slice (ms). */
export const SLICE_MS = 10;

/** Time a turn may spend on slices that run at once when none waits (many short queries need no turn each) (ms). */
export const TURN_MS = 2;

/** Most turns left to I/O after a turn that overran SLICE_MS (a long parse): enough for a light request to be answered. */
const MAX_REST_TURNS = 2;

/** Who a slice belongs to: its identity (the unit of fairness) and its connection (fair within the identity). */
export interface Lane {
  readonly identity: unknown;
  readonly connection: unknown;
}

/** Work of the engine itself (no client session): one lane of its own. */
export const ENGINE_LANE: Lane = Object.freeze({ identity: "engine", connection: "engine" });

/** A session's lane: a signed-in identity shares one across its connections; an anonymous connection is its own. */
export function laneOf(session: Session): Lane {
  const { level, ns, db, id } = session.actor;
  if (level === "No") return { identity: session, connection: session };
  return { identity: `${level}\0${ns ?? ""}\0${db ?? ""}\0${id}`, connection: session };
}

export interface SchedulerOptions {
  /** Runs `fn` at the next event-loop turn (default setImmediate: after the I/O poll). */
  readonly nextTurn?: (fn: () => void) => void;
  readonly now?: () => number;
  readonly turnMs?: number;
  readonly sliceMs?: number;
}

/** Serves the first entry of `map` (insertion order) and moves it to the back, or drops it once `serve` emptied it. */
function serveFirst<K, V, T>(map: Map<K, V>, serve: (v: V) => T, empty: (v: V) => boolean): T | undefined {
  for (const [key, value] of map) {
    const item = serve(value);
    map.delete(key);
    if (!empty(value)) map.set(key, value);
    return item;
  }
  return undefined;
}

type Waiter = { readonly lane: Lane; readonly resolve: () => void };
type Lines = Map<unknown, Waiter[]>;

export class Scheduler {
  /** Slices granted (counted for tests and operators). */
  granted = 0;
  /** Slices waiting for a turn. */
  waiting = 0;
  /** Called with the lane of every slice granted (tests count whose slices ran). */
  onGrant: ((lane: Lane) => void) | undefined;
  /** Identities → connections → waiting slices (their resolvers). */
  private readonly identities = new Map<unknown, Lines>();
  private readonly nextTurn: (fn: () => void) => void;
  private readonly now: () => number;
  private readonly turnMs: number;
  private readonly sliceMs: number;
  /** When the current turn began; no turn is under way while `turnPending` is false (the scheduler is idle). */
  private turnStart = -Infinity;
  private turnPending = false;
  /** How the turn under way granted a slice: at its start, or at once (maybe in this very loop iteration, before the check phase). */
  private ran: "at its start" | "at once" | undefined;
  /** Turns to leave to I/O before the next grant. */
  private rest = 0;

  constructor(opts: SchedulerOptions = {}) {
    this.nextTurn = opts.nextTurn ?? ((fn) => setImmediate(fn));
    this.now = opts.now ?? (() => performance.now());
    this.turnMs = opts.turnMs ?? TURN_MS;
    this.sliceMs = opts.sliceMs ?? SLICE_MS;
  }

  /**
   * Ask for a CPU slice for `lane`: undefined when it may run now (nothing waits and this turn has time left), else a
   * promise resolved at the turn that serves it. Callers: `await scheduler.slice(lane)`.
   */
  slice(lane: Lane): Promise<void> | undefined {
    // 1. idle: a new turn begins now
    if (!this.turnPending) this.beginTurn();
    // 2. nothing waits and the turn has time left: run now
    if (this.waiting === 0 && this.now() - this.turnStart < this.turnMs) {
      this.ran = "at once";
      this.grant(lane);
      return undefined;
    }
    // 3. else wait in the identity's line, then the connection's
    this.waiting++;
    return new Promise<void>((resolve) => {
      let connections = this.identities.get(lane.identity);
      if (connections === undefined) this.identities.set(lane.identity, (connections = new Map()));
      let line = connections.get(lane.connection);
      if (line === undefined) connections.set(lane.connection, (line = []));
      line.push({ lane, resolve });
    });
  }

  private beginTurn(): void {
    this.turnStart = this.now();
    this.turnPending = true;
    this.nextTurn(() => this.turn());
  }

  /**
   * One event-loop turn: the next waiting slice (round robin) runs, and the turn after it serves the next. Turns are
   * left to I/O first after a slice ran at once (it may have run in this very loop iteration, before the check phase)
   * and after a turn that overran a slice (a long parse): a light request needs a few turns to be read and answered.
   */
  private turn(): void {
    const took = this.now() - this.turnStart;
    this.turnPending = false;
    // only a turn that ran a slice sets the rest (a turn of I/O alone may take long too)
    if (this.ran !== undefined) {
      const overran = took > 2 * this.sliceMs ? Math.min(MAX_REST_TURNS, Math.floor(took / this.sliceMs)) : 0;
      this.rest = Math.max(overran, this.ran === "at once" ? 1 : 0);
      this.ran = undefined;
    }
    if (this.waiting === 0) {
      this.rest = 0;
      return;
    }
    this.beginTurn();
    if (this.rest > 0) {
      this.rest--;
      return;
    }
    const next = this.takeNext();
    this.waiting--;
    this.ran = "at its start";
    this.grant(next.lane);
    next.resolve();
  }

  private grant(lane: Lane): void {
    this.granted++;
    this.onGrant?.(lane);
  }

  /** The next identity in turn, its next connection in turn, that connection's oldest slice. */
  private takeNext(): Waiter {
    const nextOf = (line: Waiter[]) => line.shift()!;
    return serveFirst(this.identities, (lines: Lines) => serveFirst(lines, nextOf, (l) => l.length === 0)!, (lines) => lines.size === 0)!;
  }
}

/** The process's scheduler: every engine of the process shares one event loop. */
export const scheduler = new Scheduler();
