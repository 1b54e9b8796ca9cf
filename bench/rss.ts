// Benchmark: the server's resident memory with 10,000 users and 1,000 authenticated WebSocket connections (issue #10:
// at most 150 MiB on file:). The server runs in a child process (`surql-auth start`); its RSS is read from /proc.
// Each connection authenticates as its own record user with a token of a record access signed with a shared key.
// The compiled server (dist/, `npm run build`) when there is one: tsx's loader alone holds ~100 MiB of its own.
// It is started as a user starts it (package.json's bin): on Linux that process runs the server as its child with
// its memory settings (src/cli/launch.ts); the server's RSS is the child's, the launcher's own is printed apart.
// Run: node --import tsx bench/rss.ts [memory|file] [users] [connections]

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { connect, startServer, stopServer } from "./server.js";

const SECRET = "a-long-shared-secret-for-the-rss-bench";
const KEY = new TextEncoder().encode(SECRET);

/** A field of /proc/PID/status in MiB (Linux). */
function statusMiB(pid: number, field = "VmRSS"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}
const rssMiB = (pid: number): number => statusMiB(pid);

/** The server's process: the launcher's child when it relaunched itself, else the launcher. */
function serverPid(launcher: number): number {
  const children = readFileSync(`/proc/${launcher}/task/${launcher}/children`, "utf8").trim();
  return children === "" ? launcher : Number(children.split(" ")[0]);
}

const token = (n: number): Promise<string> =>
  new SignJWT({ NS: "app", DB: "app", AC: "bench", ID: `user:${n}` })
    .setProtectedHeader({ alg: "HS512", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(KEY);

export async function benchRss(kind = "file", users = 10_000, connections = 1_000): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), "surql-bench-rss-"));
  // a query of 1,000 CREATEs may take more than the default 10 s on a loaded machine: its last statements would be cut
  const { child, port, main } = await startServer(kind === "memory" ? "memory" : `file:${join(dir, "db")}`, ["--query-timeout", "5m"]);
  const pid = serverPid(child.pid!);
  try {
    const started = rssMiB(pid);
    const root = await connect(port);
    await root.call("signin", [{ user: "root", pass: "root" }]);
    await root.call("use", ["app", "app"]);
    await root.call("query", [`DEFINE ACCESS bench ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY '${SECRET}'`]);
    const hash = (await root.call("query", ["RETURN crypto::argon2::generate('pw')"])) as { result: string }[];
    for (let at = 1; at <= users; at += 1000) {
      const n = Math.min(1000, users - at + 1);
      const creates = Array.from({ length: n }, (_, j) => `CREATE user:${at + j} SET name = 'u${at + j}', email = 'u${at + j}@example.com', password = $h;`);
      const results = (await root.call("query", [creates.join("\n"), { h: hash[0]!.result }])) as { status: string; result: unknown }[];
      const failed = results.find((r) => r.status !== "OK");
      if (failed) throw new Error(`creating users ${at}…: ${JSON.stringify(failed.result)}`);
    }
    const [count] = (await root.call("query", ["SELECT VALUE count() FROM user GROUP ALL"])) as { result: number[] }[];
    if (count!.result[0] !== users) throw new Error(`${count!.result[0]} users, not ${users}`);
    const withUsers = rssMiB(pid);
    const sockets = [];
    for (let i = 0; i < connections; i++) {
      const c = await connect(port);
      await c.call("authenticate", [await token(1 + (i % users))]);
      sockets.push(c);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const withSockets = rssMiB(pid);
    // every connection still answers as its own record user
    const mine = (await sockets[connections - 1]!.call("query", ["SELECT id FROM user"])) as { result: unknown[] }[];
    console.log(
      `RSS (${kind}, ${main[0] === "--import" ? "tsx" : "dist"}, ${os.cpus().length} vCPU, node ${process.version}): started ${started.toFixed(0)} MiB, ` +
        `${users} users ${withUsers.toFixed(0)} MiB, + ${connections} authenticated WebSockets ${withSockets.toFixed(0)} MiB ` +
        `(${(((withSockets - withUsers) * 1024) / connections).toFixed(1)} KiB a connection; the last one sees ${mine[0]!.result.length} row)` +
        (pid === child.pid ? "" : `; the launcher ${rssMiB(child.pid!).toFixed(0)} MiB RSS (${statusMiB(child.pid!, "RssAnon").toFixed(1)} MiB its own, the rest node's shared pages)`),
    );
    for (const s of sockets) s.ws.close();
    root.ws.close();
  } finally {
    await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchRss(process.argv[2], Number(process.argv[3] ?? 10_000), Number(process.argv[4] ?? 1_000));
}
