// CLI `test`: reads a rule test file — SurrealQL whose `-- @directive` comments name the schema, the identity each
// statement runs as, and what each statement (or sign-in) must give — into a plan; a mistake is a TestFileError.

import { parse, parseExpr } from "../../grammar/index.js";
import { StatementSplitter, type StatementText } from "../../grammar/split.js";
import type { Expr } from "../ast/nodes.js";
import { ParseError } from "../errors/index.js";
import { ImportError } from "../import.js";
import { lineSnippet } from "./check.js";
import { tryParseDuration } from "../value/duration.js";
import { formatIdentity, IdentitySpecError, parseIdentity, type IdentitySpec } from "./identity.js";

/** A mistake in a test file, or a schema it names that does not import (exit code 2): where, the line with a caret. */
export class TestFileError extends ImportError {}

export type Expectation =
  /** The result equals `value` (`exact`), or has at least the listed fields (`match`); `$any` matches anything. */
  | { readonly kind: "value"; readonly mode: "exact" | "match"; readonly value: Expr; readonly text: string }
  /** Any result, no error. */
  | { readonly kind: "ok" }
  /** An error whose message contains `text` (any error without it). */
  | { readonly kind: "error"; readonly text: string | undefined }
  /** Refused by permissions: an empty result (`[]`, NONE, NULL) or a permission / authentication error. */
  | { readonly kind: "denied" };

export interface Place {
  readonly line: number;
  readonly column: number;
}

export type Step =
  /** Switch identity: sign in as `spec` (naming the session `name`), or back to the session named `name`. */
  | { readonly kind: "as"; readonly at: Place; readonly name: string | undefined; readonly spec: IdentitySpec | undefined; readonly text: string; expect: Expectation | undefined }
  | { readonly kind: "statement"; readonly at: Place; readonly text: string; expect: Expectation | undefined }
  /** Move the test clock: by `advanceMs`, or to `setMs`. */
  | { readonly kind: "clock"; readonly at: Place; readonly advanceMs?: number; readonly setMs?: number };

export interface TestPlan {
  readonly file: string;
  readonly compat: 1 | 2 | undefined;
  /** Schema files as written (relative to the test file, or absolute), imported in order. */
  readonly schemas: readonly string[];
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly allowGuests: boolean;
  readonly steps: readonly Step[];
}

/** A comment line's directive: `-- @name args` (also `#` and `//` comments). */
const DIRECTIVE = /^(\s*(?:--|#|\/\/)\s*)@([a-z-]+)\b\s*(.*)$/;
const COMMENT = /^\s*(?:--|#|\/\/)/;

/** Line and column of `offset` in a statement text that starts at `from`. */
function placeIn(from: StatementText, offset: number): Place {
  const before = from.text.slice(0, offset);
  const lines = before.split("\n");
  return lines.length === 1 ? { line: from.line, column: from.column + offset } : { line: from.line + lines.length - 1, column: lines.at(-1)!.length + 1 };
}

/** Where the code of a statement text starts: after its blank space and comments (-1: none). */
function codeStart(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("--", i) || text.startsWith("//", i) || text[i] === "#") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else return i < text.length ? i : -1;
  }
}

/** Bracket depth of a value text outside strings (a value continues on the next comment lines until it closes). */
function depth(text: string): number {
  let d = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if ("[{(".includes(c)) d++;
    else if ("]})".includes(c)) d--;
  }
  return d;
}

interface Directive {
  readonly name: string;
  readonly args: string;
  readonly at: Place;
  /** Where `args` starts. */
  readonly argsAt: Place;
}

/** The directives in the comment lines of `lead` (the blank space and comments before a statement). */
function directives(lead: string, from: StatementText): Directive[] {
  const out: Directive[] = [];
  const lines = lead.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = DIRECTIVE.exec(line);
    if (!m) continue;
    const at = { line: from.line + i, column: (i === 0 ? from.column : 1) + m[1]!.length };
    const argsAt = { line: at.line, column: at.column + line.length - m[3]!.length - m[1]!.length };
    let args = m[3]!.trim();
    // a value spanning lines: the following comment lines (their markers blanked, so columns hold), until it closes
    while (depth(args) > 0 && i + 1 < lines.length && COMMENT.test(lines[i + 1]!) && !DIRECTIVE.test(lines[i + 1]!)) {
      args += `\n${lines[++i]!.replace(COMMENT, (c) => " ".repeat(c.length))}`;
    }
    out.push({ name: m[2]!, args, at, argsAt });
  }
  return out;
}

/** A quoted SurrealQL string argument (or undefined when `args` is empty). */
function stringArg(args: string): string | undefined {
  if (args === "") return undefined;
  const e = parseExpr(args);
  if (e.kind !== "Literal" || typeof e.value !== "string") throw new Error("expected a quoted string");
  return e.value;
}

/** Reads test file `file`'s text into a plan; throws TestFileError. */
export function parseTestFile(file: string, text: string): TestPlan {
  const fail = (at: Place, reason: string): never => {
    throw new TestFileError(file, at.line, at.column, reason, lineSnippet(text, at.line, at.column));
  };
  let compat: 1 | 2 | undefined;
  const schemas: string[] = [];
  let ns: string | undefined;
  let db: string | undefined;
  let allowGuests = false;
  const steps: Step[] = [];
  const names = new Set<string>();
  const header = () => steps.length === 0;

  const expectation = (d: Directive): void => {
    const last = steps.at(-1);
    if (!last || last.kind === "clock") fail(d.at, `@${d.name} follows no statement or @as`);
    const step = last as Exclude<Step, { kind: "clock" }>;
    if (step.expect) fail(d.at, `a second expectation for the ${step.kind === "as" ? "@as" : "statement"} at line ${step.at.line}`);
    const arg = <T>(read: (t: string) => T): T => {
      try {
        return read(d.args);
      } catch (e) {
        if (e instanceof ParseError) fail({ line: d.argsAt.line + e.line - 1, column: e.line === 1 ? d.argsAt.column + e.column - 1 : e.column }, e.message.split("\n")[0]!);
        return fail(d.argsAt, (e as Error).message);
      }
    };
    switch (d.name) {
      case "expect":
      case "expect-match":
        if (d.args === "") fail(d.at, `@${d.name} needs a value`);
        if (step.kind === "as") fail(d.at, `a sign-in has no value to compare: use @expect-ok, @expect-error or @expect-denied after @as`);
        step.expect = { kind: "value", mode: d.name === "expect" ? "exact" : "match", value: arg(parseExpr), text: d.args };
        break;
      case "expect-ok":
        step.expect = { kind: "ok" };
        break;
      case "expect-error":
        step.expect = { kind: "error", text: arg(stringArg) };
        break;
      case "expect-denied":
        step.expect = { kind: "denied" };
        break;
    }
  };

  const directive = (d: Directive): void => {
    switch (d.name) {
      case "compat":
        if (!header()) fail(d.at, "@compat belongs before the first statement");
        if (d.args !== "1" && d.args !== "2") fail(d.argsAt, "@compat must be 1 or 2");
        compat = Number(d.args) as 1 | 2;
        return;
      case "schema":
        if (!header()) fail(d.at, "@schema belongs before the first statement");
        if (d.args === "") fail(d.at, "@schema needs a file path (relative to the test file)");
        schemas.push(d.args);
        return;
      case "ns":
      case "db": {
        if (!header()) fail(d.at, `@${d.name} belongs before the first statement`);
        // `@ns app @db app` on one line
        const m = /^(\S+)(?:\s+@db\s+(\S+))?$/.exec(d.args);
        if (!m || (d.name === "db" && m[2] !== undefined)) fail(d.argsAt, `@${d.name} needs one name`);
        if (d.name === "ns") {
          ns = m![1]!;
          if (m![2] !== undefined) db = m![2];
        } else db = m![1]!;
        return;
      }
      case "allow-guests":
        if (!header()) fail(d.at, "@allow-guests belongs before the first statement");
        allowGuests = true;
        return;
      case "as": {
        const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*(?:=\s*(.*))?$/s.exec(d.args);
        const named = m && (m[2] !== undefined || names.has(m[1]!)) ? m[1]! : undefined;
        const specText = named === undefined ? d.args : m![2];
        if (named !== undefined && specText === undefined) {
          steps.push({ kind: "as", at: d.at, name: named, spec: undefined, text: named, expect: undefined });
          return;
        }
        if (!specText) fail(d.argsAt, "@as needs an identity (root, anonymous, viewer@db, record ACCESS signin {…} …)");
        let spec: IdentitySpec;
        try {
          spec = parseIdentity(specText!);
        } catch (e) {
          if (!(e instanceof IdentitySpecError)) throw e;
          const col = d.argsAt.column + (d.args.length - specText!.length) + e.column - 1;
          return fail({ line: d.argsAt.line, column: col }, e.message);
        }
        if (named !== undefined) names.add(named);
        steps.push({ kind: "as", at: d.at, name: named, spec, text: formatIdentity(spec), expect: undefined });
        return;
      }
      case "clock": {
        const rel = /^\+\s*(\S+)$/.exec(d.args);
        if (rel) {
          const dur = tryParseDuration(rel[1]!);
          if (!dur) fail(d.argsAt, `not a duration: ${rel[1]} (e.g. 15m, 2h, 1d)`);
          steps.push({ kind: "clock", at: d.at, advanceMs: Number(dur!.nanos / 1_000_000n) });
          return;
        }
        const ms = Date.parse(d.args.replace(/^d?['"]|['"]$/g, ""));
        if (Number.isNaN(ms)) fail(d.argsAt, "@clock needs +DURATION (advance) or a datetime (set), e.g. @clock +2h");
        steps.push({ kind: "clock", at: d.at, setMs: ms });
        return;
      }
      case "expect":
      case "expect-match":
      case "expect-ok":
      case "expect-error":
      case "expect-denied":
        expectation(d);
        return;
      default:
        fail(d.at, `unknown directive @${d.name}`);
    }
  };

  // an open BEGIN … COMMIT block: one step, run as one query
  let block: { at: Place; texts: string[] } | undefined;
  const statement = (piece: StatementText): void => {
    const start = codeStart(piece.text);
    const found = directives(start < 0 ? piece.text : piece.text.slice(0, start), piece);
    if (block && found.length > 0) fail(found[0]!.at, "a directive inside BEGIN … COMMIT (the block is one step: put its expectation after COMMIT)");
    for (const d of found) directive(d);
    if (start < 0) return;
    const code = piece.text.slice(start);
    const at = placeIn(piece, start);
    // a directive inside a statement's text: most likely a missing `;` before it
    const inner = code.split("\n").findIndex((l, i) => i > 0 && DIRECTIVE.test(l));
    if (inner > 0) fail({ line: at.line + inner, column: 1 }, "a directive inside a statement (is a `;` missing before it?)");
    let kind: string | undefined;
    try {
      kind = parse(code)[0]?.kind;
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      fail(e.line === 1 ? { line: at.line, column: at.column + e.column - 1 } : { line: at.line + e.line - 1, column: e.column }, e.message.split("\n")[0]!);
    }
    if (kind === "Begin" && !block) block = { at, texts: [] };
    if (!block) {
      steps.push({ kind: "statement", at, text: code.trim(), expect: undefined });
      return;
    }
    block.texts.push(code.trim());
    if (kind !== "Commit" && kind !== "Cancel") return;
    steps.push({ kind: "statement", at: block.at, text: block.texts.join("\n"), expect: undefined });
    block = undefined;
  };

  const splitter = new StatementSplitter();
  for (const piece of splitter.push(text)) statement(piece);
  const rest = splitter.end();
  if (rest) statement(rest);
  if (block) fail(block.at, "BEGIN without COMMIT or CANCEL");
  return { file, compat, schemas, ns, db, allowGuests, steps };
}
