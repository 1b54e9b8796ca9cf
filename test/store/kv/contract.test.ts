// store/kv/: the one contract every backend keeps — the same suite on memory, file: and postgres:// (when available).

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUERY_MESSAGES } from "../../../src/errors/catalogue.js";
import { prefixRange } from "../../../src/store/kv/bytes.js";
import type { Entry, KvStore, KvTransaction } from "../../../src/store/kv/types.js";
import { BACKENDS } from "./backends.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const k = (s: string): Uint8Array => enc.encode(s);
const v = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : dec.decode(b));
const RETRYABLE = QUERY_MESSAGES.TxRetryable();

async function collect(txn: KvTransaction, start: string, end: string, opts = {}): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const batch of txn.scan({ start: k(start), end: k(end) }, opts)) for (const [key, val] of batch) out.push([dec.decode(key), dec.decode(val)]);
  return out;
}

async function batches(txn: KvTransaction, start: string, end: string, opts = {}): Promise<number[]> {
  const sizes: number[] = [];
  for await (const batch of txn.scan({ start: k(start), end: k(end) }, opts)) sizes.push(batch.length);
  return sizes;
}

async function put(store: KvStore, entries: Record<string, string>): Promise<void> {
  const txn = await store.begin("write");
  for (const [key, val] of Object.entries(entries)) txn.set(k(key), v(val));
  await txn.commit();
}

async function increment(store: KvStore, key: string): Promise<void> {
  const txn = await store.begin("write");
  const n = Number(text(await txn.get(k(key))) ?? "0");
  txn.set(k(key), v(String(n + 1)));
  await txn.commit();
}

async function retried(run: () => Promise<void>): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      await run();
      return attempt;
    } catch (e) {
      if ((e as Error).message !== RETRYABLE) throw e;
    }
  }
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(`kv contract: ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ""}`, () => {
    let store: KvStore;
    let n = 0;
    // each test works under its own prefix, so one store serves the whole suite
    let p = "";
    beforeAll(async () => {
      store = await backend.open();
    });
    afterAll(async () => {
      await store?.close();
      await backend.cleanup?.();
    });
    const fresh = (): string => (p = `t${++n}/`);

    it("reads its own writes: get, getMany, delete, and commits them for later transactions", async () => {
      fresh();
      await put(store, { [`${p}a`]: "1", [`${p}b`]: "2" });
      const txn = await store.begin("write");
      txn.set(k(`${p}c`), v("3"));
      txn.delete(k(`${p}a`));
      txn.set(k(`${p}b`), v("22"));
      expect(text(await txn.get(k(`${p}a`)))).toBeUndefined();
      expect((await txn.getMany([k(`${p}a`), k(`${p}b`), k(`${p}c`), k(`${p}z`)])).map(text)).toEqual([undefined, "22", "3", undefined]);
      await txn.commit();
      const after = await store.begin("read");
      expect((await after.getMany([k(`${p}a`), k(`${p}b`), k(`${p}c`)])).map(text)).toEqual([undefined, "22", "3"]);
      await after.cancel();
    });

    it("reads one snapshot: a commit after begin is not seen", async () => {
      fresh();
      await put(store, { [`${p}a`]: "1" });
      const reader = await store.begin("read");
      expect(text(await reader.get(k(`${p}a`)))).toBe("1");
      await put(store, { [`${p}a`]: "2", [`${p}b`]: "2" });
      expect(text(await reader.get(k(`${p}a`)))).toBe("1");
      expect(await collect(reader, p, `${p}~`)).toEqual([[`${p}a`, "1"]]);
      await reader.cancel();
    });

    it("scans merge the buffer with committed data, forward and reverse, with limit and batches", async () => {
      fresh();
      await put(store, { [`${p}a`]: "1", [`${p}c`]: "3", [`${p}e`]: "5", [`${p}g`]: "7", x: "outside" });
      const txn = await store.begin("write");
      txn.set(k(`${p}b`), v("2"));
      txn.delete(k(`${p}c`));
      txn.set(k(`${p}e`), v("55"));
      txn.set(k(`${p}h`), v("8"));
      const all = [[`${p}a`, "1"], [`${p}b`, "2"], [`${p}e`, "55"], [`${p}g`, "7"], [`${p}h`, "8"]];
      expect(await collect(txn, p, `${p}~`)).toEqual(all);
      expect(await collect(txn, p, `${p}~`, { reverse: true })).toEqual([...all].reverse());
      expect(await collect(txn, p, `${p}~`, { limit: 3 })).toEqual(all.slice(0, 3));
      expect(await collect(txn, p, `${p}~`, { reverse: true, limit: 2 })).toEqual([[`${p}h`, "8"], [`${p}g`, "7"]]);
      expect(await collect(txn, `${p}b`, `${p}g`)).toEqual(all.slice(1, 3));
      expect(await batches(txn, p, `${p}~`, { batch: 2 })).toEqual([2, 2, 1]);
      expect(await collect(txn, `${p}c`, `${p}c`)).toEqual([]);
      await txn.cancel();
    });

    it("scans many committed keys in order across backend batches", async () => {
      fresh();
      const entries: Record<string, string> = {};
      for (let i = 0; i < 2500; i++) entries[`${p}${String(i).padStart(5, "0")}`] = String(i);
      await put(store, entries);
      const txn = await store.begin("read");
      const got = await collect(txn, p, `${p}~`, { batch: 700 });
      expect(got.length).toBe(2500);
      expect(got[1234]).toEqual([`${p}01234`, "1234"]);
      const back = await collect(txn, p, `${p}~`, { reverse: true, limit: 1001 });
      expect(back.length).toBe(1001);
      expect(back[0]).toEqual([`${p}02499`, "2499"]);
      expect(back[1000]).toEqual([`${p}01499`, "1499"]);
      await txn.cancel();
    });

    it("deleteRange hides committed and buffered keys in the range; later sets show again", async () => {
      fresh();
      await put(store, { [`${p}a`]: "1", [`${p}b`]: "2", [`${p}c`]: "3", [`${p}d`]: "4" });
      const txn = await store.begin("write");
      txn.set(k(`${p}bb`), v("x"));
      txn.deleteRange({ start: k(`${p}b`), end: k(`${p}d`) });
      expect(text(await txn.get(k(`${p}b`)))).toBeUndefined();
      expect(text(await txn.get(k(`${p}bb`)))).toBeUndefined();
      txn.set(k(`${p}c`), v("33"));
      expect(await collect(txn, p, `${p}~`)).toEqual([[`${p}a`, "1"], [`${p}c`, "33"], [`${p}d`, "4"]]);
      expect(await collect(txn, p, `${p}~`, { reverse: true })).toEqual([[`${p}d`, "4"], [`${p}c`, "33"], [`${p}a`, "1"]]);
      await txn.commit();
      const after = await store.begin("read");
      expect(await collect(after, p, `${p}~`)).toEqual([[`${p}a`, "1"], [`${p}c`, "33"], [`${p}d`, "4"]]);
      await after.cancel();
    });

    it("rolls back to a savepoint, which stays usable; cancel discards everything", async () => {
      fresh();
      const txn = await store.begin("write");
      txn.set(k(`${p}a`), v("1"));
      const mark = txn.savepoint();
      txn.set(k(`${p}a`), v("2"));
      txn.set(k(`${p}b`), v("2"));
      txn.deleteRange(prefixRange(k(p)));
      txn.rollbackTo(mark);
      expect(await collect(txn, p, `${p}~`)).toEqual([[`${p}a`, "1"]]);
      txn.set(k(`${p}c`), v("3"));
      txn.rollbackTo(mark);
      expect(await collect(txn, p, `${p}~`)).toEqual([[`${p}a`, "1"]]);
      await txn.commit();
      const second = await store.begin("write");
      second.set(k(`${p}z`), v("9"));
      second.delete(k(`${p}a`));
      await second.cancel();
      const after = await store.begin("read");
      expect(await collect(after, p, `${p}~`)).toEqual([[`${p}a`, "1"]]);
      await after.cancel();
    });

    it("refuses use after commit or cancel, and writes in a read transaction", async () => {
      fresh();
      const txn = await store.begin("write");
      await txn.commit();
      expect(txn.closed).toBe(true);
      await expect(txn.get(k(`${p}a`))).rejects.toThrow(QUERY_MESSAGES.TxFinished());
      expect(() => txn.set(k(`${p}a`), v("1"))).toThrow(QUERY_MESSAGES.TxFinished());
      const reader = await store.begin("read");
      expect(() => reader.set(k(`${p}a`), v("1"))).toThrow(QUERY_MESSAGES.TxReadonly());
      await reader.cancel();
      await reader.cancel();
    });

    it("two concurrent read-modify-writes of one counter: exactly one commits, the other may retry", async () => {
      fresh();
      await put(store, { [`${p}n`]: "0" });
      const [a, b] = [await store.begin("write"), await store.begin("write")];
      const na = Number(text(await a.get(k(`${p}n`))));
      const nb = Number(text(await b.get(k(`${p}n`))));
      a.set(k(`${p}n`), v(String(na + 1)));
      b.set(k(`${p}n`), v(String(nb + 1)));
      const results = await Promise.allSettled([a.commit(), b.commit()]);
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect((lost.reason as Error).message).toBe(RETRYABLE);
      await increment(store, `${p}n`);
      const after = await store.begin("read");
      expect(text(await after.get(k(`${p}n`)))).toBe("2");
      await after.cancel();
    });

    it("scanNow (the synchronous fast path) reads what scan reads, or declines when the range has buffered writes", async () => {
      fresh();
      await put(store, { [`${p}a`]: "1", [`${p}b`]: "2", [`${p}c`]: "3" });
      const txn = await store.begin("write");
      const now = (start: string, end: string) => txn.scanNow?.({ start: k(start), end: k(end) })?.map(([key, val]) => [dec.decode(key), dec.decode(val)]);
      const direct = now(`${p}a`, `${p}c`);
      if (direct !== undefined) expect(direct).toEqual([[`${p}a`, "1"], [`${p}b`, "2"]]);
      txn.set(k(`${p}bb`), v("4"));
      expect(now(`${p}a`, `${p}c`)).toBeUndefined();
      txn.deleteRange({ start: k(`${p}x`), end: k(`${p}z`) });
      expect(now(`${p}y`, `${p}zz`)).toBeUndefined();
      // outside the written key and range it still answers (where the backend has a synchronous snapshot)
      if (direct !== undefined) expect(now(`${p}c`, `${p}d`)).toEqual([[`${p}c`, "3"]]);
      await txn.cancel();
    });

    it("write skew through scanNow: of two 'insert if the range is empty', exactly one commits", async () => {
      fresh();
      const [a, b] = [await store.begin("write"), await store.begin("write")];
      for (const [txn, name] of [[a, "x1"], [b, "x2"]] as const) {
        const seen = txn.scanNow?.({ start: k(p), end: k(`${p}~`) }) ?? (await collect(txn, p, `${p}~`));
        if (seen.length === 0) txn.set(k(`${p}${name}`), v("1"));
      }
      const results = await Promise.allSettled([a.commit(), b.commit()]);
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
    });

    it("write skew through a range scan: of two 'insert if the range is empty', exactly one commits", async () => {
      fresh();
      const [a, b] = [await store.begin("write"), await store.begin("write")];
      for (const [txn, name] of [[a, "x1"], [b, "x2"]] as const) {
        if ((await collect(txn, p, `${p}~`)).length === 0) txn.set(k(`${p}${name}`), v("1"));
      }
      const results = await Promise.allSettled([a.commit(), b.commit()]);
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      const after = await store.begin("read");
      expect((await collect(after, p, `${p}~`)).length).toBe(1);
      await after.cancel();
    });

    it("loses no update under concurrent retried increments", async () => {
      fresh();
      const workers = 6;
      const each = 5;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          for (let i = 0; i < each; i++) await retried(() => increment(store, `${p}n`));
        }),
      );
      const after = await store.begin("read");
      expect(text(await after.get(k(`${p}n`)))).toBe(String(workers * each));
      await after.cancel();
    });

    it("keeps an invariant under concurrent retried transfers (serializable read-modify-write of two keys)", async () => {
      fresh();
      const accounts = 5;
      await put(store, Object.fromEntries(Array.from({ length: accounts }, (_, i) => [`${p}acct${i}`, "100"])));
      const transfer = async (from: number, to: number): Promise<void> => {
        const txn = await store.begin("write");
        const [a, b] = (await txn.getMany([k(`${p}acct${from}`), k(`${p}acct${to}`)])).map((x) => Number(text(x)));
        txn.set(k(`${p}acct${from}`), v(String(a! - 7)));
        txn.set(k(`${p}acct${to}`), v(String(b! + 7)));
        await txn.commit();
      };
      let seed = 7;
      const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % accounts;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 8; i++) {
            const from = next();
            const to = (from + 1 + (next() % (accounts - 1))) % accounts;
            await retried(() => transfer(from, to));
          }
        }),
      );
      const reader = await store.begin("read");
      const all = await collect(reader, `${p}acct`, `${p}acct~`);
      await reader.cancel();
      expect(all.reduce((sum, [, val]) => sum + Number(val), 0)).toBe(accounts * 100);
    });

    it.skipIf(backend.openPeer === undefined)("two nodes on one database see each other's commits and lose no update", async () => {
      fresh();
      const peer = await backend.openPeer!();
      try {
        await put(store, { [`${p}from-a`]: "1" });
        const onB = await peer.begin("read");
        expect(text(await onB.get(k(`${p}from-a`)))).toBe("1");
        await onB.cancel();
        await Promise.all(
          [store, peer, store, peer].map(async (node) => {
            for (let i = 0; i < 5; i++) await retried(() => increment(node, `${p}n`));
          }),
        );
        const after = await store.begin("read");
        expect(text(await after.get(k(`${p}n`)))).toBe("20");
        await after.cancel();
      } finally {
        await peer.close();
      }
    });

    it("matches a plain ordered map over random operation sequences", async () => {
      const key = fc.constantFrom("a", "b", "c", "d", "e", "f");
      const op = fc.oneof(
        fc.record({ op: fc.constant("set" as const), key, value: fc.string({ maxLength: 3 }) }),
        fc.record({ op: fc.constant("delete" as const), key }),
        fc.record({ op: fc.constant("deleteRange" as const), key, to: key }),
        fc.record({ op: fc.constant("get" as const), key }),
        fc.record({ op: fc.constant("scan" as const), key, to: key, reverse: fc.boolean(), limit: fc.integer({ min: 1, max: 4 }) }),
        fc.record({ op: fc.constant("savepoint" as const) }),
        fc.record({ op: fc.constant("rollback" as const) }),
        fc.record({ op: fc.constant("commit" as const), cancel: fc.boolean() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
          fresh();
          let committed = new Map<string, string>();
          let model = new Map<string, string>();
          const marks: Map<string, string>[] = [];
          let txn = await store.begin("write");
          const full = (s: string): string => `${p}${s}`;
          for (const o of ops) {
            switch (o.op) {
              case "set":
                txn.set(k(full(o.key)), v(o.value));
                model.set(o.key, o.value);
                break;
              case "delete":
                txn.delete(k(full(o.key)));
                model.delete(o.key);
                break;
              case "deleteRange":
                txn.deleteRange({ start: k(full(o.key)), end: k(full(o.to)) });
                for (const m of [...model.keys()]) if (m >= o.key && m < o.to) model.delete(m);
                break;
              case "get":
                expect(text(await txn.get(k(full(o.key))))).toBe(model.get(o.key));
                break;
              case "scan": {
                let want = [...model.entries()].filter(([m]) => m >= o.key && m < o.to).sort(([x], [y]) => (x < y ? -1 : 1));
                if (o.reverse) want.reverse();
                want = want.slice(0, o.limit);
                const got = await collect(txn, full(o.key), full(o.to), { reverse: o.reverse, limit: o.limit, batch: 2 });
                expect(got).toEqual(want.map(([m, val]) => [full(m), val]));
                break;
              }
              case "savepoint":
                marks.push(new Map(model));
                txn.savepoint();
                break;
              case "rollback":
                if (marks.length > 0) {
                  txn.rollbackTo(marks.length - 1);
                  model = new Map(marks[marks.length - 1]);
                }
                break;
              case "commit":
                if (o.cancel) {
                  await txn.cancel();
                  model = new Map(committed);
                } else {
                  await txn.commit();
                  committed = new Map(model);
                }
                marks.length = 0;
                txn = await store.begin("write");
                break;
            }
          }
          await txn.commit();
          const reader = await store.begin("read");
          const stored: Entry[] = [];
          for await (const batch of reader.scan(prefixRange(k(p)))) stored.push(...batch);
          await reader.cancel();
          const want = [...model.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([m, val]) => [full(m), val]);
          expect(stored.map(([key, val]) => [dec.decode(key), dec.decode(val)])).toEqual(want);
        }),
        { numRuns: backend.runs },
      );
    });
  });
}
