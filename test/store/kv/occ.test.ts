// store/kv/occ: backward validation, and commits recorded before they are published (the file: writer thread).

import { describe, expect, it } from "vitest";
import { CommitLog } from "../../../src/store/kv/occ.js";

const writes = (...keys: string[]) => ({ ranges: [], deletes: [], sets: keys.map((k) => [k, new Uint8Array()] as const) });
const reads = (...keys: string[]) => ({ keys: new Set(keys), ranges: [] });

describe("CommitLog", () => {
  it("fails a transaction that read a key a later commit wrote", () => {
    const log = new CommitLog();
    const a = log.begin();
    const b = log.begin();
    log.committed(a, writes("k"));
    expect(() => log.validate(b, writes("x"), reads("k"))).toThrow(/This transaction can be retried/);
  });

  it("of two transactions with one start number, the first to end leaves the other's commits to validate against", () => {
    const log = new CommitLog();
    const [a, b, c] = [log.begin(), log.begin(), log.begin()];
    expect([a, b]).toEqual([c, c]);
    log.committed(c, writes("k"));
    log.end(a);
    expect(() => log.validate(b, writes("x"), reads("k"))).toThrow(/This transaction can be retried/);
    log.end(b);
    expect(() => log.validate(log.begin(), writes("x"), reads("k"))).not.toThrow();
  });

  it("two blind writes of one key do not conflict (the later commit is the serial order); a read of that key does", () => {
    const log = new CommitLog();
    const a = log.begin();
    const b = log.begin();
    const c = log.begin();
    log.committed(a, writes("heartbeat"));
    expect(() => log.validate(b, writes("heartbeat"), reads())).not.toThrow();
    expect(() => log.validate(c, writes("heartbeat"), reads("heartbeat"))).toThrow(/This transaction can be retried/);
  });

  it("a transaction begun after a commit was recorded but before it was published is validated against it", () => {
    const log = new CommitLog();
    const a = log.begin();
    log.committed(a, writes("k"), false);
    const b = log.begin();
    expect(() => log.validate(b, writes("x"), reads("k"))).toThrow(/This transaction can be retried/);
    log.publish();
    const c = log.begin();
    expect(() => log.validate(c, writes("x"), reads("k"))).not.toThrow();
  });

  it("keeps an unpublished commit for transactions yet to begin even when none is open", () => {
    const log = new CommitLog();
    log.committed(log.begin(), writes("k"), false);
    const b = log.begin();
    expect(() => log.validate(b, writes("y"), reads("k"))).toThrow(/This transaction can be retried/);
  });
});
