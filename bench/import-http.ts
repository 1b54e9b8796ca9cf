// Benchmark: POST /import of a generated file of small CREATEs (attack pass 10, H4: 200,000 statements, 14 MB) to a
// server in a child process (`surql-auth start`, memory store), its RSS sampled from /proc every 50 ms and GET /health
// polled every 50 ms meanwhile: peak RSS, the largest /health latency, the import's time and answer size. The answer
// is read as it arrives and counted, never held.
// Run: node --import tsx bench/import-http.ts [statements] [json|cbor|octet]

import { readFileSync } from "node:fs";
import { request, Agent } from "node:http";
import { startServer } from "./server.js";

/** `n` statements: USE, then CREATEs of small records (the attack's shape: an int and a 30-character string). */
export function smallCreates(n: number): string {
  const parts = ["USE NS bench DB bench;\n"];
  for (let k = 1; k < n; k++) parts.push(`CREATE big:${k} SET n = ${k}, s = 'abcdefghijklmnopqrstuvwxyz0123';\n`);
  return parts.join("");
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

const MEDIA = { json: "application/json", cbor: "application/cbor", octet: "application/octet-stream" } as const;

/** POST the body; resolves with the status and the answer's byte count once it has been read to its end. */
function postImport(port: number, body: string, accept: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/import", method: "POST", headers: { accept, authorization: `Basic ${Buffer.from("root:root").toString("base64")}`, "content-type": "text/plain" } },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** GET /health every `everyMs` until stopped; the largest latency seen (a request still waiting counts as it stands). */
function pollHealth(port: number, everyMs: number): { stop(): number } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let max = 0;
  let pending: number | undefined;
  const tick = () => {
    if (pending !== undefined) return;
    const t0 = performance.now();
    pending = t0;
    request({ host: "127.0.0.1", port, path: "/health", agent }, (res) => {
      res.resume();
      res.on("end", () => {
        max = Math.max(max, performance.now() - t0);
        pending = undefined;
      });
    })
      .on("error", () => (pending = undefined))
      .end();
  };
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      agent.destroy();
      return Math.max(max, pending === undefined ? 0 : performance.now() - pending);
    },
  };
}

export async function benchImportHttp(n = 200_000, format: keyof typeof MEDIA = "json"): Promise<void> {
  const body = smallCreates(n);
  const { child, port } = await startServer("memory");
  const pid = child.pid!;
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssMiB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
    const health = pollHealth(port, 50);
    const t0 = performance.now();
    const { status, bytes } = await postImport(port, body, MEDIA[format]);
    const seconds = (performance.now() - t0) / 1000;
    const healthMax = health.stop();
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(pid));
    console.log(
      `POST /import ${n.toLocaleString("en-US")} CREATEs (${(body.length / 2 ** 20).toFixed(1)} MiB), Accept ${format}: ${status} in ${seconds.toFixed(1)} s, ` +
        `answer ${(bytes / 2 ** 20).toFixed(1)} MiB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB (after ${rssMiB(pid).toFixed(0)}); /health max ${healthMax.toFixed(0)} ms`,
    );
  } finally {
    child.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  await benchImportHttp(n, (process.argv[3] as keyof typeof MEDIA | undefined) ?? "json");
}
