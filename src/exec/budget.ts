// exec/: a query's execution budget — a deadline and a cancellation (its client went away) checked at every checkpoint
// (statements, loop iterations, records, closure calls), where the engine also yields its CPU slice to the fair scheduler (scheduler.ts) so no query
// starves other clients or I/O — and
// the size of the results it answers, counted as trees (every value inside is held to MAX_VALUE_SIZE where it is built),
// and the charge of what it produced, for the memory guard (heap-guard.ts).

import { queryError } from "../errors/index.js";
import { MAX_RESULT_SIZE, MAX_VALUE_SIZE, sizeWithin } from "../value/size.js";
import type { Value } from "../value/types.js";
import { addCharge, closeCharge, openCharge, stopped, type Charge } from "./heap-guard.js";
import type { Decision } from "../doc/decide.js";
import { ENGINE_LANE, SLICE_MS, scheduler, type Lane } from "./scheduler.js";

/** The default time limit of a client query (ms): `--query-timeout`, `DatastoreOptions.queryTimeoutMs`. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** Checkpoints between two looks at the clock (a checkpoint costs a counter increment otherwise). */
const CLOCK_EVERY = 16;

/** The longest delay one Node timer can hold (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What ends a query besides its statements: its client going away (the HTTP request aborted, the socket closed). */
export interface ExecuteOptions {
  readonly signal?: AbortSignal;
  /** Hears every permission decision the query makes, with the index of the statement's answer (explain). */
  readonly explain?: (decision: Decision, statement: number) => void;
}

export class Budget {
  #lastYield = performance.now();
  #expired = false;
  /** A client query's charge for the memory guard, shared with the budgets made `within` this one; once the guard
   *  stopped it (stays true, like `#expired`) the rest of the query fails at once and drops what it holds. */
  #charge: Charge | undefined;
  #calls = 0;
  #answered = 0;

  /** `deadline` is a `performance.now()` time; Infinity for no limit. */
  private constructor(
    readonly deadline: number,
    /** Aborted when the query's client went away: every checkpoint then throws QueryCancelled. */
    readonly signal: AbortSignal | undefined,
    /** Whose CPU slices these are (the scheduler serves lanes in turn). */
    readonly lane: Lane,
  ) {}

  /**
   * A budget of `ms` from now (Infinity or 0 or less: unlimited), cancelled when `signal` aborts, its slices in `lane`.
   * Its first slice starts now: make it once the scheduler granted one.
   */
  static of(ms: number, signal?: AbortSignal, lane: Lane = ENGINE_LANE): Budget {
    const b = new Budget(ms > 0 && Number.isFinite(ms) ? performance.now() + ms : Infinity, signal, lane);
    // a client query's charge counts with its identity's until `end`
    if (lane !== ENGINE_LANE) b.#charge = openCharge(lane.identity);
    return b;
  }

  /** The tighter of this budget and `ms` from now (a statement's TIMEOUT clause). */
  within(ms: number): Budget {
    const b = new Budget(Math.min(this.deadline, performance.now() + Math.max(0, ms)), this.signal, this.lane);
    b.#lastYield = this.#lastYield;
    b.#charge = this.#charge;
    return b;
  }

  /** Milliseconds left before the deadline (Infinity without a limit, 0 once past it). */
  get remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /**
   * Counts a statement's result: a query's results together may not pass MAX_RESULT_SIZE (`SELECT $x FROM …` repeats
   * $x per row). Returns its size.
   */
  answer(result: Value): number {
    const size = sizeWithin(result, MAX_RESULT_SIZE - this.#answered);
    if (size === undefined) throw queryError("ResultTooLarge", MAX_RESULT_SIZE);
    this.#answered += size;
    // the answers are held until the query ends
    this.charge(size);
    return size;
  }

  /** Counts a value a variable of the query now holds (LET): the memory guard stops queries holding much first. */
  hold(v: Value): void {
    this.charge(sizeWithin(v, Number.MAX_SAFE_INTEGER) ?? 0);
  }

  /** `v` (a builtin's result, a cast, a subquery's rows) held to `limit` as a tree, and its size charged to the query. */
  charged<T extends Value>(v: T, limit = MAX_VALUE_SIZE): T {
    const size = sizeWithin(v, limit);
    if (size === undefined) throw queryError("ValueTooLarge", limit);
    this.charge(size);
    return v;
  }

  /** `v` (an operator's result: `+` joins strings and arrays), charged by its top level only (its parts were charged where they were built). */
  produced<T extends Value>(v: T): T {
    if (typeof v === "string") this.charge(v.length);
    else if (Array.isArray(v)) this.charge(8 * v.length);
    else if (v instanceof Uint8Array) this.charge(v.length);
    return v;
  }

  /** Adds `bytes` to the query's charge (the guard reads it at its next look at the heap). */
  charge(bytes: number): void {
    if (this.#charge !== undefined) addCharge(this.#charge, bytes);
  }

  /** The query ended: its charge no longer counts (Datastore.execute, once its answers are made). */
  end(): void {
    if (this.#charge !== undefined) closeCharge(this.#charge);
  }

  /** Past the deadline (stays true: the error cannot be swallowed by a caller and the work go on). */
  get expired(): boolean {
    if (!this.#expired && performance.now() > this.deadline) this.#expired = true;
    return this.#expired;
  }

  /** Throws the error that ends the query once it is cancelled (QueryCancelled), past its deadline (QueryTimedout) or stopped by the memory guard. */
  stopIfOver(): void {
    this.stopIfCancelled();
    if (this.expired) throw queryError("QueryTimedout");
    if (this.memoryStopped) throw queryError("QueryMemory");
  }

  /** Throws QueryCancelled once the query's client went away (before a commit: nothing of it is kept). */
  stopIfCancelled(): void {
    if (this.signal?.aborted) throw queryError("QueryCancelled");
  }

  /** Stopped by the memory guard (stopIfOver then throws QueryMemory). */
  get memoryStopped(): boolean {
    return this.#charge?.stopped ?? false;
  }

  /** Calls `wake` when the memory guard stops the query (a wait ends at once); returns the undoing of it. */
  onMemoryStop(wake: () => void): () => void {
    const wakers = this.#charge?.wakers;
    wakers?.add(wake);
    return () => wakers?.delete(wake);
  }

  /** Waits `ms`, waking early at the deadline, when the query is cancelled or stopped by the memory guard (sleep()); the caller checks stopIfOver. */
  wait(ms: number): Promise<void> {
    const signal = this.signal;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        unwake();
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, this.remainingMs + 1, MAX_TIMER_MS));
      signal?.addEventListener("abort", done, { once: true });
      const unwake = this.onMemoryStop(done);
    });
  }

  /** `p`, or sooner once the memory guard stops the query (its turn in the scheduler's line need not come). */
  private untilStopped(p: Promise<void>): Promise<void> {
    if (this.#charge === undefined) return p;
    let unwake = (): void => {};
    const stopped = new Promise<void>((resolve) => (unwake = this.onMemoryStop(resolve)));
    return Promise.race([p, stopped]).finally(unwake);
  }

  /**
   * Throws QueryCancelled once the query is cancelled, SurrealDB's timeout error past the deadline; every SLICE_MS of work asks the scheduler for
   * the next slice and returns the promise to await until it is granted (undefined: go on). Callers: `await budget.checkpoint()`.
   */
  checkpoint(): Promise<void> | undefined {
    if (++this.#calls < CLOCK_EVERY) {
      this.stopIfStopped();
      return undefined;
    }
    return this.checkpointNow();
  }

  /**
   * A checkpoint that looks at the clock at once: after a step that may have run long (a builtin call: a sort of a
   * million values), whatever the count of checkpoints since the last look (attack pass 7, E6; pass 8: a lone query of
   * six nested sorts never yielded, so its closed socket could not cancel it).
   */
  checkpointNow(): Promise<void> | undefined {
    this.stopIfStopped();
    return this.lookAtClock();
  }

  /** Throws once the query is cancelled, past its deadline (as last seen) or stopped by the memory guard. */
  private stopIfStopped(): void {
    this.stopIfCancelled();
    if (this.#expired) throw queryError("QueryTimedout");
    if (this.memoryStopped) throw queryError("QueryMemory");
  }

  /** The deadline, the memory guard, and every SLICE_MS of work a slice asked of the scheduler. */
  private lookAtClock(): Promise<void> | undefined {
    this.#calls = 0;
    const now = performance.now();
    if (now > this.deadline) {
      this.#expired = true;
      throw queryError("QueryTimedout");
    }
    // the heap near its limit: the guard stops the client queries responsible, and they drop what they hold (the engine's own work goes on)
    if (this.#charge !== undefined && stopped(this.#charge, now)) throw queryError("QueryMemory");
    if (now - this.#lastYield < SLICE_MS) return undefined;
    const next = scheduler.slice(this.lane);
    if (next === undefined) {
      this.#lastYield = now;
      return undefined;
    }
    return this.untilStopped(next).then(() => {
      this.#lastYield = performance.now();
      // what happened while the query waited (its client went away, the deadline passed, the guard stopped it) ends it here
      this.stopIfOver();
    });
  }
}
