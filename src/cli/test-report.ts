// CLI `test`: the reporters — text for people (every case, a diff under each failure), TAP 13 and JUnit XML for CI.

import { formatProblem } from "./check.js";
import type { CaseResult, FileResult } from "./test-run.js";
import type { TestFileError } from "./test-file.js";

export type ReporterName = "text" | "tap" | "junit";
export const REPORTERS: readonly ReporterName[] = ["text", "tap", "junit"];

export interface Totals {
  readonly passed: number;
  readonly failed: number;
  /** Files that could not run. */
  readonly errors: number;
}

export function totals(results: readonly FileResult[]): Totals {
  const cases = results.flatMap((r) => r.cases);
  const passed = cases.filter((c) => c.passed).length;
  return { passed, failed: cases.length - passed, errors: results.filter((r) => r.error).length };
}

/** `N passed, M failed` (and the files that could not run). */
export function summaryLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed} failed${t.errors > 0 ? `, ${t.errors} file(s) could not run` : ""}`;
}

/** A file error as `check` prints problems: file:line:column, the reason, the line with a caret. */
export function formatFileError(e: TestFileError): string {
  return formatProblem({ file: e.file, line: e.line, column: e.column, message: e.reason, snippet: e.snippet });
}

const place = (file: string, c: CaseResult) => `${file}:${c.at.line}:${c.at.column}`;
const pad = (text: string, by: string) => text.replace(/^/gm, by);

/** Text: a header per file, `✓` / `✗` per case, failures with their detail. */
export function textReport(results: readonly FileResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(`${r.file} (compat ${r.compat})`);
    for (const c of r.cases) {
      // a pass says how a denial showed (an empty result or which error)
      out.push(`  ${c.passed ? "✓" : "✗"} ${c.at.line}:${c.at.column} ${c.name}${c.passed && c.detail ? `  (${c.detail})` : ""}`);
      if (!c.passed && c.detail) out.push(pad(c.detail, "      "));
    }
    if (r.error) out.push(pad(formatFileError(r.error), "  "));
  }
  out.push(summaryLine(totals(results)));
  return `${out.join("\n")}\n`;
}

/** TAP 13: one test point per case, a YAML block under each failure; a file that could not run is a failing point. */
export function tapReport(results: readonly FileResult[]): string {
  const out: string[] = ["TAP version 13"];
  let n = 0;
  for (const r of results) {
    for (const c of r.cases) {
      out.push(`${c.passed ? "ok" : "not ok"} ${++n} - ${place(r.file, c)} ${c.name.replace(/#/g, "\\#")}`);
      if (!c.passed) out.push("  ---", `  at: ${JSON.stringify(place(r.file, c))}`, "  message: |", pad(c.detail ?? "failed", "    "), "  ...");
    }
    if (r.error) out.push(`not ok ${++n} - ${r.file} could not run`, "  ---", "  message: |", pad(formatFileError(r.error), "    "), "  ...");
  }
  out.push(`1..${n}`, `# ${summaryLine(totals(results))}`);
  return `${out.join("\n")}\n`;
}

/** XML text and attribute escaping (control characters XML 1.0 forbids are dropped). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** JUnit XML: a testsuite per file, a testcase per case, `<failure>` with the detail, `<error>` for a file that could not run. */
export function junitReport(results: readonly FileResult[]): string {
  const t = totals(results);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="surql-auth test" tests="${t.passed + t.failed}" failures="${t.failed}" errors="${t.errors}">`];
  for (const r of results) {
    const failed = r.cases.filter((c) => !c.passed).length;
    out.push(`  <testsuite name="${xmlEscape(r.file)}" tests="${r.cases.length}" failures="${failed}" errors="${r.error ? 1 : 0}">`);
    for (const c of r.cases) {
      const head = `    <testcase classname="${xmlEscape(r.file)}" name="${xmlEscape(`${c.at.line}:${c.at.column} ${c.name}`)}" time="${(c.ms / 1000).toFixed(3)}"`;
      if (c.passed) out.push(`${head}/>`);
      else out.push(`${head}>`, `      <failure message="${xmlEscape((c.detail ?? "failed").split("\n")[0]!)}">${xmlEscape(c.detail ?? "")}</failure>`, "    </testcase>");
    }
    if (r.error) {
      out.push(`    <testcase classname="${xmlEscape(r.file)}" name="could not run">`, `      <error message="${xmlEscape(r.error.reason)}">${xmlEscape(formatFileError(r.error))}</error>`, "    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}

export const REPORT: Record<ReporterName, (results: readonly FileResult[]) => string> = { text: textReport, tap: tapReport, junit: junitReport };
