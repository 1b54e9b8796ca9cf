// exec/: a query's execution budget — a deadline and a cancellation (its client went away) checked at every checkpoint
// (statements, loop iterations, records, closure calls), where the engine also yields its CPU slice to the fair scheduler (scheduler.ts) so no query
// starves other clients or I/O — and
// the size of the results it answers, counted as trees (every value inside is held to MAX_VALUE_SIZE where it is built).

import { queryError } from "../errors/index.js";
import { MAX_RESULT_SIZE, sizeWithin } from "../value/size.js";
import type { Value } from "../value/types.js";
import { heapState, HOLDING_MUCH } from "./heap-guard.js";
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
  /** Stopped by the memory guard, shared with the budgets made `within` this one (stays true, like `#expired`: the rest
   *  of the query fails at once and drops what it holds). */
  #memory = { stopped: false, held: 0 };
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
    return new Budget(ms > 0 && Number.isFinite(ms) ? performance.now() + ms : Infinity, signal, lane);
  }

  /** The tighter of this budget and `ms` from now (a statement's TIMEOUT clause). */
  within(ms: number): Budget {
    const b = new Budget(Math.min(this.deadline, performance.now() + Math.max(0, ms)), this.signal, this.lane);
    b.#lastYield = this.#lastYield;
    b.#memory = this.#memory;
    return b;
  }

  /** Milliseconds left before the deadline (Infinity without a limit, 0 once past it). */
  get remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** Counts a statement's result: a query's results together may not pass MAX_RESULT_SIZE (`SELECT $x FROM …` repeats $x per row). */
  answer(result: Value): void {
    const size = sizeWithin(result, MAX_RESULT_SIZE - this.#answered);
    if (size === undefined) throw queryError("ResultTooLarge", MAX_RESULT_SIZE);
    this.#answered += size;
  }

  /** Counts a value a variable of the query now holds (LET): the memory guard stops queries holding much first. */
  hold(v: Value): void {
    this.#memory.held += sizeWithin(v, Number.MAX_SAFE_INTEGER) ?? 0;
  }

  /** Past the deadline (stays true: the error cannot be swallowed by a caller and the work go on). */
  get expired(): boolean {
    if (!this.#expired && performance.now() > this.deadline) this.#expired = true;
    return this.#expired;
  }

  /** Throws the error that ends the query once it is cancelled (QueryCancelled) or past its deadline (QueryTimedout). */
  stopIfOver(): void {
    this.stopIfCancelled();
    if (this.expired) throw queryError("QueryTimedout");
  }

  /** Throws QueryCancelled once the query's client went away (before a commit: nothing of it is kept). */
  stopIfCancelled(): void {
    if (this.signal?.aborted) throw queryError("QueryCancelled");
  }

  /** Waits `ms`, waking early at the deadline or when the query is cancelled (sleep()); the caller checks stopIfOver. */
  wait(ms: number): Promise<void> {
    const signal = this.signal;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, this.remainingMs + 1, MAX_TIMER_MS));
      signal?.addEventListener("abort", done, { once: true });
    });
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
    if (this.#memory.stopped) throw queryError("QueryMemory");
  }

  /** The deadline, the memory guard, and every SLICE_MS of work a slice asked of the scheduler. */
  private lookAtClock(): Promise<void> | undefined {
    this.#calls = 0;
    const now = performance.now();
    if (now > this.deadline) {
      this.#expired = true;
      throw queryError("QueryTimedout");
    }
    // the heap near its limit: client queries stop and drop what they hold (the engine's own work goes on)
    if (this.lane !== ENGINE_LANE) {
      const heap = heapState(now);
      if (heap === "critical" || (heap === "pressed" && this.#memory.held >= HOLDING_MUCH)) {
        this.#memory.stopped = true;
        throw queryError("QueryMemory");
      }
    }
    if (now - this.#lastYield < SLICE_MS) return undefined;
    const next = scheduler.slice(this.lane);
    if (next === undefined) {
      this.#lastYield = now;
      return undefined;
    }
    return next.then(() => {
      this.#lastYield = performance.now();
      // what happened while the query waited (its client went away, the deadline passed) ends it here
      this.stopIfOver();
    });
  }
}
