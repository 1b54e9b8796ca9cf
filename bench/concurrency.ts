// Benchmark: record signins from 1 and 8 concurrent clients (argon2 on libuv's pool, no global query queue), and the
// latency of another session's `RETURN 1` while 8 signins are in flight; on memory and on file:.
// Run: npm run bench (all) or node --import tsx bench/concurrency.ts

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { SurqlAuth } from "../src/index.js";
import { openStore } from "../src/store/kv/open.js";

const CREDS = { NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "pw-ann" };

async function rate(db: SurqlAuth, clients: number, ms: number): Promise<number> {
  let n = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await db.connect().signin(CREDS);
        n++;
      }
    }),
  );
  return n / (ms / 1000);
}

async function oneBackend(name: string, spec: string): Promise<void> {
  const storage = await openStore(spec);
  const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"], storage });
  await db.connect().signup({ ...CREDS, name: "Ann" });
  await rate(db, 1, 300); // warm-up
  const one = await rate(db, 1, 3000);
  const eight = await rate(db, 8, 3000);
  console.log(`${`record signin, ${name}`.padEnd(40)} 1 client ${one.toFixed(1).padStart(6)}/s   8 clients ${eight.toFixed(1).padStart(6)}/s   ratio ${(eight / one).toFixed(2)}`);
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
  console.log(`${`RETURN 1 behind 8 signins, ${name}`.padEnd(40)} median ${lat[10]!.toFixed(2)} ms   max ${lat[19]!.toFixed(2)} ms`);
  await storage.close();
}

export async function benchConcurrency(): Promise<void> {
  console.log(`concurrency benchmark — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`);
  await oneBackend("memory", "memory");
  const dir = mkdtempSync(join(os.tmpdir(), "surql-bench-"));
  try {
    await oneBackend("file:", `file:${join(dir, "db")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchConcurrency();
