// CLI `sql`: what the shell prints and how it reads lines — pure functions, tested without a terminal.

import type { CompatOpts } from "../value/compat.js";
import { toJsonText } from "../value/json.js";
import { escapeKey } from "../value/record.js";
import { sortedKeys, toSql } from "../value/display.js";
import { isValueObject, type Value } from "../value/types.js";

export interface OutputMode {
  /** Indented SurrealQL (tabs, one entry a line) instead of one line. */
  readonly pretty: boolean;
  /** JSON instead of SurrealQL. */
  readonly json: boolean;
  readonly compat: 1 | 2;
}

/** SurrealQL text of a value, indented with tabs when `pretty` (arrays and objects one entry a line). */
export function formatValue(v: Value, mode: OutputMode, depth = 0): string {
  const opts: CompatOpts = { compat: mode.compat };
  if (mode.json) return mode.pretty ? JSON.stringify(JSON.parse(toJsonText(v, opts)), null, "\t") : toJsonText(v, opts);
  if (!mode.pretty) return toSql(v, opts);
  const pad = "\t".repeat(depth + 1);
  const end = "\t".repeat(depth);
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((x) => pad + formatValue(x, mode, depth + 1)).join(",\n")}\n${end}]`;
  if (isValueObject(v)) {
    const keys = sortedKeys(v);
    return keys.length === 0 ? "{}" : `{\n${keys.map((k) => `${pad}${escapeKey(k, opts)}: ${formatValue(v[k], mode, depth + 1)}`).join(",\n")}\n${end}}`;
  }
  return toSql(v, opts);
}

/** One statement's answer of the `query` RPC. */
export interface StatementAnswer {
  readonly status?: string;
  readonly result?: Value;
  readonly time?: string;
}

/** The answers of a query as the shell prints them: `-- Query N (execution time: T)` and the value or the error. */
export function formatAnswers(answers: readonly StatementAnswer[], mode: OutputMode): string {
  if (mode.json) return formatValue(answers.map((a) => (a.status === "ERR" ? { error: a.result } : a.result)) as Value, mode);
  return answers
    .map((a, i) => {
      const head = `-- Query ${i + 1}${a.time ? ` (execution time: ${a.time})` : ""}`;
      const body = a.status === "ERR" ? `ERROR: ${String(a.result)}` : formatValue(a.result, mode);
      return `${head}\n${body}`;
    })
    .join("\n\n");
}

/** The prompt: the selected namespace and database, as `surreal sql` shows them. */
export function prompt(ns: string | undefined, db: string | undefined): string {
  return ns === undefined && db === undefined ? "> " : `${ns ?? ""}/${db ?? ""}> `;
}

/** What a line typed into the shell means: a shell command, more text to wait for, or a query to send. */
export type LineAction = { readonly kind: "exit" } | { readonly kind: "help" } | { readonly kind: "more"; readonly buffer: string } | { readonly kind: "send"; readonly text: string };

/** Reads `line` after what was typed so far (`buffer`); with `multi` a statement spans lines until one ends with `;`. */
export function readLine(buffer: string, line: string, multi: boolean): LineAction {
  const word = line.trim().toLowerCase();
  if (buffer === "" && (word === "exit" || word === "quit" || word === "\\q")) return { kind: "exit" };
  if (buffer === "" && (word === "help" || word === "\\?" || word === "\\h")) return { kind: "help" };
  const text = buffer === "" ? line : `${buffer}\n${line}`;
  // an empty line ends a multi-line statement too
  if (multi && !/;\s*$/.test(line) && line.trim() !== "") return { kind: "more", buffer: text };
  return { kind: "send", text };
}

export const SHELL_HELP = `Type SurrealQL and press Enter to run it (with --multi, a statement runs once a line ends with ';').
  USE NS name DB name;   select the namespace and database (the prompt shows them)
  help                   this text
  exit, quit, Ctrl-D     leave the shell
  Ctrl-C                 clear the line being typed`;

export const WELCOME = `#
# Welcome to the surql-auth SQL shell (SurrealQL against a running server).
# Type 'help' for help, 'exit' to leave.
#`;
