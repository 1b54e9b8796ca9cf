// Benchmark: the key-value backends (memory, file:, postgres://) — commit latency p50/p99 and commits/s, point
// gets, a 10k-key scan. PostgreSQL runs as a throwaway cluster with fsync on, when installed.
// Run: npm run bench (all) or node --import tsx bench/kv.ts

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { FileStore } from "../src/store/kv/file.js";
import { prefixRange } from "../src/store/kv/index.js";
import { MemoryStore } from "../src/store/kv/memory.js";
import { PostgresStore } from "../src/store/kv/postgres.js";
import type { KvStore } from "../src/store/kv/types.js";
import { postgresSkipReason, startPostgres } from "../test/helpers/postgres.js";

const enc = new TextEncoder();
const key = (prefix: string, i: number): Uint8Array => enc.encode(`${prefix}/${String(i).padStart(8, "0")}`);
const VALUE = new Uint8Array(200).fill(7);

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits).padStart(10);

/** Sequential one-key commits for about `ms`: latency p50 / p99 and commits per second. */
async function commits(store: KvStore, ms: number): Promise<void> {
  const times: number[] = [];
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  for (let i = 0; performance.now() - start < ms; i++) {
    const t = performance.now();
    const txn = await store.begin("write");
    txn.set(key("c", i), VALUE);
    await txn.commit();
    times.push(performance.now() - t);
  }
  const total = performance.now() - start;
  // the event loop's busy time per commit (an fsync on the loop would count here)
  const busy = performance.eventLoopUtilization(elu).active / times.length;
  times.sort((a, b) => a - b);
  console.log(
    `  commit, 1 key of 200 B        p50 ${fmt(quantile(times, 0.5) * 1000)} µs   p99 ${fmt(quantile(times, 0.99) * 1000)} µs   ${fmt(times.length / (total / 1000))} commits/s   event loop busy ${fmt(busy * 1000)} µs/commit`,
  );
}

/** `clients` concurrent writers on distinct keys: total commits per second. */
async function concurrentCommits(store: KvStore, clients: number, ms: number): Promise<void> {
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; performance.now() - start < ms; i++) {
        const txn = await store.begin("write");
        txn.set(key(`w${c}`, i), VALUE);
        await txn.commit();
        n++;
      }
    }),
  );
  console.log(`  commit, ${clients} concurrent writers      ${fmt(n / ((performance.now() - start) / 1000))} commits/s`);
}

async function fill(store: KvStore, count: number): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const txn = await store.begin("write");
    for (let i = from; i < Math.min(count, from + 1000); i++) txn.set(key("s", i), VALUE);
    await txn.commit();
  }
}

async function reads(store: KvStore, ms: number): Promise<void> {
  await fill(store, 10_000);
  // point gets inside one read transaction
  let txn = await store.begin("read");
  let n = 0;
  let start = performance.now();
  while (performance.now() - start < ms) await txn.get(key("s", n++ % 10_000));
  console.log(`  point get (open transaction)  ${fmt(((performance.now() - start) / n) * 1000, 2)} µs/op`);
  await txn.cancel();
  // begin + get + cancel
  n = 0;
  start = performance.now();
  while (performance.now() - start < ms) {
    const t = await store.begin("read");
    await t.get(key("s", n++ % 10_000));
    await t.cancel();
  }
  console.log(`  begin + point get + end       ${fmt(((performance.now() - start) / n) * 1000, 2)} µs/op`);
  // full scans of the 10k keys
  txn = await store.begin("read");
  n = 0;
  start = performance.now();
  while (performance.now() - start < ms) {
    let rows = 0;
    for await (const batch of txn.scan(prefixRange(enc.encode("s/")))) rows += batch.length;
    if (rows !== 10_000) throw new Error(`scanned ${rows} rows`);
    n++;
  }
  console.log(`  scan 10,000 keys              ${fmt((performance.now() - start) / n, 2)} ms/scan`);
  await txn.cancel();
}

async function run(name: string, open: () => Promise<KvStore>, done: () => Promise<void> = async () => {}): Promise<void> {
  console.log(name);
  const store = await open();
  try {
    await commits(store, 2000);
    await concurrentCommits(store, 8, 2000);
    await reads(store, 1500);
  } finally {
    await store.close();
    await done();
  }
}

export async function benchKv(): Promise<void> {
  console.log(`kv benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}`);
  await run("memory", async () => new MemoryStore());
  const dir = mkdtempSync(join(os.tmpdir(), "surql-bench-kv-"));
  await run("file: (SQLite WAL, synchronous=FULL)", () => FileStore.open(dir), async () => rmSync(dir, { recursive: true, force: true }));
  const skip = postgresSkipReason();
  if (skip !== undefined) {
    console.log(`postgres: skipped (${skip})`);
    return;
  }
  const cluster = await startPostgres({ fsync: true });
  await run("postgres:// (local throwaway cluster, fsync on, SERIALIZABLE)", () => PostgresStore.open(cluster.url), () => cluster.stop());
}

if (import.meta.url === `file://${process.argv[1]}`) await benchKv();
