// The CLI's launch (from surql-auth.cts): `start` on Linux without the server's memory settings runs the server as a
// child process with them — glibc reads MALLOC_* and V8 its heap flags before the first line of JS — and this
// process forwards signals to it and ends as it ends. Everything else runs the CLI (main.ts; the build bundles it
// into one file, main.bundle.mjs: one module instead of ~1,000 costs ~20 MiB less).

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * What the server needs from outside its process: glibc keeps a pool thread's 19 MiB argon2 block in the thread's
 * arena once its dynamic mmap threshold has risen (a fixed threshold returns it); V8's young generation would grow
 * to 2 × 16 MiB, and its old generation up to 4 × what a full collection left before the next one.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "1048576" };
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4", "--heap-growing-percent=100"];

/** The environment variable that tells a relaunched server the file descriptor of its parent's pipe. */
const PARENT_FD = "SURQL_AUTH_PARENT_FD";

/** Signals passed on to the server (SIGKILL cannot be: the server then sees its parent's pipe close). */
const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

/** The node arguments and environment of the server's process, or undefined when this process already has them. */
export function relaunch(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  platform: NodeJS.Platform,
): { args: string[]; env: Record<string, string> } | undefined {
  if (argv[0] !== "start" || platform !== "linux") return undefined;
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].map((a) => a.split("=")[0]);
  const missingEnv = Object.entries(SERVER_ENV).filter(([k]) => env[k] === undefined);
  const missingFlags = SERVER_NODE_FLAGS.filter((f) => !given.includes(f.split("=")[0]!));
  if (missingEnv.length === 0 && missingFlags.length === 0) return undefined;
  return { args: [...execArgv, ...missingFlags], env: Object.fromEntries(missingEnv) };
}

/** Runs `entry` again as a child with `args` and `env`: signals go to it, and this process ends as it ends. */
function supervise(entry: string, argv: readonly string[], child: { args: string[]; env: Record<string, string> }): void {
  const server = spawn(process.execPath, [...child.args, entry, ...argv], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...process.env, ...child.env, [PARENT_FD]: "3" },
  });
  const forward = (signal: NodeJS.Signals) => server.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  server.on("error", (e) => {
    process.stderr.write(`surql-auth: cannot start the server: ${e.message}\n`);
    process.exit(1);
  });
  server.on("exit", (code, signal) => {
    if (code !== null) process.exit(code);
    // killed by a signal: this process ends by the same one
    for (const s of FORWARDED) process.off(s, forward);
    process.kill(process.pid, signal ?? "SIGTERM");
  });
}

/** In a relaunched server: its parent's end of the pipe closing means the parent has gone; stop as on SIGTERM. */
function watchParent(): void {
  const fd = Number(process.env[PARENT_FD]);
  delete process.env[PARENT_FD];
  if (!Number.isInteger(fd)) return;
  const pipe = new Socket({ fd, readable: true, writable: false });
  pipe.on("error", () => undefined);
  pipe.on("close", () => process.kill(process.pid, "SIGTERM"));
  pipe.resume();
  pipe.unref();
}

/** Runs the command of `argv`; `entry` is the file node runs (surql-auth.cts / .cjs). */
export function launch(entry: string, argv: readonly string[]): Promise<unknown> | void {
  const child = relaunch(argv, process.env, process.execArgv, process.platform);
  if (child) return supervise(entry, argv, child);
  watchParent();
  const bundle = new URL("./main.bundle.mjs", import.meta.url);
  return existsSync(fileURLToPath(bundle)) ? import(bundle.href) : import("./main.js");
}
