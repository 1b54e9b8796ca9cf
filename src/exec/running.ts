// exec/: the client queries running now, with their sessions, so that a session's end (a kill through the session
// registry, its record identity deleted, its user or access removed or redefined) cancels its running queries at their
// next checkpoint with the cancellation error, and they commit nothing more (attack pass 11, I7).

import type { Session } from "./session.js";

/** One running query: its cancellation signal, and `done` once it has answered. */
export interface RunningQuery {
  readonly signal: AbortSignal;
  done(): void;
}

export class RunningQueries {
  private readonly running = new Map<AbortController, Session>();

  /** A query of `session` starts: its signal aborts when `outer` does (its client went away) or `endWhere` ends it. */
  start(session: Session, outer?: AbortSignal): RunningQuery {
    const ctl = new AbortController();
    const follow = (): void => ctl.abort();
    if (outer?.aborted) ctl.abort();
    else outer?.addEventListener("abort", follow, { once: true });
    this.running.set(ctl, session);
    return {
      signal: ctl.signal,
      done: () => {
        this.running.delete(ctl);
        outer?.removeEventListener("abort", follow);
      },
    };
  }

  /** Cancels the running queries whose session has `ended`. */
  endWhere(ended: (session: Session) => boolean): void {
    for (const [ctl, session] of this.running) if (!ctl.signal.aborted && ended(session)) ctl.abort();
  }
}
