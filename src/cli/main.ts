#!/usr/bin/env node
// CLI entry point: `surql-auth start | check | test | sql | is-ready | export | import | sessions | matrix | version | help`.

import { readFileSync } from "node:fs";
import { parseCli, UsageError } from "./args.js";
import { checkFiles, formatProblem } from "./check.js";
import { hintFor, usageOf } from "./usage.js";

/** The package version: package.json is 3 folders up from dist/src/cli/main.js, 2 from src/cli/main.ts (tsx). */
function version(): string {
  for (const up of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: string; version: string };
      if (pkg.name === "surql-auth") return pkg.version;
    } catch {
      // not this folder
    }
  }
  return "unknown";
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "sessions" || (argv[0] === "help" && argv[1] === "sessions")) {
    const sessions = await import("./sessions.js");
    if (argv[0] === "help" || argv.slice(1).some((a) => a === "--help" || a === "-h")) {
      process.stdout.write(`${sessions.SESSIONS_USAGE}\n`);
      return 0;
    }
    return sessions.sessionsCommand(argv.slice(1));
  }
  if (argv[0] === "test" || (argv[0] === "help" && argv[1] === "test")) {
    const { testCommand } = await import("./test.js");
    return testCommand(argv[0] === "help" ? ["--help"] : argv.slice(1));
  }
  if (argv[0] === "matrix" || (argv[0] === "help" && argv[1] === "matrix")) {
    const matrix = await import("./matrix.js");
    if (argv[0] === "help" || argv.slice(1).some((a) => a === "--help" || a === "-h")) {
      process.stdout.write(`${matrix.MATRIX_USAGE}\n`);
      return 0;
    }
    return matrix.matrixCommand(argv.slice(1));
  }
  let opts;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`surql-auth: ${e.message}\n${hintFor(e.command)}\n`);
      return 2;
    }
    throw e;
  }
  switch (opts.command) {
    case "help":
      process.stdout.write(`${usageOf(opts.topic)}\n`);
      return 0;
    case "version":
      process.stdout.write(`surql-auth ${version()}\n`);
      return 0;
    case "check": {
      const problems = await checkFiles(opts.files);
      for (const p of problems) process.stderr.write(`${formatProblem(p)}\n`);
      if (problems.length === 0) process.stdout.write(`${opts.files.length} file(s) OK\n`);
      return problems.length === 0 ? 0 : 1;
    }
    case "start": {
      const { start } = await import("./start.js");
      await start(opts, version());
      return process.exitCode === undefined ? -1 : Number(process.exitCode);
    }
    case "sql": {
      const { sql } = await import("./sql.js");
      return sql(opts);
    }
    case "is-ready": {
      const { isReady } = await import("./is-ready.js");
      return isReady(opts);
    }
    case "export": {
      const { exportCommand } = await import("./export.js");
      return exportCommand(opts);
    }
    case "import": {
      const { importCommand } = await import("./import.js");
      return importCommand(opts);
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e) => {
    process.stderr.write(`surql-auth: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
