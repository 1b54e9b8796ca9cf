// The `surql-auth` command's launch: `start` on Linux runs the server as a child with its memory settings; signals and
// the exit status pass through the launcher, and the server stops when the launcher is gone.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { relaunch, SERVER_ENV, SERVER_NODE_FLAGS } from "../../src/cli/launch.js";

const ENTRY = fileURLToPath(new URL("../../src/cli/surql-auth.cts", import.meta.url));
const SLOW = 180_000;

describe("relaunch", () => {
  const env = { PATH: "/usr/bin" };

  it("start on Linux without the settings: the same node arguments, the missing flags and variables", () => {
    expect(relaunch(["start", "memory"], env, ["--import", "tsx"], "linux")).toEqual({
      args: ["--import", "tsx", ...SERVER_NODE_FLAGS],
      env: SERVER_ENV,
    });
    expect(SERVER_ENV).toEqual({ MALLOC_MMAP_THRESHOLD_: "1048576" });
    expect(SERVER_NODE_FLAGS).toEqual(["--max-semi-space-size=4", "--heap-growing-percent=100"]);
  });

  it("what the user gave is kept: a variable already set, a flag with another value, a flag in NODE_OPTIONS", () => {
    expect(relaunch(["start"], { ...env, MALLOC_MMAP_THRESHOLD_: "65536" }, [], "linux")).toEqual({ args: SERVER_NODE_FLAGS, env: {} });
    expect(relaunch(["start"], env, ["--max-semi-space-size=8"], "linux")).toEqual({ args: ["--max-semi-space-size=8", "--heap-growing-percent=100"], env: SERVER_ENV });
    expect(relaunch(["start"], { ...env, ...SERVER_ENV, NODE_OPTIONS: "--max-semi-space-size=2 --trace-warnings" }, ["--heap-growing-percent=50"], "linux")).toBeUndefined();
    expect(relaunch(["start"], { ...env, ...SERVER_ENV }, SERVER_NODE_FLAGS, "linux")).toBeUndefined();
  });

  it("other commands, and other systems (no glibc), run in this process", () => {
    for (const argv of [["sql"], ["import", "x.surql"], ["help", "start"], []]) expect(relaunch(argv, env, [], "linux")).toBeUndefined();
    expect(relaunch(["start"], env, [], "darwin")).toBeUndefined();
    expect(relaunch(["start"], env, [], "win32")).toBeUndefined();
  });
});

/** The environment without the settings, so that the launcher relaunches whatever the test runner's are. */
function bareEnv(): Record<string, string> {
  const drop = new Set(["NODE_OPTIONS", "UV_THREADPOOL_SIZE", ...Object.keys(SERVER_ENV)]);
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => !drop.has(e[0]) && !e[0].startsWith("SURQL_AUTH_") && e[1] !== undefined));
}

interface Launched {
  readonly launcher: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

function launch(args: readonly string[]): Launched {
  const launcher = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], { stdio: ["ignore", "pipe", "pipe"], env: bareEnv() });
  let out = "";
  launcher.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  launcher.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => launcher.on("close", (code, signal) => resolve({ code, signal })));
  return { launcher, exited, output: () => out };
}

/** Starts a server on memory through the launcher; resolves once it listens, with the server's pid. */
async function started(): Promise<Launched & { server: number }> {
  const l = launch(["start", "--bind", "127.0.0.1:0", "--no-banner", "memory"]);
  for (let i = 0; i < 1200 && !/listening on http/.test(l.output()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(l.output()).toMatch(/listening on http/);
  const server = Number(readFileSync(`/proc/${l.launcher.pid}/task/${l.launcher.pid}/children`, "utf8").trim());
  return { ...l, server };
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

describe.runIf(process.platform === "linux")("the launcher on Linux", () => {
  it("runs the server as its child with the settings; SIGTERM reaches it and the launcher exits with its status", async () => {
    const [term, killed, orphan] = await Promise.all([started(), started(), started()]);
    for (const s of [term, killed, orphan]) {
      const environ = readFileSync(`/proc/${s.server}/environ`, "utf8").split("\0");
      expect(environ).toContain("MALLOC_MMAP_THRESHOLD_=1048576");
      expect(readFileSync(`/proc/${s.server}/cmdline`, "utf8").split("\0")).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
    }
    // SIGTERM to the launcher: the server shuts down cleanly, the launcher exits 0
    term.launcher.kill("SIGTERM");
    expect(await term.exited).toEqual({ code: 0, signal: null });
    expect(term.output()).toMatch(/SIGTERM received, shutting down/);
    // the server killed: the launcher dies by the same signal
    process.kill(killed.server, "SIGKILL");
    expect(await killed.exited).toEqual({ code: null, signal: "SIGKILL" });
    // the launcher killed (nothing can forward SIGKILL): the server sees its pipe close and stops
    orphan.launcher.kill("SIGKILL");
    await orphan.exited;
    for (let i = 0; i < 300 && alive(orphan.server); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(orphan.server)).toBe(false);
  }, SLOW);

  it("the server's exit code is the launcher's", async () => {
    const l = launch(["start", "--bind", "127.0.0.1:0", "--web-crt", "/nonexistent.crt", "--web-key", "/nonexistent.key", "memory"]);
    expect(await l.exited).toEqual({ code: 1, signal: null });
    expect(l.output()).toMatch(/cannot read the TLS certificate or key: ENOENT/);
  }, SLOW);
});
