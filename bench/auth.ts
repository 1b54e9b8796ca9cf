// Benchmark: authentication and permission-checked reads, in-process (no sockets). Prints ops/second.
// Run: npm run bench (all) or node --import tsx bench/auth.ts [memory|file] [only rows whose name contains this]
// (compiled, without tsx's keepNames wrappers: tsc -p a tsconfig including bench/ into dist/, then node dist/…/bench/auth.js)

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { SurqlAuth } from "../src/index.js";
import { openStore } from "../src/store/kv/open.js";

let only = "";

async function measure(name: string, minMs: number, op: () => Promise<unknown>): Promise<void> {
  if (!name.includes(only)) return;
  for (let i = 0; i < 3; i++) await op(); // warm-up
  let n = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < minMs) {
    await op();
    n++;
  }
  const ms = performance.now() - start;
  // CPU time per op as well: the machine is shared, and wall time moves with its load
  const { user, system } = process.cpuUsage(cpu);
  const cpuUs = (user + system) / n;
  console.log(`${name.padEnd(58)} ${(n / (ms / 1000)).toFixed(1).padStart(10)} ops/s  ${(ms / n).toFixed(3).padStart(9)} ms/op  ${cpuUs.toFixed(1).padStart(8)} µs CPU/op  (${n} ops)`);
}

export async function benchAuth(kind: "memory" | "file" = "memory", filter = ""): Promise<void> {
  only = filter;
  console.log(`auth benchmark (${kind}) — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}`);
  const dir = kind === "file" ? mkdtempSync(join(os.tmpdir(), "surql-bench-auth-")) : undefined;
  const store = dir === undefined ? undefined : await openStore(`file:${join(dir, "db")}`);
  const db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, import: ["examples/schema-v2.surql"], ...(store ? { storage: store } : {}) });
  const signup = db.connect();
  const token = await signup.signup({ NS: "app", DB: "app", AC: "account", name: "Ann", email: "ann@example.com", password: "pw-ann" });

  // Reads: 10,000 users (issue #10); the record user sees one of them through PERMISSIONS WHERE id = $auth.id.
  const root = db.connect();
  await root.signin({ user: "root", pass: "root" });
  await root.use("app", "app");
  for (let c = 0; c < 10; c++) {
    const creates = Array.from({ length: 1000 }, (_, j) => c * 1000 + j + 1).map((i) => `CREATE user:${i} SET name = 'u${i}', email = 'u${i}@example.com', password = 'x';`);
    await root.query(creates.join("\n"));
  }

  await measure("signin, record access (argon2id compare, m=19456 t=2 p=1)", 3000, () =>
    db.connect().signin({ NS: "app", DB: "app", AC: "account", email: "ann@example.com", password: "pw-ann" }),
  );
  await measure("signin, system user (argon2id verify)", 3000, () => db.connect().signin({ user: "root", pass: "root" }));
  await measure("signin, system user, wrong password", 3000, () => db.connect().signin({ user: "root", pass: "wrong" }).catch(() => undefined));
  await measure("signin, unknown system user (equal-time dummy hash)", 3000, () =>
    db.connect().signin({ user: "ghost", pass: "root" }).catch(() => undefined),
  );
  const conn = db.connect();
  await measure("authenticate, same token again (verified-token cache)", 2000, () => conn.authenticate(token));
  // (each closed again: tens of thousands of open registered sessions would make the registry's sync the benchmark)
  await measure("authenticate, fresh connection each time, closed (cache shared)", 2000, async () => {
    const c = db.connect();
    await c.authenticate(token);
    await c.close();
  });
  const ann = db.connect();
  await ann.authenticate(token);
  await measure("SELECT * FROM user as record user (10,001 rows, sees 1)", 3000, () => ann.query("SELECT * FROM user"));
  await measure("SELECT * FROM user as root (10,001 rows, sees all)", 3000, () => root.query("SELECT * FROM user"));
  await measure("SELECT * FROM user WHERE email = … as root (unique index)", 2000, () => root.query("SELECT * FROM user WHERE email = 'u77@example.com'"));
  await measure("UPDATE user:77 SET name = … as root (one record, a commit)", 2000, () => root.query("UPDATE user:77 SET name = 'x'"));

  // An ordinary write: its literals, the data clause and the record are measured against the value size limit.
  await root.query("DEFINE TABLE note SCHEMALESS PERMISSIONS FOR select, create WHERE owner = $auth.id");
  const tags = Array.from({ length: 20 }, (_, i) => `'tag${i}'`).join(", ");
  const note = `CREATE note SET owner = $auth.id, title = 'a note', tags = [${tags}], meta = {pinned: false, colour: 'blue', words: 120} RETURN NONE`;
  await measure("CREATE note (object + 20-element array) as record user", 3000, () => ann.query(note));
  await store?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAuth(process.argv[2] === "file" ? "file" : "memory", process.argv[3] ?? "");
