// Benchmark (attack pass 8, F7): a record user's graph step from a node over edges whose near side (`in` for `->`,
// `out` for `<-`) it may not select answers nothing, and must take as long whether the node has K such edges or none.
// Schemas: the edge's `in` hidden by a field rule (NONE, or `WHERE $value = $auth.id`), by a table rule on `in`, and a
// table rule reading another field (`WHERE public = true`: decided per edge, the residual). Prints, per schema and K,
// the median µs of `count(prof:vic->e)` (K edges) and `count(prof:bob->e)` (none), and their ratio.
// node --import tsx bench/graph-hidden.ts [samples] [K,K,…]   (or on the built code: node dist/bench/graph-hidden.js)

import { SurqlAuth } from "../src/index.js";

const SAMPLES = Number(process.argv[2] ?? 60);
const KS = (process.argv[3] ?? "10,100,2000").split(",").map(Number);

const RULES: Record<string, string> = {
  "field in NONE": "DEFINE TABLE e TYPE RELATION SCHEMALESS PERMISSIONS FULL; DEFINE FIELD in ON e PERMISSIONS FOR select NONE;",
  "field in WHERE $value = $auth.id": "DEFINE TABLE e TYPE RELATION SCHEMALESS PERMISSIONS FULL; DEFINE FIELD in ON e PERMISSIONS FOR select WHERE $value = $auth.id;",
  "table WHERE in = $auth.id": "DEFINE TABLE e TYPE RELATION SCHEMALESS PERMISSIONS FOR select WHERE in = $auth.id, FOR create, update, delete NONE;",
  "table WHERE public = true (residual)": "DEFINE TABLE e TYPE RELATION SCHEMALESS PERMISSIONS FOR select WHERE public = true, FOR create, update, delete NONE;",
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function probe(compat: 1 | 2, rule: string, k: number): Promise<[number, number]> {
  const db = await SurqlAuth.open({ compat });
  const access = compat === 1 ? "DEFINE SCOPE account SIGNIN (SELECT * FROM user WHERE name = $name)" : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name)";
  // 1.x has no TYPE RELATION
  const edge = compat === 1 ? rule.replace(" TYPE RELATION", "") : rule;
  await db.importText(`DEFINE NAMESPACE app; USE NS app DB app; ${access};
    DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id; DEFINE TABLE prof SCHEMALESS PERMISSIONS FULL; DEFINE TABLE pub SCHEMALESS PERMISSIONS FULL;
    ${edge} CREATE user:mal SET name = 'mal'; CREATE prof:vic; CREATE prof:bob; CREATE pub:1;
    ${"RELATE prof:vic->e->pub:1 SET public = false;".repeat(k)}`);
  const conn = db.connect();
  await conn.signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", name: "mal" });
  const step = (node: string) => async () => {
    const [r] = await conn.query(`RETURN count(${node}->e)`);
    if (r?.status !== "OK" || Number(r.result) !== 0) throw new Error(`${node}: ${String(r?.result)}`);
  };
  const cases = [step("prof:vic"), step("prof:bob")];
  const times: number[][] = [[], []];
  for (let i = 0; i < 10; i++) for (const c of cases) await c();
  for (let i = 0; i < SAMPLES; i++) {
    for (const j of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const start = performance.now();
      await cases[j]!();
      times[j]!.push((performance.now() - start) * 1000);
    }
  }
  return [median(times[0]!), median(times[1]!)];
}

for (const compat of [2, 1] as const) {
  for (const [name, rule] of Object.entries(RULES)) {
    for (const k of KS) {
      const [vic, bob] = await probe(compat, rule, k);
      console.log(`compat ${compat}  ${name.padEnd(38)} K=${String(k).padEnd(5)} vic ${vic.toFixed(0).padStart(7)} µs  bob ${bob.toFixed(0).padStart(6)} µs  ratio ${(vic / bob).toFixed(2)}`);
    }
  }
}
