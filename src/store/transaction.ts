// store/: a transaction is an undo log over the in-memory structures; cancel replays it backwards.

import type { KvTransaction } from "./kv/types.js";

export class Transaction {
  private undo: (() => void)[] = [];
  private committed: (() => void)[] = [];
  private done = false;

  /** `kv`: the store transaction definitions are written to (undefined: memory only). */
  constructor(readonly kv: KvTransaction | undefined = undefined) {}

  /** Run `done` once this transaction has committed. */
  onCommit(done: () => void): void {
    if (!this.done) this.committed.push(done);
  }

  /** Remember how to revert one write made under this transaction. */
  onCancel(revert: () => void): void {
    if (this.done) return;
    this.undo.push(revert);
  }

  get closed(): boolean {
    return this.done;
  }

  /** A point to roll back to, keeping the transaction open (SurrealDB's save points). */
  savepoint(): number {
    return this.undo.length;
  }

  /** Revert every write made since `mark`. */
  rollbackTo(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()!();
  }

  commit(): void {
    this.undo = [];
    this.done = true;
    for (const done of this.committed.splice(0)) done();
  }

  cancel(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]!();
    this.undo = [];
    this.committed = [];
    this.done = true;
  }
}
