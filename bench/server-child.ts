// Benchmarks against a server in a child process (its event loop and memory its own): `serveChild` starts one on
// 127.0.0.1 with an example schema and reads its RSS; the child's side is this file run with `serve`.

import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Compat } from "../src/exec/session.js";

export interface ServerChild {
  readonly port: number;
  readonly child: ChildProcess;
  /** The child's resident memory now and its peak (MB), from /proc. */
  memory(): { rssMb: number; peakMb: number };
  stop(): Promise<void>;
}

/** A surql-auth server with examples/schema-v<compat>.surql in a child process (node --import tsx). */
export function serveChild(compat: Compat): Promise<ServerChild> {
  const child = fork(fileURLToPath(import.meta.url), ["serve", String(compat)], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const status = (field: string) => Number(/(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8").split("\n").find((l) => l.startsWith(field)) ?? "")?.[1] ?? 0) / 1024;
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("message", (m) => {
      const { port } = m as { port: number };
      resolve({
        port,
        child,
        memory: () => ({ rssMb: status("VmRSS:"), peakMb: status("VmHWM:") }),
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

if (process.argv[2] === "serve") {
  const { SurqlAuth } = await import("../src/index.js");
  const compat = Number(process.argv[3]) === 1 ? 1 : 2;
  const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, import: [`examples/schema-v${compat}.surql`] });
  const { port } = await db.listen("127.0.0.1", 0);
  process.send?.({ port });
  process.on("SIGTERM", () => process.exit(0));
}
