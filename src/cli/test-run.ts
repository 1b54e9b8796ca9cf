// CLI `test`: runs one test plan on a fresh in-memory engine with its own clock — schema first, then each step as
// its identity — and judges every expectation into a case result.

import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { parse } from "../../grammar/index.js";
import { ImportError, NOT_RUN, ownerSession } from "../import.js";
import { SurqlAuth, type Connection } from "../index.js";
import type { Clock } from "../exec/session.js";
import { connectAs, errorMessage, rootConnection, type Where } from "./identity.js";
import { EXPECTATION_VARS, isDenialError, isEmpty, matches, show, valueDiff, type Answer } from "./test-match.js";
import { TestFileError, type Expectation, type Place, type Step, type TestPlan } from "./test-file.js";

export interface CaseResult {
  /** Who ran what: `ann: SELECT email FROM user`, `sign in as record account signup {…}`. */
  readonly name: string;
  readonly at: Place;
  readonly passed: boolean;
  /** Why it failed (several lines: what was expected, what came, a diff), or how a denial showed. */
  readonly detail: string | undefined;
  /** How long the statement or sign-in took, ms (JUnit's `time`). */
  readonly ms: number;
}

export interface FileResult {
  readonly file: string;
  readonly compat: 1 | 2;
  readonly cases: readonly CaseResult[];
  /** The file could not run (a mistake in it, a schema that does not import): exit code 2. */
  readonly error: TestFileError | undefined;
}

/** The test clock: starts at the real time, moves only when a `@clock` step says. */
class TestClock implements Clock {
  constructor(public ms: number) {}
  now(): number {
    return this.ms;
  }
}

/** The largest schema file a test may name. */
const MAX_SCHEMA_BYTES = 64 * 1024 * 1024;

/**
 * Why a test file may not load `schema` (undefined: it may). A test file is data a CI may run from a contribution: its
 * schemas stay inside the directory the runner was started in or the test file's own folder, are regular files, and are at most 64 MiB — so a report never quotes `/etc/passwd` or the runner's
 * environment, and `/dev/zero` never stalls it (attack pass 8, F4).
 */
async function schemaRefused(testFile: string, schema: string): Promise<string | undefined> {
  const roots = [await realpath(process.cwd()), await realpath(dirname(testFile))];
  let real: string;
  try {
    real = await realpath(schema);
  } catch {
    return `cannot read file ${schema}`;
  }
  if (!roots.some((root) => inside(root, real))) return `${schema} lies outside ${roots.join(" and ")}: a test's @schema must stay inside one of them`;
  const info = await stat(real);
  if (!info.isFile()) return `${schema} is not a regular file`;
  if (info.size > MAX_SCHEMA_BYTES) return `${schema} is larger than ${MAX_SCHEMA_BYTES} bytes`;
  return undefined;
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return !isAbsolute(rel) && rel.split(sep)[0] !== "..";
};

/** The namespace and database the schema files leave selected (their last USE), for a plan that names none. */
export async function schemaWhere(files: readonly string[]): Promise<{ ns: string | undefined; db: string | undefined }> {
  let ns: string | undefined;
  let db: string | undefined;
  for (const file of files) {
    for (const stmt of parse(await readFile(file, "utf8"))) {
      if (stmt.kind !== "Use") continue;
      if (stmt.ns !== undefined) [ns, db] = [stmt.ns, undefined];
      if (stmt.db !== undefined) db = stmt.db;
    }
  }
  return { ns, db };
}

/** One statement's answer: its value, or the first error (a refused call, e.g. an expired session, included). */
async function ask(conn: Connection, text: string): Promise<Answer> {
  try {
    const rs = await conn.query(text);
    // in a failed block, the statement that failed, not the ones "not executed" because of it
    const errs = rs.filter((r) => r.status === "ERR");
    const err = errs.find((r) => !NOT_RUN.has(String(r.result))) ?? errs[0];
    return err ? { ok: false, error: String(err.result) } : { ok: true, value: rs.at(-1)?.result };
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  }
}

function got(answer: Answer, compat: 1 | 2): string {
  return answer.ok ? `got:\n${indent(show(answer.value, compat))}` : `got the error: ${answer.error}`;
}

const indent = (text: string) => text.replace(/^/gm, "  ");

/** Judges `answer`; `detail` says why it failed, or how a denial showed. */
async function judge(auth: SurqlAuth, where: Where, expect: Expectation | undefined, answer: Answer): Promise<{ passed: boolean; detail: string | undefined }> {
  const compat = auth.compat;
  switch (expect?.kind) {
    case undefined:
      return answer.ok ? { passed: true, detail: undefined } : { passed: false, detail: `failed (no expectation, so it must succeed): ${answer.error}` };
    case "ok":
      return answer.ok ? { passed: true, detail: undefined } : { passed: false, detail: `expected no error, ${got(answer, compat)}` };
    case "error":
      if (!answer.ok && (expect.text === undefined || answer.error.includes(expect.text))) return { passed: true, detail: undefined };
      return { passed: false, detail: `expected an error${expect.text === undefined ? "" : ` containing ${JSON.stringify(expect.text)}`}, ${got(answer, compat)}` };
    case "denied":
      if (!answer.ok && isDenialError(answer.error)) return { passed: true, detail: `denied: ${answer.error}` };
      if (answer.ok && isEmpty(answer.value)) return { passed: true, detail: `denied: empty result` };
      return { passed: false, detail: `expected a denial (an empty result, or a permission or authentication error), ${got(answer, compat)}` };
    case "value": {
      let want;
      try {
        const session = ownerSession();
        [session.ns, session.db] = [where.ns, where.db];
        want = await auth.engine.evaluate(expect.value, session, EXPECTATION_VARS);
      } catch (e) {
        return { passed: false, detail: `the expectation does not evaluate: ${errorMessage(e)}` };
      }
      if (!answer.ok) return { passed: false, detail: `expected:\n${indent(show(want, compat))}\n${got(answer, compat)}` };
      if (matches(want, answer.value, expect.mode, compat)) return { passed: true, detail: undefined };
      const what = expect.mode === "match" ? "the listed fields differ" : "the result differs";
      return { passed: false, detail: `${what} (- expected, + actual):\n${indent(valueDiff(want, answer.value, expect.mode, compat))}` };
    }
  }
}

/** A statement (a block: its statements) on one line, shortened, for a case name. */
function brief(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

export interface RunOptions {
  /** Compat of a file without `@compat` (default 2). */
  readonly compat?: 1 | 2;
}

/** Runs `plan` (read from `plan.file`) on a fresh engine; schema paths are relative to the test file. */
export async function runPlan(plan: TestPlan, opts: RunOptions = {}): Promise<FileResult> {
  const compat = plan.compat ?? opts.compat ?? 2;
  const clock = new TestClock(Date.now());
  const auth = await SurqlAuth.open({ compat, clock, allowGuests: plan.allowGuests, throttle: { enabled: false }, sessionSyncMs: 0 });
  const cases: CaseResult[] = [];
  try {
    const schemas = plan.schemas.map((s) => resolve(dirname(plan.file), s));
    for (const file of schemas) {
      const refused = await schemaRefused(plan.file, file);
      if (refused) return { file: plan.file, compat, cases, error: new TestFileError(plan.file, 0, 0, `schema: ${refused}`, "") };
      try {
        await auth.importFile(file);
      } catch (e) {
        if (!(e instanceof ImportError)) throw e;
        return { file: plan.file, compat, cases, error: new TestFileError(e.file, e.line, e.column, `schema: ${e.reason}`, e.snippet) };
      }
    }
    const fromSchema = await schemaWhere(schemas);
    const where: Where = { ns: plan.ns ?? fromSchema.ns ?? "test", db: plan.db ?? (plan.ns === undefined ? fromSchema.db : undefined) ?? "test" };
    const named = new Map<string, { conn: Connection; label: string }>();
    let current = { conn: rootConnection(auth, where), label: "root" };
    for (const step of plan.steps) {
      await runStep(step);
    }
    return { file: plan.file, compat, cases, error: undefined };

    async function runStep(step: Step): Promise<void> {
      if (step.kind === "clock") {
        clock.ms = step.setMs ?? clock.ms + step.advanceMs!;
        return;
      }
      let answer: Answer;
      let name: string;
      const started = performance.now();
      if (step.kind === "as") {
        name = `sign in as ${step.name !== undefined ? `${step.name} = ` : ""}${step.text}`;
        if (step.spec === undefined) {
          current = named.get(step.name!)!;
          return;
        }
        const label = step.name ?? step.text;
        try {
          current = { conn: await connectAs(auth, step.spec, where), label };
          answer = { ok: true, value: null };
        } catch (e) {
          // a refused sign-in leaves a fresh connection anonymous, as a client's would be
          current = { conn: auth.connect({ ns: where.ns!, db: where.db! }), label };
          answer = { ok: false, error: errorMessage(e) };
        }
        if (step.name !== undefined) named.set(step.name, current);
        if (step.expect === undefined && answer.ok) return;
      } else {
        name = `${current.label}: ${brief(step.text)}`;
        answer = await ask(current.conn, step.text);
        if (step.expect === undefined && answer.ok) return;
      }
      const ms = performance.now() - started;
      const verdict = await judge(auth, where, step.expect, answer);
      cases.push({ name, at: step.at, ...verdict, ms });
    }
  } finally {
    auth.iam.close();
  }
}
