// A connection's session gate: RPC requests that only read the session run together; one that changes who the
// connection is or where it points (signin, signup, authenticate, refresh, invalidate, reset, use) waits until those
// running finish, runs alone, and goes before any request that arrived after it. So a query runs from its first
// statement to its last as the identity, namespace and database it started with (attack pass 12, J4: a query still
// running when its socket signed in as root finished as root). SurrealDB 1.x holds the connection's lock the same way;
// 2.x gives each query a copy of the session.

/** RPC methods that change the connection's session. */
const SESSION_CHANGING = new Set(["signin", "signup", "authenticate", "refresh", "invalidate", "reset", "use"]);

/**
 * Whether a request changes the connection's session: one of those methods, or a query whose text may hold a `USE`
 * statement (it moves the connection for later requests: attack pass 12, J9). The word anywhere counts, in a string
 * or a comment too: a query taken for a change only waits its turn.
 */
export function changesSession(method: string, params: readonly unknown[]): boolean {
  if (SESSION_CHANGING.has(method)) return true;
  return method === "query" && typeof params[0] === "string" && /\buse\b/i.test(params[0]);
}

interface Waiter {
  readonly changes: boolean;
  readonly start: () => void;
}

export class SessionGate {
  #reading = 0;
  #changing = false;
  readonly #waiting: Waiter[] = [];

  /** `f` once the gate lets it through: alone when it `changes` the session, else alongside other readers. */
  async run<T>(changes: boolean, f: () => Promise<T>): Promise<T> {
    if (!this.#mayStart(changes)) await new Promise<void>((start) => this.#waiting.push({ changes, start }));
    else this.#enter(changes);
    try {
      return await f();
    } finally {
      this.#leave(changes);
    }
  }

  /** Nothing waits ahead of it (arrival order), and no change runs (for a change: nothing runs at all). */
  #mayStart(changes: boolean): boolean {
    return this.#waiting.length === 0 && !this.#changing && (!changes || this.#reading === 0);
  }

  #enter(changes: boolean): void {
    if (changes) this.#changing = true;
    else this.#reading++;
  }

  #leave(changes: boolean): void {
    if (changes) this.#changing = false;
    else this.#reading--;
    // wake waiters in arrival order: readers up to the next change; a change once nothing runs
    while (this.#waiting.length > 0 && !this.#changing) {
      const next = this.#waiting[0]!;
      if (next.changes && this.#reading > 0) return;
      this.#waiting.shift();
      this.#enter(next.changes);
      next.start();
    }
  }
}
