// store/: the undo-log transaction — save points revert only what came after them.

import { describe, expect, it } from "vitest";
import type { KvTransaction } from "../../src/store/kv/types.js";
import { Transaction } from "../../src/store/transaction.js";

describe("Transaction save points", () => {
  it("rolls back the writes after the mark, newest first, and keeps the earlier ones until cancel", async () => {
    const log: string[] = [];
    const txn = new Transaction();
    txn.onCancel(() => log.push("undo a"));
    const mark = txn.savepoint();
    txn.onCancel(() => log.push("undo b"));
    txn.onCancel(() => log.push("undo c"));
    txn.rollbackTo(mark);
    expect(log).toEqual(["undo c", "undo b"]);
    expect(txn.closed).toBe(false);
    await txn.cancel();
    expect(log).toEqual(["undo c", "undo b", "undo a"]);
  });
});

/** A KV transaction that only records what the wrapper asks of it. */
function fakeKv(failCommit = false) {
  const calls: string[] = [];
  let marks = 0;
  const kv = {
    mode: "write" as const,
    closed: false,
    savepoint: () => (calls.push(`savepoint ${marks}`), marks++),
    rollbackTo: (m: number) => void calls.push(`rollbackTo ${m}`),
    commit: async () => {
      calls.push("commit");
      if (failCommit) throw new Error("conflict");
    },
    cancel: async () => void calls.push("cancel"),
  };
  return { kv: kv as unknown as KvTransaction, calls };
}

describe("Transaction over a KV transaction", () => {
  it("maps save points to the KV transaction's and rolls back both the KV writes and the in-memory changes", async () => {
    const { kv, calls } = fakeKv();
    const log: string[] = [];
    const txn = new Transaction(kv);
    txn.onCancel(() => log.push("undo a"));
    const outer = txn.savepoint();
    const inner = txn.savepoint();
    txn.onCancel(() => log.push("undo b"));
    txn.rollbackTo(inner);
    txn.rollbackTo(outer);
    expect(calls).toEqual(["savepoint 0", "savepoint 1", "rollbackTo 1", "rollbackTo 0"]);
    expect(log).toEqual(["undo b"]);
    await txn.commit();
    expect(calls.at(-1)).toBe("commit");
    expect(log).toEqual(["undo b"]);
  });

  it("a failed commit reverts the in-memory changes, skips onCommit and rethrows", async () => {
    const { kv } = fakeKv(true);
    const log: string[] = [];
    const txn = new Transaction(kv);
    txn.onCancel(() => log.push("undo"));
    txn.onCommit(() => log.push("committed"));
    await expect(txn.commit()).rejects.toThrow("conflict");
    expect(log).toEqual(["undo"]);
    expect(txn.closed).toBe(true);
  });

  it("runs onCommit after a successful commit, never after cancel", async () => {
    const log: string[] = [];
    const ok = new Transaction(fakeKv().kv);
    ok.onCommit(() => log.push("ok"));
    await ok.commit();
    const no = new Transaction(fakeKv().kv);
    no.onCommit(() => log.push("no"));
    await no.cancel();
    expect(log).toEqual(["ok"]);
  });
});
