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
