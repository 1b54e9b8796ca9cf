#!/usr/bin/env node
// CLI entry point: `surql-auth start | check | test | sql | is-ready | export | import | sessions | matrix | explain | version | help`.

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

type OwnParser = () => Promise<{ usage: string; run: (argv: readonly string[]) => Promise<number> }>;

/** Commands with their own argument parser and usage text, loaded on demand. */
const OWN_PARSERS: Readonly<Record<string, OwnParser>> = {
  sessions: async () => {
    const m = await import("./sessions.js");
    return { usage: m.SESSIONS_USAGE, run: (argv) => m.sessionsCommand(argv) };
  },
  test: async () => {
    const m = await import("./test.js");
    return { usage: m.TEST_USAGE, run: (argv) => m.testCommand(argv) };
  },
  explain: async () => {
    const m = await import("./explain.js");
    return { usage: m.EXPLAIN_USAGE, run: (argv) => m.explainCommand(argv) };
  },
  matrix: async () => {
    const m = await import("./matrix.js");
    return { usage: m.MATRIX_USAGE, run: (argv) => m.matrixCommand(argv) };
  },
};

const ownParser = (name: string | undefined): OwnParser | undefined => (name !== undefined && Object.hasOwn(OWN_PARSERS, name) ? OWN_PARSERS[name] : undefined);

async function main(argv: readonly string[]): Promise<number> {
  // commands that parse their own arguments first
  const own = ownParser(argv[0] === "help" ? argv[1] : argv[0]);
  if (own) {
    const { usage, run } = await own();
    if (argv[0] === "help" || argv.slice(1).some((a) => a === "--help" || a === "-h")) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    return run(argv.slice(1));
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
      const problems = await checkFiles(opts.files, opts.compat, { ...(opts.ns !== undefined ? { ns: opts.ns } : {}), ...(opts.db !== undefined ? { db: opts.db } : {}) });
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
