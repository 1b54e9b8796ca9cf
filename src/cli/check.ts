// CLI `check`: parses and validates .surql schema files without running anything, reading each as a stream a statement
// at a time; every problem as file:line:column.

import { createReadStream } from "node:fs";
import { caretSnippet, sourcePosition, splitStatements, StatementSplitter, type StatementText } from "../../grammar/split.js";
import type { Statement } from "../ast/nodes.js";
import { ImportError, parseStatementText } from "../import.js";

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** The offending source line with a caret under the column, when known. */
  readonly snippet: string;
}

/** What a statement needs selected before it can run, as SurrealDB would complain at import time. */
function needs(stmt: Statement): "ns" | "db" | undefined {
  switch (stmt.kind) {
    case "DefineDatabase":
      return "ns";
    case "DefineUser":
    case "DefineAccess":
      return stmt.base === "DATABASE" ? "db" : stmt.base === "NAMESPACE" ? "ns" : undefined;
    case "Remove":
      if (stmt.target === "NAMESPACE") return undefined;
      if (stmt.target === "DATABASE") return "ns";
      if (stmt.base) return stmt.base === "DATABASE" ? "db" : stmt.base === "NAMESPACE" ? "ns" : undefined;
      return "db";
    case "DefineTable":
    case "DefineField":
    case "DefineIndex":
    case "DefineParam":
    case "DefineEvent":
    case "DefineFunction":
    case "DefineAnalyzer":
    case "Create":
    case "Select":
    case "Update":
    case "Upsert":
    case "Delete":
    case "Insert":
    case "Relate":
    case "Live":
      return "db";
    default:
      return undefined;
  }
}

export function lineSnippet(text: string, line: number, column: number): string {
  const src = text.split(/\r?\n/)[line - 1] ?? "";
  return `${src}\n${" ".repeat(Math.max(0, column - 1))}^`;
}

/** The problems of one file's statements, fed one statement text at a time (a large file is never held whole). */
class FileCheck {
  readonly problems: Problem[] = [];
  private ns = false;
  private db = false;

  constructor(
    private readonly file: string,
    private readonly compat: 1 | 2,
    use: CheckUse = {},
  ) {
    this.ns = use.ns !== undefined;
    this.db = use.db !== undefined;
  }

  /** Checks one statement text; false when it is a syntax error, which ends the check as the file's only problem. */
  add(text: StatementText): boolean {
    let statements: readonly Statement[];
    try {
      statements = parseStatementText(this.file, text, this.compat);
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      this.problems.splice(0, this.problems.length, { file: this.file, line: e.line, column: e.column, message: e.reason, snippet: e.snippet });
      return false;
    }
    for (const stmt of statements) this.statement(text, stmt);
    return true;
  }

  private statement(text: StatementText, stmt: Statement): void {
    if (stmt.kind === "Use") {
      if (stmt.ns !== undefined) {
        this.ns = true;
        this.db = false;
      }
      if (stmt.db !== undefined) this.db = true;
      return;
    }
    const need = needs(stmt);
    const missing = need === "db" ? (!this.ns ? "namespace" : !this.db ? "database" : undefined) : need === "ns" && !this.ns ? "namespace" : undefined;
    if (!missing) return;
    const at = sourcePosition(text, stmt.pos?.line ?? 1, stmt.pos?.column ?? 1);
    this.problems.push({ file: this.file, ...at, message: `Specify a ${missing} to use (add a USE statement before this one)`, snippet: caretSnippet(text, at.line, at.column) });
  }
}

/** Checks one file's text; `file` is only used in the reported problems. */
/** The namespace / database given on the command line (`--ns` / `--db`), which the files' own USE replaces. */
export interface CheckUse {
  readonly ns?: string;
  readonly db?: string;
}

export function checkText(file: string, text: string, compat: 1 | 2 = 2, use: CheckUse = {}): Problem[] {
  const check = new FileCheck(file, compat, use);
  const splitter = new StatementSplitter();
  for (const stmt of [...splitter.push(text), splitter.end()]) if (stmt && !check.add(stmt)) break;
  return check.problems;
}

/** Checks a file read as a stream, statement by statement. */
async function checkFile(file: string, compat: 1 | 2, use: CheckUse): Promise<Problem[]> {
  const check = new FileCheck(file, compat, use);
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  try {
    for await (const stmt of splitStatements(stream as AsyncIterable<string>)) if (!check.add(stmt)) break;
  } catch (e) {
    if (typeof (e as NodeJS.ErrnoException).code !== "string") throw e;
    return [{ file, line: 0, column: 0, message: `cannot read file: ${(e as NodeJS.ErrnoException).code}`, snippet: "" }];
  } finally {
    stream.destroy();
  }
  return check.problems;
}

export async function checkFiles(files: readonly string[], compat: 1 | 2 = 2, use: CheckUse = {}): Promise<Problem[]> {
  const all: Problem[] = [];
  for (const file of files) all.push(...(await checkFile(file, compat, use)));
  return all;
}

export function formatProblem(p: Problem): string {
  const head = `${p.file}:${p.line}:${p.column}: error: ${p.message}`;
  return p.snippet ? `${head}\n${p.snippet.replace(/^/gm, "  ")}` : head;
}
