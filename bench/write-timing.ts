// Benchmark: a write by id, or a read by id on a PERMISSIONS NONE table, that names a record the record user may not
// see must take as long as one naming no record (attack pass 9, G2: the id is repeated in one statement so the
// per-lookup difference adds up). Hidden hit and miss interleaved in-process; prints each median and hit / miss.
// Run: node --import tsx bench/write-timing.ts [samples] [repeat] (default 40 samples, ids repeated 2000 times)

import os from "node:os";
import { SurqlAuth } from "../src/index.js";

const SAMPLES = Number(process.argv[2] ?? 40);
const REPEAT = Number(process.argv[3] ?? 2000);

const schema = (compat: 1 | 2): string => `
  DEFINE NAMESPACE app; USE NS app DB app;
  ${compat === 1 ? "DEFINE SCOPE account SIGNIN (SELECT * FROM user WHERE name = $name)" : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name)"};
  DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select, update, delete WHERE id = $auth.id, FOR create FULL;
  DEFINE TABLE vault SCHEMALESS PERMISSIONS NONE;
  DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select WHERE public = true OR owner = $auth.id, FOR update, delete WHERE owner = $auth.id;
  CREATE user:vic SET name = 'vic'; CREATE user:mal SET name = 'mal';
  CREATE vault:1 SET s = 'SECRET'; CREATE post:v2 SET owner = user:vic, public = false, title = 'VIC_PRIVATE';
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function probe(compat: 1 | 2): Promise<void> {
  const db = await SurqlAuth.open({ compat });
  await db.importText(schema(compat));
  const conn = db.connect();
  await conn.signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", name: "mal" });
  const ids = (rid: string) => Array.from({ length: REPEAT }, () => rid).join(", ");
  const run = (sql: string) => async () => {
    const rs = await conn.query(sql);
    for (const r of rs) if (r.status !== "OK") throw new Error(`${sql.slice(0, 60)}: ${JSON.stringify(r.result)}`);
  };
  const pairs: [string, string, string][] = [
    ["DELETE post (delete WHERE)", `DELETE ${ids("post:v2")}`, `DELETE ${ids("post:v9")}`],
    ["UPDATE vault (NONE)", `UPDATE ${ids("vault:1")} SET x = 1`, `UPDATE ${ids("vault:2")} SET x = 1`],
    ["DELETE vault (NONE)", `DELETE ${ids("vault:1")}`, `DELETE ${ids("vault:2")}`],
    ["SELECT vault (NONE)", `SELECT * FROM ${ids("vault:1")}`, `SELECT * FROM ${ids("vault:2")}`],
    ["SELECT post (select WHERE)", `SELECT * FROM ${ids("post:v2")}`, `SELECT * FROM ${ids("post:v9")}`],
  ];
  for (const [title, hit, miss] of pairs) {
    const times: Record<"hit" | "miss", number[]> = { hit: [], miss: [] };
    for (let i = 0; i < 3; i++) await Promise.all([run(hit)(), run(miss)()]);
    for (let i = 0; i < SAMPLES; i++) {
      for (const k of i % 2 === 0 ? (["hit", "miss"] as const) : (["miss", "hit"] as const)) {
        const start = performance.now();
        await run(k === "hit" ? hit : miss)();
        times[k].push(performance.now() - start);
      }
    }
    const h = median(times.hit);
    const m = median(times.miss);
    console.log(`compat ${compat}, ${title.padEnd(28)} hit ${h.toFixed(2).padStart(8)} ms  miss ${m.toFixed(2).padStart(8)} ms  hit/miss ${(h / m).toFixed(3)}`);
  }
}

console.log(`write-timing benchmark (G2) — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}, ${SAMPLES} samples, ${REPEAT} ids`);
await probe(2);
await probe(1);
