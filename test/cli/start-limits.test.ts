// `surql-auth start --limits FILE` end to end: the file's settings and a flag over them reach the running server's
// throttle, and a mistake in the file stops the start with the setting named (exit code 1).

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "start-limits-"));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

function startCli(args: string[]): { child: ChildProcess; log: () => string; listening: Promise<string>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "start", "-b", "127.0.0.1:0", "-u", "root", "-p", "root", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, SURQL_AUTH_PATH: "" },
  });
  children.push(child);
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    void exited.then(() => reject(new Error(`the server exited before listening:\n${log}`)));
  });
  // a start that fails on purpose never listens: not an unhandled rejection
  listening.catch(() => undefined);
  return { child, log: () => log, listening, exited };
}

describe("start --limits", () => {
  it("the file's settings, and a flag over them, hold on the running server", async () => {
    const file = join(dir, "limits.json");
    writeFileSync(file, JSON.stringify({ throttle: { signin: { maxFailures: 5, backoffAfter: 0 } } }));
    const server = startCli(["--limits", file, "--signin-max-failures", "2"]);
    const base = await server.listening;
    const signin = (pass: string) => fetch(`${base}/signin`, { method: "POST", headers: { accept: "application/json" }, body: JSON.stringify({ user: "root", pass }) });
    // no back-off (the file), locked at the 2nd failure (the flag over the file's 5)
    expect((await signin("wrong")).status).toBe(401);
    expect((await signin("wrong")).status).toBe(401);
    const refused = await signin("root");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
  }, 30_000);

  it("a mistake in the file stops the start and names the setting", async () => {
    const file = join(dir, "typo.json");
    writeFileSync(file, JSON.stringify({ throttle: { ip: { maxAttempt: 3 } } }));
    const server = startCli(["--limits", file]);
    expect(await server.exited).toBe(1);
    expect(server.log()).toContain("unknown setting throttle.ip.maxAttempt");
  }, 30_000);
});
