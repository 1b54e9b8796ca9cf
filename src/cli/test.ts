// CLI `test`: `surql-auth test [FILES|DIRS]` — finds rule test files, runs each on a fresh engine, reports every case.
// Exit 0 all passed, 1 a case failed, 2 a usage mistake or a test file that could not run.

import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./args.js";
import { IDENTITY_FORMS } from "./identity.js";
import { formatFileError, REPORT, REPORTERS, totals, type ReporterName } from "./test-report.js";
import { parseTestFile, TestFileError } from "./test-file.js";
import { runPlan, type FileResult } from "./test-run.js";

export const TEST_USAGE = `usage: surql-auth test [options] [FILE|DIR]...

Run rule test files: each on a fresh in-memory engine, each statement as an identity, each answer against its
expectation. A FILE is run whatever its name; a DIR is searched (recursively, skipping node_modules and dot folders)
for *.test.surql files. Without arguments: the current folder. README "Testing your rules" has the format.
  --compat 1|2                  dialect of files without '-- @compat' (default 2)  SURQL_AUTH_COMPAT
  --reporter text|tap|junit     output: text (default), TAP 13, or JUnit XML
  -h, --help                    this text

directives (comments, so a test file stays SurrealQL):
  -- @compat 1|2  -- @schema PATH  -- @ns NS  -- @db DB  -- @allow-guests      (before the first statement)
  -- @as [NAME =] IDENTITY   sign in (later statements run as it); -- @as NAME switches back to that session
  -- @clock +DURATION | DATETIME   move the test clock (expiry)
  -- @expect VALUE  -- @expect-match VALUE  -- @expect-ok  -- @expect-error ["TEXT"]  -- @expect-denied
                                after a statement (or an @as: its sign-in); $any matches any value, $absent a
                                missing field
identities: ${IDENTITY_FORMS}

exit code: 0 every case passed, 1 a case failed, 2 a usage mistake or a file that could not run.`;

/** The *.test.surql files under `dir`, sorted. */
async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...(await findTests(path)));
    else if (entry.isFile() && entry.name.endsWith(".test.surql")) out.push(path);
  }
  return out;
}

async function testFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths.length === 0 ? ["."] : paths) {
    const st = await stat(path).catch(() => undefined);
    if (!st) throw new UsageError(`no such file or folder: ${path}`);
    if (!st.isDirectory()) {
      files.push(path);
      continue;
    }
    const found = await findTests(path);
    if (found.length === 0) throw new UsageError(`no test files (*.test.surql) under ${path}`);
    files.push(...found);
  }
  return files;
}

/** Reads, parses and runs one test file; a mistake in it becomes the result's error. */
export async function runTestFile(file: string, compat: 1 | 2 | undefined): Promise<FileResult> {
  try {
    const plan = parseTestFile(file, await readFile(file, "utf8"));
    return await runPlan(plan, compat === undefined ? {} : { compat });
  } catch (e) {
    if (e instanceof TestFileError) return { file, compat: compat ?? 2, cases: [], error: e };
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string") return { file, compat: compat ?? 2, cases: [], error: new TestFileError(file, 0, 0, `cannot read file: ${code}`) };
    throw e;
  }
}

/** `surql-auth test …`: the exit code. */
export async function testCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let reporter: ReporterName;
  let compat: 1 | 2 | undefined;
  let files: string[];
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { compat: { type: "string" }, reporter: { type: "string", default: "text" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      process.stdout.write(`${TEST_USAGE}\n`);
      return 0;
    }
    const c = values.compat ?? env["SURQL_AUTH_COMPAT"];
    if (c !== undefined && c !== "1" && c !== "2") throw new UsageError(`--compat must be 1 or 2, not '${c}'`);
    compat = c === undefined ? undefined : (Number(c) as 1 | 2);
    if (!REPORTERS.includes(values.reporter as ReporterName)) throw new UsageError(`--reporter must be text, tap or junit, not '${values.reporter}'`);
    reporter = values.reporter as ReporterName;
    files = await testFiles(positionals);
  } catch (e) {
    if (!(e instanceof UsageError) && (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") !== true) throw e;
    process.stderr.write(`surql-auth: ${(e as Error).message}\ntry 'surql-auth test --help'\n`);
    return 2;
  }
  const results: FileResult[] = [];
  for (const file of files) results.push(await runTestFile(file, compat));
  process.stdout.write(REPORT[reporter](results));
  // file errors also on stderr, whatever the reporter, so CI logs show them
  if (reporter !== "text") for (const r of results) if (r.error) process.stderr.write(`${formatFileError(r.error)}\n`);
  const t = totals(results);
  return t.errors > 0 ? 2 : t.failed > 0 ? 1 : 0;
}
