// Benchmark: imports of generated files of 20,000 and 200,000 statements (a table with its fields DEFINEd every 200
// statements, CREATEs between) — peak RSS and statements/s for the embedded import (`start --import`) on the memory
// and file: stores, and for `check`. Each run is its own child process, so its peak RSS (VmHWM) is its own.
// Run: node --import tsx bench/import-memory.ts [statements…]

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkFiles } from "../src/cli/check.js";
import { SurqlAuth } from "../src/index.js";
import { openStore } from "../src/store/kv/open.js";

/** `n` statements: USE, then per 200 a DEFINE TABLE with two DEFINE FIELDs and CREATEs of records of that table. */
export function generated(n: number): string {
  const parts = ["USE NS bench DB bench;\n"];
  let table = 0;
  for (let k = 1; k < n; ) {
    if (k % 200 === 1) {
      table++;
      parts.push(`DEFINE TABLE t${table} SCHEMAFULL;\nDEFINE FIELD name ON t${table} TYPE string;\nDEFINE FIELD n ON t${table} TYPE int;\n`);
      k += 3;
    } else {
      parts.push(`CREATE t${table}:${k} SET name = 'person number ${k}', n = ${k};\n`);
      k++;
    }
  }
  return parts.join("");
}

/** Peak resident set size of this process in MiB (Linux). */
function peakMiB(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN) / 1024;
}

/** In the child: one import (or check) of `file`; prints statements, seconds and peak RSS as JSON. */
async function child(mode: string, file: string, dir: string): Promise<void> {
  const t0 = performance.now();
  let statements: number;
  if (mode === "check") {
    const problems = await checkFiles([file]);
    if (problems.length > 0) throw new Error(problems[0]!.message);
    statements = readFileSync(file, "utf8").split(";\n").length - 1;
  } else {
    const db = await SurqlAuth.open(mode === "file" ? { storage: await openStore(`file:${join(dir, "db")}`) } : {});
    statements = (await db.importFile(file)).statements;
  }
  console.log(JSON.stringify({ statements, seconds: (performance.now() - t0) / 1000, peak: peakMiB() }));
  process.exit(0);
}

export async function benchImportMemory(sizes = [20_000, 200_000]): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  console.log("import in bounded memory: peak RSS (child process, tsx) and statements/s");
  for (const n of sizes) {
    const dir = mkdtempSync(join(os.tmpdir(), "surql-bench-import-"));
    const file = join(dir, "import.surql");
    writeFileSync(file, generated(n));
    for (const mode of ["memory", "file", "check"]) {
      const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", mode, file, dir], { encoding: "utf8", maxBuffer: 1 << 20 });
      const line = run.stdout.trim().split("\n").at(-1) ?? "";
      if (run.status !== 0 || !line.startsWith("{")) {
        console.log(`  ${String(n).padStart(7)} ${mode.padEnd(7)} failed: ${run.signal ?? run.status} ${run.stderr.trim().split("\n").at(-1) ?? ""}`);
        continue;
      }
      const r = JSON.parse(line) as { statements: number; seconds: number; peak: number };
      const what = mode === "check" ? "check" : `import (${mode} store)`;
      console.log(`  ${n.toLocaleString("en-US").padStart(7)} statements  ${what.padEnd(21)} peak RSS ${r.peak.toFixed(0).padStart(4)} MiB  ${Math.round(r.statements / r.seconds).toLocaleString("en-US").padStart(6)} statements/s`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else if (import.meta.url === `file://${process.argv[1]}`) await benchImportMemory(process.argv.length > 2 ? process.argv.slice(2).map(Number) : undefined);
