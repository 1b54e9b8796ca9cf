// exec/functions: the gate a client's own password hashing passes (attack pass 6, D4). `crypto::*::generate` and
// `compare` written by a client run in the thread pool every signin's verify shares, where neither the query's time
// limit nor the CPU scheduler reaches: 16 record users' scrypt loops held logins for 40 s and their queries for 140 s.
// So a client's hashes run one at a time server-wide (the pool keeps its other threads for logins), waiting clients
// are served round robin by identity, and a wait ends at the query's deadline or cancellation. Hashes in schema
// bodies (SIGNUP / SIGNIN clauses, functions) do not pass here: they are the logins.

import { queryError } from "../../errors/index.js";
import type { Budget } from "../budget.js";

/** A client's hashes running at once, server-wide. */
export const CLIENT_HASH_SLOTS = 1;

type Waiter = { readonly grant: () => void };

export class HashGate {
  #running = 0;
  /** Waiting clients by identity, served in turn (Map order: the identity served last moves to the back). */
  readonly #waiting = new Map<unknown, Waiter[]>();

  constructor(private readonly slots = CLIENT_HASH_SLOTS) {}

  /** Hashes running now (tests). */
  get running(): number {
    return this.#running;
  }

  /** Runs `work` once a slot is free, within `budget`: QueryTimedout / QueryCancelled if that ends first. */
  async run<T>(identity: unknown, budget: Budget | undefined, work: () => Promise<T>): Promise<T> {
    budget?.stopIfOver();
    if (this.#running >= this.slots) await this.#wait(identity, budget);
    else this.#running++;
    try {
      budget?.stopIfOver();
      return await work();
    } finally {
      this.#release();
    }
  }

  /** Waits for a slot handed over by #release (the slot is counted as running when granted). */
  #wait(identity: unknown, budget: Budget | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(identity) ?? [];
      let timer: NodeJS.Timeout | undefined;
      /** Waits out what is left of the budget (a timer may fire a little before the deadline it was set for). */
      const arm = (): void => {
        const ms = budget?.remainingMs ?? Infinity;
        timer = Number.isFinite(ms) ? setTimeout(stop, Math.min(ms + 1, 2 ** 31 - 1)) : undefined;
      };
      const stop = (): void => {
        clearTimeout(timer);
        if (budget !== undefined && !budget.signal?.aborted && !budget.expired && !budget.memoryStopped) return arm();
        budget?.signal?.removeEventListener("abort", stop);
        unwake?.();
        const i = queue.indexOf(waiter);
        if (i < 0) return;
        queue.splice(i, 1);
        if (queue.length === 0) this.#waiting.delete(identity);
        // past the deadline (`expired` marks the budget, so the query's later statements time out too), cancelled, or stopped by the memory guard
        reject(queryError(budget?.signal?.aborted ? "QueryCancelled" : budget?.memoryStopped ? "QueryMemory" : "QueryTimedout"));
      };
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          budget?.signal?.removeEventListener("abort", stop);
          unwake?.();
          resolve();
        },
      };
      arm();
      budget?.signal?.addEventListener("abort", stop, { once: true });
      const unwake = budget?.onMemoryStop(stop);
      queue.push(waiter);
      this.#waiting.set(identity, queue);
    });
  }

  /** A finished hash hands its slot to the next identity in turn, or frees it. */
  #release(): void {
    for (const [identity, queue] of this.#waiting) {
      const next = queue.shift()!;
      this.#waiting.delete(identity);
      if (queue.length > 0) this.#waiting.set(identity, queue);
      next.grant();
      return;
    }
    this.#running--;
  }
}

/** The engine's one gate. */
export const clientHashes = new HashGate();
