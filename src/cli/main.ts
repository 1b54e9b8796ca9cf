#!/usr/bin/env node
// CLI entry point: `surql-auth start | check | sql | export | import | version | help`.

import { readFileSync } from "node:fs";
import { parseCli, USAGE, UsageError } from "./args.js";
import { checkFiles, formatProblem } from "./check.js";

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "sessions") return (await import("./sessions.js")).sessionsCommand(argv.slice(1));
  let opts;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`surql-auth: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  switch (opts.command) {
    case "help":
      process.stdout.write(`${USAGE}\n`);
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
      await start(opts);
      return process.exitCode === undefined ? -1 : Number(process.exitCode);
    }
    case "sql": {
      const { sql } = await import("./sql.js");
      return sql(opts);
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
