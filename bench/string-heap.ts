// Benchmark: heap bytes per stored character of generated strings (attack pass 3, A5) — rand::string, a string built one
// character per closure call, and a client literal of the same length, each stored in 20 records of 64 Ki characters.
import v8 from "node:v8";
import vm from "node:vm";
import { Datastore } from "../src/exec/datastore.js";
import { newSession } from "../src/exec/session.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const CHARS = 65_536;
const RECORDS = 20;
const session = newSession({ ns: "b", db: "b", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

async function bytesPerChar(ds: Datastore, value: string): Promise<{ bytes: number; ms: number }> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < RECORDS; i++) await ds.execute(`CREATE note SET s = ${value} RETURN NONE`, session);
  const ms = (performance.now() - t0) / RECORDS;
  gc();
  return { bytes: (process.memoryUsage().heapUsed - before) / (CHARS * RECORDS), ms };
}

export async function benchStringHeap(): Promise<void> {
  const shapes: Record<string, string> = {
    "rand::string(65536)": `rand::string(${CHARS})`,
    "array::fold(… $a + 'a')": `array::fold(array::range(0, ${CHARS}), '', |$a, $i| $a + 'a')`,
    "a literal": `'${"a".repeat(CHARS)}'`,
  };
  console.log(`stored strings: heap bytes per character (${RECORDS} records × ${CHARS} characters)`);
  for (const [name, value] of Object.entries(shapes)) {
    const ds = new Datastore({ queryTimeoutMs: 0 });
    const { bytes, ms } = await bytesPerChar(ds, value);
    console.log(`  ${name.padEnd(24)} ${bytes.toFixed(1).padStart(5)} B/char  ${ms.toFixed(1).padStart(6)} ms per record`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) await benchStringHeap();
