// store/kv/memory: a commit writes the published tree in place only when the committing transaction is its one open
// reader; every snapshot another transaction still reads stays as it was.

import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/kv/memory.js";
import type { KvTransaction } from "../../../src/store/kv/types.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const k = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : dec.decode(b));

async function put(store: MemoryStore, key: string, value: string): Promise<void> {
  const txn = await store.begin("write");
  txn.set(k(key), k(value));
  await txn.commit();
}

async function all(txn: KvTransaction): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of txn.scan({ start: k("a"), end: k("z") }, { batch: 1 })) for (const [key, val] of batch) out.push(`${dec.decode(key)}=${dec.decode(val)}`);
  return out;
}

describe("memory store: commits in place or on a copy", () => {
  it("a reader open across several commits keeps its snapshot, the first of them copied and the next ones in place", async () => {
    const store = new MemoryStore();
    await put(store, "a", "1");
    const reader = await store.begin("read");
    await put(store, "a", "2");
    await put(store, "b", "2");
    await put(store, "a", "3");
    expect(text(await reader.get(k("a")))).toBe("1");
    expect(await all(reader)).toEqual(["a=1"]);
    await reader.cancel();
    const after = await store.begin("read");
    expect(await all(after)).toEqual(["a=3", "b=2"]);
    await after.cancel();
  });

  it("a write transaction begun before another's commit still reads the tree it began on", async () => {
    const store = new MemoryStore();
    await put(store, "a", "1");
    const early = await store.begin("write");
    await put(store, "b", "2");
    // `early` read an older tree: a reader of the new one must not see the next commit, though it is its only reader
    const reader = await store.begin("read");
    early.set(k("c"), k("early"));
    await early.commit();
    expect(await all(reader)).toEqual(["a=1", "b=2"]);
    await reader.cancel();
    const after = await store.begin("read");
    expect(await all(after)).toEqual(["a=1", "b=2", "c=early"]);
    await after.cancel();
  });

  it("a scan suspended in an open reader goes on over its snapshot while another transaction commits", async () => {
    const store = new MemoryStore();
    for (const key of ["a", "b", "c", "d"]) await put(store, key, "old");
    const reader = await store.begin("read");
    const seen: string[] = [];
    for await (const batch of reader.scan({ start: k("a"), end: k("z") }, { batch: 1 })) {
      for (const [key, val] of batch) seen.push(`${dec.decode(key)}=${dec.decode(val)}`);
      if (seen.length === 1) {
        const writer = await store.begin("write");
        writer.set(k("c"), k("new"));
        writer.delete(k("b"));
        writer.set(k("bb"), k("new"));
        await writer.commit();
      }
    }
    expect(seen).toEqual(["a=old", "b=old", "c=old", "d=old"]);
    await reader.cancel();
  });

  it("a cancelled or failed writer no longer counts as a reader; a later lone writer's commits are seen", async () => {
    const store = new MemoryStore();
    const cancelled = await store.begin("write");
    cancelled.set(k("x"), k("never"));
    await cancelled.cancel();
    const [a, b] = [await store.begin("write"), await store.begin("write")];
    await a.get(k("n"));
    await b.get(k("n"));
    a.set(k("n"), k("a"));
    b.set(k("n"), k("b"));
    await a.commit();
    await expect(b.commit()).rejects.toThrow();
    await put(store, "n", "c");
    await put(store, "m", "d");
    const reader = await store.begin("read");
    expect(await all(reader)).toEqual(["m=d", "n=c"]);
    await reader.cancel();
  });
});
