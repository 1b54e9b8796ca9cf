// CLI `start` as a user runs it: the banner, which storage is in use and whether it lasts, HTTPS + WSS with a
// certificate made here (openssl), import failures with file:line:column and the caret.

import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { spawnCli, runCli } from "./run.js";

const SLOW = 180_000;
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "surql-cli-start-"));
  dirs.push(d);
  return d;
}

const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** A self-signed certificate for 127.0.0.1 / localhost. */
function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "crt.pem");
  const key = join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", cert], { stdio: "ignore" });
  return { cert, key };
}

/** Starts the CLI and resolves with its stdout so far, its log and the port once it logs "listening on". */
async function startCli(args: string[]): Promise<{ child: ChildProcess; stdout: () => string; log: () => string; port: number; scheme: string }> {
  const child = spawnCli(["start", "-b", "127.0.0.1:0", ...args], { stdin: "ignore" });
  children.push(child);
  let out = "";
  let log = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const found = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr!.on("data", (c: Buffer) => {
      log += c.toString();
      const m = /listening on (https?):\/\/127\.0\.0\.1:(\d+)/.exec(log);
      if (m) resolve(m);
    });
    child.on("exit", () => reject(new Error(`the server exited before listening:\n${log}`)));
  });
  return { child, stdout: () => out, log: () => log, port: Number(found[2]), scheme: found[1]! };
}

function httpsGet(url: string, ca: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    })
      .on("error", reject)
      .end();
  });
}

describe("surql-auth start", () => {
  it.skipIf(!hasOpenssl)("serves HTTPS and WSS with --web-crt / --web-key; tells which storage is in use and that memory does not last", async () => {
    const dir = tempDir();
    const { cert, key } = makeCertificate(dir);
    const s = await startCli(["--web-crt", cert, "--web-key", key, "-u", "root", "-p", "root"]);
    expect(s.scheme).toBe("https");
    expect(s.stdout()).toMatch(/^surql-auth \d+\.\d+\.\d+ — SurrealDB 2\.x compatible/);
    expect(s.log()).toContain("storage: memory (data is lost when the server stops");
    const ca = await import("node:fs").then((fs) => fs.readFileSync(cert, "utf8"));
    expect((await httpsGet(`https://127.0.0.1:${s.port}/health`, ca)).status).toBe(200);
    // plain HTTP on the TLS port is no answer
    await expect(fetch(`http://127.0.0.1:${s.port}/health`)).rejects.toThrow();
    // WSS: sign in over RPC and run a query
    const ws = new WebSocket(`wss://127.0.0.1:${s.port}/rpc`, "json", { ca });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const answers: unknown[] = [];
    const next = () => new Promise<unknown>((resolve) => ws.once("message", (d) => resolve(JSON.parse(String(d)))));
    ws.send(JSON.stringify({ id: 1, method: "signin", params: [{ user: "root", pass: "root" }] }));
    answers.push(await next());
    ws.send(JSON.stringify({ id: 2, method: "query", params: ["RETURN 1 + 1"] }));
    answers.push(await next());
    ws.close();
    expect((answers[0] as { result: string }).result).toMatch(/^ey/);
    expect((answers[1] as { result: { result: unknown }[] }).result[0]!.result).toBe(2);
  }, SLOW);

  it("--no-banner prints nothing on stdout; a file: store is said to survive restarts", async () => {
    const dir = tempDir();
    const s = await startCli(["--no-banner", `file:${join(dir, "data")}`]);
    expect(s.stdout()).toBe("");
    expect(s.log()).toContain(`storage: file:${join(dir, "data")} (SQLite file; data survives restarts)`);
  }, SLOW);

  it("--import-file stops at the first failing statement with file:line:column and the caret, exit 1", async () => {
    const dir = tempDir();
    const file = join(dir, "bad.surql");
    writeFileSync(file, "USE NS a DB b;\nDEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD n ON t TYPE int;\n  CREATE t:1 SET n = 'x';\nCREATE t:2;\n");
    const r = await runCli(["start", "--no-banner", "-b", "127.0.0.1:0", "--import-file", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`import failed: ${file.replace(/[.]/g, "\\.")}:4:3: .*\\n    CREATE t:1 SET n = 'x';\\n    \\^\\n$`));
  }, SLOW);

  it("a missing certificate file is an error before listening", async () => {
    const r = await runCli(["start", "--no-banner", "-b", "127.0.0.1:0", "--web-crt", "/nonexistent/crt.pem", "--web-key", "/nonexistent/key.pem"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read the TLS certificate or key: ENOENT/);
  }, SLOW);
});
