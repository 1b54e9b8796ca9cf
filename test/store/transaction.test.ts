// store/: the undo-log transaction — save points revert only what came after them.

import { describe, expect, it } from "vitest";
import { Transaction } from "../../src/store/transaction.js";

describe("Transaction save points", () => {
  it("rolls back the writes after the mark, newest first, and keeps the earlier ones until cancel", () => {
    const log: string[] = [];
    const txn = new Transaction();
    txn.onCancel(() => log.push("undo a"));
    const mark = txn.savepoint();
    txn.onCancel(() => log.push("undo b"));
    txn.onCancel(() => log.push("undo c"));
    txn.rollbackTo(mark);
    expect(log).toEqual(["undo c", "undo b"]);
    expect(txn.closed).toBe(false);
    txn.cancel();
    expect(log).toEqual(["undo c", "undo b", "undo a"]);
  });
});
