// store/kv/file: durability (every acknowledged commit survives kill -9 and a reopen), one owner per folder.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_MESSAGES } from "../../../src/errors/catalogue.js";
import { prefixRange } from "../../../src/store/kv/bytes.js";
import { FileStore } from "../../../src/store/kv/file.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "surql-kv-file-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function readAll(store: FileStore, prefix: string): Promise<string[]> {
  const txn = await store.begin("read");
  const out = await scanKeys(txn, prefix);
  await txn.cancel();
  return out;
}

async function scanKeys(txn: Awaited<ReturnType<FileStore["begin"]>>, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of txn.scan(prefixRange(enc.encode(prefix)))) for (const [k] of batch) out.push(dec.decode(k));
  return out;
}

describe("file: backend", () => {
  it("keeps committed data across close and reopen", async () => {
    const dir = tempDir();
    const first = await FileStore.open(dir);
    const txn = await first.begin("write");
    txn.set(enc.encode("k"), enc.encode("v"));
    await txn.commit();
    await first.close();
    const again = await FileStore.open(dir);
    const reader = await again.begin("read");
    expect(dec.decode((await reader.get(enc.encode("k")))!)).toBe("v");
    await reader.cancel();
    await again.close();
  });

  it("transactions begun with no write in between share a snapshot; one ending leaves the others reading it", async () => {
    const dir = tempDir();
    const store = await FileStore.open(dir);
    const put = async (v: string): Promise<void> => {
      const w = await store.begin("write");
      w.set(enc.encode("k"), enc.encode(v));
      await w.commit();
    };
    const get = async (txn: { get(k: Uint8Array): Promise<Uint8Array | undefined> }): Promise<string> => dec.decode((await txn.get(enc.encode("k")))!);
    await put("1");
    const [r1, r2, w1] = [await store.begin("read"), await store.begin("read"), await store.begin("write")];
    await put("2");
    const r3 = await store.begin("read");
    await r1.cancel();
    expect([await get(r2), await get(w1), await get(r3)]).toEqual(["1", "1", "2"]);
    await put("3");
    expect([await get(r2), await get(r3)]).toEqual(["1", "2"]);
    await Promise.all([r2.cancel(), w1.cancel(), r3.cancel()]);
    const r4 = await store.begin("read");
    expect(await get(r4)).toBe("3");
    await r4.cancel();
    await store.close();
  });

  it("a transaction begun while a commit is on its way to disk reads without it and is validated against it", async () => {
    const store = await FileStore.open(tempDir());
    const k = enc.encode("k");
    const w1 = await store.begin("write");
    w1.set(k, enc.encode("1"));
    const first = w1.commit();
    // the group has left for the writer thread: the commit is validated, not yet written
    await new Promise((resolve) => setImmediate(resolve));
    const w2 = await store.begin("write");
    expect(await w2.get(k)).toBeUndefined();
    w2.set(enc.encode("other"), enc.encode("x"));
    await first;
    await expect(w2.commit()).rejects.toThrow(/This transaction can be retried/);
    const r = await store.begin("read");
    expect(dec.decode((await r.get(k))!)).toBe("1");
    expect(await r.get(enc.encode("other"))).toBeUndefined();
    await r.cancel();
    await store.close();
  });

  it("keeps the current snapshot open between transactions and ends it once a write is published: a remembered range never hides a commit", async () => {
    const store = await FileStore.open(tempDir());
    const internals = store as unknown as { shared: { users: number } | undefined };
    const put = async (k: string): Promise<void> => {
      const w = await store.begin("write");
      w.set(enc.encode(k), enc.encode("v"));
      await w.commit();
    };
    await put("idx/a");
    expect(await readAll(store, "idx/")).toEqual(["idx/a"]);
    // idle, still open: the next transaction takes it with what it remembered
    expect(internals.shared?.users).toBe(0);
    const before = await store.begin("read");
    expect(await scanKeys(before, "idx/")).toEqual(["idx/a"]);
    await put("idx/b");
    // the old snapshot's reader still sees its own time; a new transaction the commit
    expect(await scanKeys(before, "idx/")).toEqual(["idx/a"]);
    await before.cancel();
    expect(internals.shared).toBeUndefined();
    expect(await readAll(store, "idx/")).toEqual(["idx/a", "idx/b"]);
    // a reverse read of the same range is its own entry
    const r = await store.begin("read");
    const back: string[] = [];
    for await (const batch of r.scan(prefixRange(enc.encode("idx/")), { reverse: true })) for (const [k] of batch) back.push(dec.decode(k));
    expect(back).toEqual(["idx/b", "idx/a"]);
    await r.cancel();
    await store.close();
  });

  it("releases the read snapshot of transactions dropped without commit or cancel, once collected", () => {
    const dir = tempDir();
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "fixtures/dropped.ts"), dir]);
    expect(JSON.parse(out.toString())).toEqual({ held: true, users: 0, open: true });
  }, 60_000);

  it("refuses a second owner of the folder while the first lives, and takes over a dead owner's lock", async () => {
    const dir = tempDir();
    const store = await FileStore.open(dir);
    await expect(FileStore.open(dir)).rejects.toThrow(STORAGE_MESSAGES.StoreLocked(dir, process.pid));
    await store.close();
    writeFileSync(join(dir, "LOCK"), "999999999");
    const next = await FileStore.open(dir);
    await next.close();
  });

  it("loses no acknowledged commit when its process is killed with SIGKILL mid-stream", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "fixtures/commit-loop.ts"), dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let acked = 0;
    let pending = "";
    const killed = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    // kill at a random moment after the first 50 acknowledged commits
    const killAfter = 50 + Math.floor(Math.random() * 400);
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) acked = Math.max(acked, Number(line.slice(4)));
      if (acked >= killAfter) child.kill("SIGKILL");
    });
    await killed;
    expect(acked).toBeGreaterThanOrEqual(killAfter);
    const store = await FileStore.open(dir);
    const a = await readAll(store, "a/");
    const b = await readAll(store, "b/");
    const reader = await store.begin("read");
    const n = Number(dec.decode((await reader.get(enc.encode("n")))!));
    await reader.cancel();
    await store.close();
    // every acknowledged commit is there, whole; at most the one in flight went further
    expect(n).toBeGreaterThanOrEqual(acked);
    expect(a.length).toBe(n);
    expect(b.length).toBe(n);
    expect(a[acked - 1]).toBe(`a/${String(acked).padStart(8, "0")}`);
  }, 60_000);
});
