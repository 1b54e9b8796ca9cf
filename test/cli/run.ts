// Test helper: the CLI as a child process (node + tsx on src/cli/main.ts), as a user runs it.

import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The test process's environment without SURQL_AUTH_* variables (they would change the CLI's defaults). */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SURQL_AUTH_")));
}

/** Spawns `surql-auth ...args` with `input` on stdin; resolves when it exits. */
export function spawnCli(args: readonly string[], opts: { env?: Record<string, string>; stdin?: "pipe" | "ignore" } = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    stdio: [opts.stdin ?? "pipe", "pipe", "pipe"],
    env: { ...cleanEnv(), ...opts.env },
  });
}

export function runCli(args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const child = spawnCli(args, opts);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  child.stdin!.end(opts.input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}
