// Benchmark: record signin, and signup + signin, from 1 and 8 concurrent clients (argon2 on libuv's pool, no global
// query queue), on memory and file:; the same harness on bare argon2 verifies gives the machine's own ceiling. Rounds
// of 1 and 8 clients alternate, so a neighbour's load hits both sides of a ratio alike. Also: main-thread CPU per op
// (from /proc, Linux) and the latency of another session's `RETURN 1` while 8 signins are in flight.
// Run: npm run bench (all) or node --import tsx bench/concurrency.ts [rounds] [ms per side]

import argon2 from "argon2";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { SurqlAuth } from "../src/index.js";
import { ARGON2_PARAMS } from "../src/exec/functions/hashing.js";
import { openStore } from "../src/store/kv/open.js";

const CREDS = { NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "pw-ann" };
const ROUNDS = Number(process.argv[2] ?? 5);
const SIDE_MS = Number(process.argv[3] ?? 1500);

/** The main thread's time on a CPU and waiting for one (ns), from the scheduler's per-thread counters. */
function mainThread(): { run: number; wait: number } {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return { run: run!, wait: wait! };
  } catch {
    return { run: NaN, wait: NaN };
  }
}

interface Side {
  readonly rate: number;
  /** Main-thread CPU per op (ms). */
  readonly main: number;
  /** Process CPU per op, every thread (ms). */
  readonly cpu: number;
}

/** `clients` loops running `op` for `ms`; the rate counts every op finished, over the time until the last one. */
async function side(clients: number, ms: number, op: () => Promise<unknown>): Promise<Side> {
  let n = 0;
  const t0 = performance.now();
  const m0 = mainThread();
  const c0 = process.cpuUsage();
  const end = t0 + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await op();
        n++;
      }
    }),
  );
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const m1 = mainThread();
  return { rate: n / (wall / 1000), main: (m1.run - m0.run) / 1e6 / n, cpu: (c.user + c.system) / 1000 / n };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Alternating rounds of 1 and 8 clients; prints the medians and the median and best per-round ratio. */
async function scaling(name: string, op: () => Promise<unknown>): Promise<void> {
  await side(1, 300, op); // warm-up
  const one: Side[] = [];
  const eight: Side[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    one.push(await side(1, SIDE_MS, op));
    eight.push(await side(8, SIDE_MS, op));
  }
  const ratios = one.map((s, i) => eight[i]!.rate / s.rate);
  const f = (x: number, d = 1) => x.toFixed(d);
  console.log(
    `${name.padEnd(30)} 1 client ${f(median(one.map((s) => s.rate))).padStart(5)}/s  8 clients ${f(median(eight.map((s) => s.rate))).padStart(5)}/s  ` +
      `ratio median ${f(median(ratios), 2)} best ${f(Math.max(...ratios), 2)}  ` +
      `main thread ${f(median(one.map((s) => s.main)), 2)} / ${f(median(eight.map((s) => s.main)), 2)} ms/op  ` +
      `process CPU ${f(median(one.map((s) => s.cpu)), 1)} / ${f(median(eight.map((s) => s.cpu)), 1)} ms/op`,
  );
}

async function oneBackend(name: string, spec: string): Promise<void> {
  const storage = await openStore(spec);
  // one user signing in over and over from one place: the throttle would refuse it
  const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"], storage, throttle: { enabled: false } });
  await db.connect().signup({ ...CREDS, name: "Ann" });
  await scaling(`record signin, ${name}`, () => db.connect().signin(CREDS));
  let next = 0;
  await scaling(`signup + signin, ${name}`, async () => {
    const creds = { ...CREDS, email: `u${next++}@example.com` };
    await db.connect().signup({ ...creds, name: "U" });
    await db.connect().signin(creds);
  });
  const root = db.connect();
  await root.signin({ user: "root", pass: "root" });
  const lat: number[] = [];
  for (let i = 0; i < 20; i++) {
    const flood = Array.from({ length: 8 }, () => db.connect().signin(CREDS));
    const t = performance.now();
    await root.query("RETURN 1");
    lat.push(performance.now() - t);
    await Promise.all(flood);
  }
  lat.sort((a, b) => a - b);
  console.log(`${`RETURN 1 behind 8 signins, ${name}`.padEnd(30)} median ${lat[10]!.toFixed(2)} ms   max ${lat[19]!.toFixed(2)} ms`);
  await storage.close();
}

export async function benchConcurrency(): Promise<void> {
  const pool = process.env.UV_THREADPOOL_SIZE ?? "4 (default)";
  console.log(`concurrency benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}, libuv pool ${pool}, load ${os.loadavg()[0]!.toFixed(1)}; ${ROUNDS} rounds of ${SIDE_MS} ms per side`);
  // the ceiling: argon2 verifies alone (SurrealDB's parameters), nothing else on the main thread
  const hash = await argon2.hash("pw-ann", { type: argon2.argon2id, ...ARGON2_PARAMS });
  await scaling("argon2 verify alone", () => argon2.verify(hash, "pw-ann"));
  await oneBackend("memory", "memory");
  const dir = mkdtempSync(join(os.tmpdir(), "surql-bench-"));
  try {
    await oneBackend("file:", `file:${join(dir, "db")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`load ${os.loadavg()[0]!.toFixed(1)} at the end`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchConcurrency();
