// Benchmark: the longest event-loop hold of one builtin call over the longest string a query may build (attack pass 11,
// I5 / I6): each query runs in-process while a 1 ms event-loop delay histogram records the worst stall; prints the
// query's time and that hold. Before the fix (attack report, load 14–20): string::slug of 8 Mi characters 9.8 s,
// string::reverse of 15.7 Mi 5.7 s, time::format of 4 Mi characters of `%Y` 6.1 s, a regex of 9,000 instructions 4.2 s.
// Then (benchAnswerHold, a server in a child process) the longest /health wait while the largest answers a query may
// have are encoded and sent (WebSocket and POST /sql, JSON and CBOR), and root's `RETURN 1` pace.
// Run: node --import tsx bench/string-hold.ts [strings | answers [small]]
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import { Datastore } from "../src/exec/datastore.js";
import { newSession } from "../src/exec/session.js";
import { encodeCbor } from "../src/server/codec/cbor.js";
import { serveChild, timed } from "./server-child.js";

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

/** The largest answer a query may have now: 4 strings of 2.7 Mi NULs (16 MiB of JSON each, the value cap), 64 MiB of JSON. */
const NULS = "LET $z = string::repeat('\\0', 1048576); LET $s = $z + $z + string::slice($z, 0, 600000); RETURN $s; RETURN $s; RETURN $s; RETURN $s";
/** Many small values: 4 arrays of 16 arrays of 65,000 integers (the value cap), 4.2 M values, ~8 MB of JSON. */
const SIXTEEN = `[${Array(16).fill("$a").join(",")}]`;
const INTS = `LET $a = array::repeat(1, 65000); ${Array(4).fill(`RETURN ${SIXTEEN}`).join("; ")}`;

/** The longest /health answer while `work` runs (probes one after another), and `work`'s time. */
async function probed(port: number, work: () => Promise<unknown>): Promise<{ ms: number; hold: number }> {
  let running = true;
  let hold = 0;
  const poll = (async () => {
    while (running) hold = Math.max(hold, await timed(port, "GET", "/health"));
  })();
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  running = false;
  await poll;
  return { ms, hold };
}

/** One query over a root WebSocket (json or cbor); resolves with the answer frame's byte length. */
async function wsQuery(port: number, protocol: "json" | "cbor", token: string, text: string): Promise<number> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, [protocol], { maxPayload: 1 << 30, headers: { authorization: `Bearer ${token}` } });
  await new Promise((r) => ws.once("open", r));
  const frame = (id: number, method: string, params: string[]) => (protocol === "json" ? JSON.stringify({ id, method, params }) : encodeCbor({ id: BigInt(id), method, params }));
  const answer = new Promise<number>((resolve) => ws.on("message", (data: Buffer) => data.length > 100 && resolve(data.length)));
  ws.send(frame(1, "use", ["b", "b"]));
  ws.send(frame(2, "query", [text]));
  const n = await answer;
  ws.close();
  return n;
}

/** One query over POST /sql (json or cbor answer); resolves with the body's byte length. */
async function sqlQuery(port: number, accept: "json" | "cbor", token: string, text: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers: { accept: `application/${accept}`, authorization: `Bearer ${token}`, "surreal-ns": "b", "surreal-db": "b" }, body: text });
  return (await res.arrayBuffer()).byteLength;
}

/** Small answers keep their pace: root's `RETURN 1`, one after another on one socket (JSON then CBOR). */
async function returnOne(port: number, token: string): Promise<void> {
  for (const protocol of ["json", "cbor"] as const) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, [protocol], { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => ws.once("open", r));
    let next: (() => void) | undefined;
    ws.on("message", () => next?.());
    const call = (id: number) =>
      new Promise<void>((r) => {
        next = r;
        ws.send(protocol === "json" ? JSON.stringify({ id, method: "query", params: ["RETURN 1"] }) : encodeCbor({ id: BigInt(id), method: "query", params: ["RETURN 1"] }));
      });
    for (let i = 0; i < 500; i++) await call(i);
    const n = 3000;
    const t = performance.now();
    for (let i = 0; i < n; i++) await call(i);
    const ms = performance.now() - t;
    ws.close();
    console.log(`  RETURN 1 × ${n} over ${protocol}, one at a time: ${((n / ms) * 1000).toFixed(0)} /s (${((ms * 1000) / n).toFixed(0)} µs each), load ${os.loadavg()[0]!.toFixed(1)}`);
  }
}

/**
 * The longest event-loop hold a concurrent /health probe sees while the server encodes and sends a large answer
 * (attack pass 11, I5: answer encoding was one step), over the WebSocket (JSON, CBOR) and POST /sql; then root's
 * `RETURN 1` over one socket, sequentially, to check small answers keep their pace.
 */
export async function benchAnswerHold(): Promise<void> {
  console.log(`large answers: time, longest /health wait (ms) — load ${os.loadavg()[0]!.toFixed(1)}`);
  const server = await serveChild(2);
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/signin`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify({ user: "root", pass: "root" }) });
    const token = ((await res.json()) as { token: string }).token;
    if (process.argv[3] === "small") return await returnOne(server.port, token);
    for (const [label, text] of [["64 MiB of NULs", NULS], ["4.2 M integers", INTS]] as const) {
      for (const [via, run] of [
        ["ws json", () => wsQuery(server.port, "json", token, text)],
        ["ws cbor", () => wsQuery(server.port, "cbor", token, text)],
        ["POST /sql json", () => sqlQuery(server.port, "json", token, text)],
        ["POST /sql cbor", () => sqlQuery(server.port, "cbor", token, text)],
      ] as const) {
        let bytes = 0;
        const { ms, hold } = await probed(server.port, async () => (bytes = await run()));
        console.log(`  ${label.padEnd(16)} ${via.padEnd(16)} ${(bytes / 2 ** 20).toFixed(1).padStart(6)} MiB ${ms.toFixed(0).padStart(6)} ms  /health max ${hold.toFixed(0).padStart(5)} ms`);
      }
    }
    await returnOne(server.port, token);
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ""))) {
  if (process.argv[2] !== "answers") await benchStringHold();
  if (process.argv[2] !== "strings") await benchAnswerHold();
}
