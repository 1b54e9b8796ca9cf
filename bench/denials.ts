// Benchmark: what `--log-denials` costs. A record user selects a table of 5,000 rows of which its select rule (on a
// field without an index: every row is read) shows one: with denials off (each hidden row pays one check), on into
// memory, and on into an audit file (one write(2) per event).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { SurqlAuth, auditFileWriter, type AuditWriter } from "../src/index.js";

const ROWS = 5000;

async function medianSelect(writers: readonly AuditWriter[] | undefined, runs = 9): Promise<number> {
  const db = await SurqlAuth.open(writers ? { audit: writers, logDenials: true } : {});
  await db.importText(`
    USE NS app DB app;
    DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE name = $auth.name, FOR create, update, delete NONE;
    DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM person WHERE name = $name);
  `);
  await db.importText(`USE NS app DB app; INSERT INTO person [${Array.from({ length: ROWS }, (_, i) => `{ name: 'p${i + 1}' }`).join(", ")}];`);
  const conn = db.connect();
  await conn.signin({ NS: "app", DB: "app", AC: "account", name: "p1" });
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const [res] = (await conn.query("SELECT * FROM person")) as { result: unknown[] }[];
    if (res!.result.length !== 1) throw new Error("expected one visible row");
    if (i >= 2) times.push(performance.now() - t0);
  }
  db.iam.close();
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export async function benchDenials(): Promise<void> {
  console.log(`denial logging: SELECT over ${ROWS} rows, ${ROWS - 1} hidden by the select rule (${os.cpus()[0]?.model ?? "cpu"})`);
  const off = await medianSelect(undefined);
  let events = 0;
  const memory = await medianSelect([() => events++]);
  const dir = mkdtempSync(join(os.tmpdir(), "bench-denials-"));
  const file = auditFileWriter(join(dir, "audit.jsonl"));
  const onFile = await medianSelect([file.write]);
  file.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`  off:             ${off.toFixed(1)} ms`);
  console.log(`  on, to memory:   ${memory.toFixed(1)} ms (${events} events over all runs)`);
  console.log(`  on, audit file:  ${onFile.toFixed(1)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDenials();
