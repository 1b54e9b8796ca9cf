// CLI `check`: parses and validates .surql schema files without running anything; every problem as file:line:column.

import { readFile } from "node:fs/promises";
import { parse } from "../../grammar/index.js";
import type { Statement } from "../ast/nodes.js";
import { ParseError } from "../errors/index.js";

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

/** Checks one file's text; `file` is only used in the reported problems. */
export function checkText(file: string, text: string): Problem[] {
  let statements: readonly Statement[];
  try {
    statements = parse(text);
  } catch (e) {
    if (e instanceof ParseError) {
      return [{ file, line: e.line, column: e.column, message: e.message.split("\n")[0]!, snippet: e.snippet || lineSnippet(text, e.line, e.column) }];
    }
    throw e;
  }
  const problems: Problem[] = [];
  let ns = false;
  let db = false;
  for (const stmt of statements) {
    if (stmt.kind === "Use") {
      if (stmt.ns !== undefined) {
        ns = true;
        db = false;
      }
      if (stmt.db !== undefined) db = true;
      continue;
    }
    const need = needs(stmt);
    const missing = need === "db" ? (!ns ? "namespace" : !db ? "database" : undefined) : need === "ns" && !ns ? "namespace" : undefined;
    if (missing) {
      const line = stmt.pos?.line ?? 1;
      const column = stmt.pos?.column ?? 1;
      problems.push({ file, line, column, message: `Specify a ${missing} to use (add a USE statement before this one)`, snippet: lineSnippet(text, line, column) });
    }
  }
  return problems;
}

export async function checkFiles(files: readonly string[]): Promise<Problem[]> {
  const all: Problem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (e) {
      all.push({ file, line: 0, column: 0, message: `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, snippet: "" });
      continue;
    }
    all.push(...checkText(file, text));
  }
  return all;
}

export function formatProblem(p: Problem): string {
  const head = `${p.file}:${p.line}:${p.column}: error: ${p.message}`;
  return p.snippet ? `${head}\n${p.snippet.replace(/^/gm, "  ")}` : head;
}
