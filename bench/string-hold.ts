// Benchmark: the longest event-loop hold of one builtin call over the longest string a query may build (attack pass 11,
// I5 / I6): each query runs in-process while a 1 ms event-loop delay histogram records the worst stall; prints the
// query's time and that hold. Before the fix (attack report, load 14–20): string::slug of 8 Mi characters 9.8 s,
// string::reverse of 15.7 Mi 5.7 s, time::format of 4 Mi characters of `%Y` 6.1 s, a regex of 9,000 instructions 4.2 s.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Datastore } from "../src/exec/datastore.js";
import { newSession } from "../src/exec/session.js";

const session = newSession({ ns: "b", db: "b", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

/** `$s`: the longest string `+` builds now (4 Mi units less a few), of a slug-hostile text. */
const BUILD = "LET $a = string::repeat('aB c-', 209715); LET $s = $a + $a + $a + $a; ";

const SHAPES: Record<string, string> = {
  "string::slug($s)": "string::len(string::slug($s))",
  "string::reverse($s)": "string::len(string::reverse($s))",
  "string::html::encode($s)": "string::len(string::html::encode($s))",
  "string::replace($s, 'a', 'b')": "string::len(string::replace($s, 'a', 'b'))",
  "string::words($s)": "array::len(string::words($s))",
  "$s + $s": "string::len($s + $s)",
  "time::format 4 Mi of %Y": "time::format(time::now(), string::repeat('%Y', 524288) + string::repeat('%Y', 524288))",
  "matches a?ⁿaⁿ n = 3000": "string::matches(string::repeat('a', 3000), string::repeat('a?', 3000) + string::repeat('a', 3000))",
  "matches $s, ^(a|B| |c|-)*$": "string::matches(string::slice($s, 0, 500000), '^(a|B| |c|-)*$')",
};

export async function benchStringHold(): Promise<void> {
  console.log("one builtin call over a long string: query time, longest event-loop hold (ms)");
  const ds = new Datastore({ queryTimeoutMs: 0 });
  for (const [name, expr] of Object.entries(SHAPES)) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const t0 = performance.now();
    const answers = await ds.execute(`${BUILD}RETURN ${expr}`, session);
    const ms = performance.now() - t0;
    h.disable();
    const last = answers[answers.length - 1]!;
    const answer = last.status === "OK" ? "ok" : String(last.result).slice(0, 60);
    console.log(`  ${name.padEnd(32)} ${ms.toFixed(0).padStart(6)} ms  hold ${(h.max / 1e6).toFixed(0).padStart(5)} ms  ${answer}`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) await benchStringHold();
