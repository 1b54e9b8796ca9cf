// Benchmark: an index / id lookup that hits a record (or field) the record user may not see must take as long as a
// miss (attack re-check R6). A record user's queries run in-process through the engine, hidden hit and miss
// interleaved (the order alternating each round); prints each median and the hit / miss ratio.
// Run on the built code — tsx wraps every closure it creates at run time (keepNames), which adds microseconds to the
// small figures compared here: npx tsc -p tsconfig.json --outDir dist && node dist/bench/index-timing.js [samples]
// (or, distorted, node --import tsx bench/index-timing.ts [samples]); default 600 samples per case.

import os from "node:os";
import { SurqlAuth } from "../src/index.js";

const SAMPLES = Number(process.argv[2] ?? 600);
const RATIO_RANGE = [0.9, 1.1] as const;

const schema = (compat: 1 | 2): string => `
  DEFINE NAMESPACE app; USE NS app DB app;
  ${compat === 1 ? "DEFINE SCOPE account SIGNIN (SELECT * FROM user WHERE name = $name)" : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name)"};
  DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select, update, delete WHERE id = $auth.id, FOR create FULL;
  DEFINE INDEX email ON user FIELDS email UNIQUE;
  DEFINE TABLE profile SCHEMALESS PERMISSIONS FULL;
  DEFINE FIELD email ON profile PERMISSIONS FOR select WHERE owner = $auth.id;
  DEFINE INDEX prof_email ON profile FIELDS email UNIQUE;
  DEFINE TABLE msg SCHEMALESS PERMISSIONS FOR select WHERE to = $auth.id OR from = $auth.id;
  ${Array.from({ length: 500 }, (_, i) => `
    CREATE user:u${i} SET name = 'u${i}', email = 'u${i}@victim.io';
    CREATE profile:u${i} SET owner = user:u${i}, nick = 'n${i}', email = 'u${i}@victim.io';
    CREATE msg:${i} SET from = user:u${i}, to = user:u0, text = 'hello';`).join("")}
  CREATE user:mallory SET name = 'mallory', email = 'm@evil.io';
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs each case once per round, in turn (alternating the order), and returns each case's median µs. */
async function medians(cases: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < 50; i++) for (const op of Object.values(cases)) await op(); // warm-up
  for (let i = 0; i < SAMPLES; i++) {
    for (const name of i % 2 === 0 ? names : [...names].reverse()) {
      const start = performance.now();
      await cases[name]!();
      times[name]!.push((performance.now() - start) * 1000);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

async function probe(compat: 1 | 2): Promise<void> {
  const db = await SurqlAuth.open({ compat });
  await db.importText(schema(compat));
  const conn = db.connect();
  await conn.signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", name: "mallory" });
  const run = (sql: string) => async () => {
    const [r] = await conn.query(sql);
    const empty = r?.result === undefined || r.result === null || r.result === false || (Array.isArray(r.result) && r.result.length === 0);
    if (r?.status !== "OK" || !empty) throw new Error(`${sql}: expected nothing but got ${JSON.stringify(r)}`);
  };
  const pairs: [string, string, string][] = [
    ["hidden record, index", "SELECT * FROM user WHERE email = 'u7@victim.io'", "SELECT * FROM user WHERE email = 'ghost@victim.io'"],
    // a hidden field's index is not used for a client's WHERE (attack pass 3, A2): this one scans the table
    ["hidden field, WHERE", "SELECT * FROM profile WHERE email = 'u7@victim.io'", "SELECT * FROM profile WHERE email = 'ghost@victim.io'"],
    ["hidden record, id", "SELECT * FROM msg:7", "SELECT * FROM msg:nope"],
    ["hidden record, link", "RETURN msg:7.text", "RETURN msg:nope.text"],
    ...(compat === 2 ? [["hidden record, exists", "RETURN record::exists(msg:7)", "RETURN record::exists(msg:nope)"] as [string, string, string]] : []),
  ];
  for (const [title, hit, miss] of pairs) {
    const m = await medians({ hit: run(hit), miss: run(miss) });
    const ratio = m["hit"]! / m["miss"]!;
    const ok = ratio >= RATIO_RANGE[0] && ratio <= RATIO_RANGE[1];
    console.log(
      `compat ${compat}, ${title.padEnd(22)} hit ${m["hit"]!.toFixed(1).padStart(7)} µs  miss ${m["miss"]!.toFixed(1).padStart(7)} µs  ` +
        `hit/miss ${ratio.toFixed(3)}  ${ok ? "within" : "OUTSIDE"} ${RATIO_RANGE.join("–")}`,
    );
  }
}

export async function benchIndexTiming(): Promise<void> {
  console.log(`index-timing benchmark (R6) — ${os.cpus()[0]?.model ?? "unknown cpu"}, ${os.cpus().length} cores, node ${process.version}, ${SAMPLES} samples per case`);
  await probe(2);
  await probe(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchIndexTiming();
