// Benchmark: load 1,000 stored definitions into a node's catalog (SyncedCatalog.sync on the memory KV backend),
// their encode and decode alone, against the alternative of storing DEFINE text and parsing it back.
import os from "node:os";
import { parse } from "../grammar/index.js";
import { printAccess, printStatement } from "../src/ast/print.js";
import type { DefineStatement } from "../src/ast/nodes.js";
import type { StoredAccess, StoredUser } from "../src/exec/contract.js";
import { Datastore } from "../src/exec/datastore.js";
import { newSession } from "../src/exec/session.js";
import { decodeDefinition, encodeDefinition } from "../src/store/catalog-codec.js";
import { defKey } from "../src/store/catalog-keys.js";
import { SyncedCatalog } from "../src/store/catalog-sync.js";
import { DefMap, storedForm } from "../src/store/catalog.js";
import { MemoryStore } from "../src/store/kv/memory.js";
import { generateSchema } from "./parse.js";

function median(runs: number, fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function medianAsync(runs: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export async function benchCatalogLoad(count = 1000): Promise<void> {
  // 1. a schema of `count` DEFINE statements, run on an engine
  const ds = new Datastore();
  const session = newSession({ ns: "app", db: "app", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  await ds.execute(generateSchema(count), session);
  // 2. every definition as one KV entry, and as DEFINE text
  const store = new MemoryStore();
  const kv = await store.begin("write");
  const entries: Uint8Array[] = [];
  const texts: string[] = [];
  const walk = (holder: object): void => {
    for (const m of Object.values(holder)) {
      if (!(m instanceof DefMap)) continue;
      for (const [name, v] of m) {
        const bytes = encodeDefinition(storedForm(m.tag, v));
        kv.set(defKey(m.at, m.tag, name), bytes);
        entries.push(bytes);
        const def = storedForm(m.tag, v) as { def?: DefineStatement; jwt?: StoredAccess["jwt"] } & DefineStatement;
        if (m.tag === "ac") texts.push(printAccess((v as StoredAccess).def, (v as StoredAccess).jwt));
        else if (m.tag === "us") texts.push(printStatement((v as StoredUser).def));
        else texts.push(printStatement(def));
        if (m.tag === "ns" || m.tag === "db" || m.tag === "tb") walk(v as object);
      }
    }
  };
  walk(ds.catalog);
  await kv.commit();
  const sql = texts.join(";\n");
  const bytes = entries.reduce((n, e) => n + e.length, 0);
  // 3. the three measurements
  const load = await medianAsync(20, async () => {
    const t = await store.begin("read");
    await new SyncedCatalog().sync(t);
    await t.cancel();
  });
  const decode = median(20, () => entries.map(decodeDefinition));
  const defs = entries.map(decodeDefinition);
  const encode = median(20, () => defs.map(encodeDefinition));
  const reparse = median(20, () => parse(sql));
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown"} (${os.cpus().length} cpus), node ${process.version}`);
  console.log(`catalog: ${entries.length} stored definitions, ${(bytes / 1024).toFixed(0)} KiB stored (catalog-codec.ts), ${(sql.length / 1024).toFixed(0)} KiB as DEFINE text`);
  console.log(`load into a node (scan + decode + build maps, memory backend): median ${load.toFixed(1)} ms`);
  console.log(`encode only: median ${encode.toFixed(1)} ms; decode only: median ${decode.toFixed(1)} ms; parsing the same definitions as DEFINE text instead: median ${reparse.toFixed(1)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCatalogLoad();
