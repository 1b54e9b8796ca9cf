// CLI `explain`: the readable rendering of an explanation — per statement its answer, then each permission decision
// (what was judged, the record, the action, the clause, the session values it read, the outcome). Pure, tested as text.

import type { ExplainedDecision } from "../index.js";

/** One statement's answer, its value already printed (SurrealQL embedded, JSON from a server). */
export interface PrintedAnswer {
  readonly status: string;
  readonly text: string;
}

const VALUE_NAMES = ["auth", "access", "scope", "token", "session"] as const;

/** What a decision judged: `table post`, `field post.tags[*] at tags[1]`, `param $x`, `function fn::f`. */
function judged(d: ExplainedDecision): string {
  switch (d.kind) {
    case "table":
      return `table ${d.table ?? "?"}`;
    case "field":
      return `field ${d.table ?? "?"}.${d.field ?? "?"}${d.path !== undefined && d.path !== d.field ? ` at ${d.path}` : ""}`;
    case "param":
      return `param $${d.name ?? "?"}`;
    case "function":
      return `function ${d.name ?? "?"}`;
  }
}

/** One decision as two lines: the outcome, action, record and what; then the clause, reason and values. */
export function decisionLines(d: ExplainedDecision): string[] {
  const head = `${d.allowed ? "allowed" : "DENIED "}  ${d.action} ${d.record ?? "(no record)"}  ${judged(d)}`;
  const values = VALUE_NAMES.flatMap((k) => (d.values?.[k] !== undefined ? [`$${k} = ${d.values[k]}`] : []));
  const tail = [`${d.clause}`, `(${d.reason})`, ...values, ...(d.error !== undefined ? [`error: ${d.error}`] : [])];
  return [head, `    ${tail.join("  ")}`];
}

/** The whole explanation: `statements[i]` is the text of answer i when known. */
export function explanationText(answers: readonly PrintedAnswer[], decisions: readonly ExplainedDecision[], statements: readonly string[] = []): string {
  const out: string[] = [];
  answers.forEach((a, i) => {
    out.push(`-- statement ${i + 1}${statements[i] !== undefined ? `: ${statements[i]}` : ""}`);
    out.push(`${a.status === "OK" ? "answer" : "error"}: ${a.text}`);
    const mine = decisions.filter((d) => d.statement === i);
    if (mine.length === 0) out.push("  no permission decision");
    for (const d of mine) out.push(...decisionLines(d).map((l) => `  ${l}`));
    out.push("");
  });
  const denied = decisions.filter((d) => !d.allowed).length;
  out.push(`${decisions.length} decision(s), ${denied} denied`);
  return `${out.join("\n")}\n`;
}
