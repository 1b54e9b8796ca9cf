// store/: a transaction is an undo log over the in-memory structures; cancel replays it backwards.

export class Transaction {
  private undo: (() => void)[] = [];
  private done = false;

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
  }

  cancel(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]!();
    this.undo = [];
    this.done = true;
  }
}
