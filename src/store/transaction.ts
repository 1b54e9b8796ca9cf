// store/: the engine's transaction — a key-value transaction (store/kv/) whose buffered writes hold the records and
// index entries, plus an undo log for what still lives in memory (the catalog's maps, the identity book).
// Save points cover both; commit flushes the KV writes (and may fail with a conflict), cancel drops them.

import type { CatalogState } from "./catalog-journal.js";
import type { KvTransaction } from "./kv/types.js";

export class Transaction {
  private undo: (() => void)[] = [];
  private commits: (() => void)[] = [];
  /** Save points: the KV transaction's mark and the undo log's length. */
  private marks: (readonly [number | undefined, number])[] = [];
  private done = false;

  /**
   * `kv`: the store transaction (undefined: a transaction over in-memory structures only, which undo through onCancel).
   * `deadline`: the `performance.now()` time past which its statements time out (`--transaction-timeout`).
   * `catalog`: its catalog state when it read the catalog version at its start (definitions may then be written).
   */
  constructor(
    readonly kv: KvTransaction | undefined = undefined,
    readonly deadline = Infinity,
    readonly catalog: CatalogState | undefined = undefined,
  ) {}

  /** Remember how to revert one in-memory change made under this transaction. */
  onCancel(revert: () => void): void {
    if (this.done) return;
    this.undo.push(revert);
  }

  /** Run `fn` once the transaction has committed (never when it is cancelled or its commit fails). */
  onCommit(fn: () => void): void {
    if (this.done) return;
    this.commits.push(fn);
  }

  get closed(): boolean {
    return this.done;
  }

  /** A point to roll back to, keeping the transaction open (SurrealDB's save points). */
  savepoint(): number {
    this.marks.push([this.kv?.savepoint(), this.undo.length]);
    return this.marks.length - 1;
  }

  /** Revert every write made since `mark`. */
  rollbackTo(mark: number): void {
    const [kvMark, undoMark] = this.marks[mark]!;
    if (kvMark !== undefined) this.kv!.rollbackTo(kvMark);
    while (this.undo.length > undoMark) this.undo.pop()!();
    this.marks.length = mark;
  }

  /** Flush the writes; a failed commit (a conflict) reverts the in-memory changes too and rethrows. */
  async commit(): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await this.kv?.commit();
    } catch (e) {
      this.revert();
      throw e;
    }
    this.undo = [];
    for (const fn of this.commits) fn();
    this.commits = [];
  }

  async cancel(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.revert();
    this.commits = [];
    await this.kv?.cancel();
  }

  private revert(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]!();
    this.undo = [];
  }
}
