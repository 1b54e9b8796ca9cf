// CLI `matrix FILE...`: load schema files on an in-memory engine, then print who may select / create / update /
// delete what (iam/matrix) as text, JSON or an HTML page, with the risky rules; `--fail-on` makes it a CI gate.

import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ImportError, SurqlAuth } from "../index.js";
import { accessMatrix } from "../iam/matrix/index.js";
import type { Matrix, Severity } from "../iam/matrix/types.js";
import { UsageError, optionsOrUsage, parseCompat } from "./args.js";
import { matrixHtml } from "./matrix-html.js";
import { matrixText } from "./matrix-text.js";

export const MATRIX_USAGE = `usage: surql-auth matrix [options] FILE...

Load .surql schema files (USE selects the namespace and database, as in import) and show, per database, what each
kind of identity may do on every table and field: OWNER / EDITOR / VIEWER system users, the users of each record
access (1.x scope), and guests. A cell is always (✓), never (·) or a condition (a numbered footnote with the
clause as INFO prints it); a field's cell includes its table's rule. Then the risky rules, each with a severity.
  --compat 1|2                  dialect of the files (default 2)              SURQL_AUTH_COMPAT
  --ns NS, --db DB              only this namespace / database
  --json                        the matrix as JSON (README "Access matrix" documents its shape)
  --html FILE                   also write a self-contained HTML page to FILE
  --fail-on risky|medium|high   exit 1 when a flag of at least that severity is found (risky: any flag)
  -h, --help                    this text
Exit codes: 0 done, 1 a flag met --fail-on, 2 a usage error or a file that does not load.`;

const THRESHOLDS: Record<string, readonly Severity[]> = { risky: ["low", "medium", "high"], low: ["low", "medium", "high"], medium: ["medium", "high"], high: ["high"] };

interface MatrixOptions {
  readonly files: readonly string[];
  readonly compat: 1 | 2;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly json: boolean;
  readonly html: string | undefined;
  readonly failOn: readonly Severity[];
}

export function parseMatrix(argv: readonly string[], env: NodeJS.ProcessEnv): MatrixOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { compat: { type: "string" }, ns: { type: "string" }, namespace: { type: "string" }, db: { type: "string" }, database: { type: "string" }, json: { type: "boolean" }, html: { type: "string" }, "fail-on": { type: "string" } },
  });
  if (positionals.length === 0) throw new UsageError("matrix needs at least one FILE");
  const failOn = values["fail-on"];
  if (failOn !== undefined && !Object.hasOwn(THRESHOLDS, failOn)) throw new UsageError(`--fail-on must be risky, medium or high, not '${failOn}'`);
  return {
    files: positionals,
    compat: parseCompat(values.compat ?? env.SURQL_AUTH_COMPAT),
    ns: values.ns ?? values.namespace,
    db: values.db ?? values.database,
    json: values.json ?? false,
    html: values.html,
    failOn: failOn === undefined ? [] : THRESHOLDS[failOn]!,
  };
}

/** The matrix of `files` loaded in order on a fresh in-memory engine (throws ImportError). */
export async function loadMatrix(files: readonly string[], opts: { compat: 1 | 2; ns?: string | undefined; db?: string | undefined }): Promise<Matrix> {
  const engine = await SurqlAuth.open({ compat: opts.compat, import: files });
  return accessMatrix(engine.engine.catalog, opts);
}

export async function matrixCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const opts = optionsOrUsage("matrix", () => parseMatrix(argv, env));
  if (opts === undefined) return 2;
  let matrix: Matrix;
  try {
    matrix = await loadMatrix(opts.files, opts);
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    process.stderr.write(`surql-auth: ${e.message}\n${e.snippet ? `${e.snippet.replace(/^/gm, "  ")}\n` : ""}`);
    return 2;
  }
  process.stdout.write(opts.json ? `${JSON.stringify(matrix, null, 2)}\n` : matrixText(matrix));
  if (opts.html !== undefined) await writeFile(opts.html, matrixHtml(matrix, opts.files));
  return matrix.flags.some((f) => opts.failOn.includes(f.severity)) ? 1 : 0;
}
