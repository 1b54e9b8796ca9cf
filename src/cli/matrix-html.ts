// CLI `matrix --html FILE`: the access matrix as one self-contained HTML page (inline CSS, no scripts, no external
// assets); every text from the schema is escaped, for clause text is user data.

import type { Cell, DatabaseMatrix, Flag, Matrix } from "../iam/matrix/types.js";
import { ACTIONS } from "../iam/matrix/types.js";
import { columnsOf } from "./matrix-text.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:2px 6px;text-align:center;vertical-align:top}
th.row,td.row{text-align:left;white-space:nowrap}tr.field td.row{padding-left:1.5em;color:#555}
td.always{background:#d9f2d9}td.never{background:#eee;color:#999}td.conditional{background:#fff3cd}td.na{color:#bbb}
code{font:12px ui-monospace,monospace;white-space:pre-wrap}td.conditional code{display:block;text-align:left;max-width:22em}
.sev-high{color:#b00020;font-weight:bold}.sev-medium{color:#a15c00;font-weight:bold}.sev-low{color:#555}
ol.notes li,ul li{margin:.2em 0}.muted{color:#666}`;

function cellHtml(cell: Cell): string {
  const mark = cell.decided ? `<span class="muted" title="decided from the WHERE clause for this identity">*</span>` : "";
  switch (cell.decision) {
    case "always":
      return `<td class="always">✓${mark}</td>`;
    case "never":
      return `<td class="never">✗${mark}</td>`;
    case "n/a":
      return `<td class="na">-</td>`;
    case "conditional":
      return `<td class="conditional">${cell.conditions.map((c) => `<code>${c.on !== "table" ? `${escapeHtml(c.on)}: ` : cell.conditions.length > 1 ? "table: " : ""}${escapeHtml(c.text)}</code>`).join(`<span class="muted">and</span>`)}</td>`;
  }
}

function databaseHtml(d: DatabaseMatrix): string {
  const columns = columnsOf(d);
  const head1 = `<tr><th class="row" rowspan="2">table / field</th>${columns.map((c) => `<th colspan="4" title="${escapeHtml(c.ids.join(", "))}">${escapeHtml(c.title)}</th>`).join("")}</tr>`;
  const head2 = `<tr>${columns.map(() => ACTIONS.map((a) => `<th title="${a}">${a[0]}</th>`).join("")).join("")}</tr>`;
  const rows: string[] = [];
  for (const t of d.tables) {
    const row = (cls: string, label: string, cells: DatabaseMatrix["tables"][number]["cells"]) =>
      rows.push(`<tr class="${cls}"><td class="row">${label}</td>${columns.map((c) => ACTIONS.map((a) => cellHtml(cells[c.ids[0]!]![a])).join("")).join("")}</tr>`);
    row("table", `<b>${escapeHtml(t.name)}</b>${t.schemafull ? ` <span class="muted">schemafull</span>` : ""}`, t.cells);
    for (const f of t.fields) row("field", `.${escapeHtml(f.name)}`, f.cells);
  }
  const users = d.identities.flatMap((i) => (i.kind === "system" ? i.users.map((u) => `${u} (${i.level} ${i.role})`) : []));
  const rules = d.tables.map((t) => `<li><b>${escapeHtml(t.name)}</b>: ${ACTIONS.map((a) => `${a} <code>${escapeHtml(t.rules[a])}</code>`).join(", ")}</li>`);
  return `<h2>namespace ${escapeHtml(d.ns)}, database ${escapeHtml(d.db)}</h2>
${d.tables.length === 0 ? "<p>no tables defined</p>" : `<table>${head1}${head2}${rows.join("\n")}</table>`}
<p class="muted">OWNER, EDITOR, VIEWER: system users with that role at root, on this namespace or on this database${users.length > 0 ? ` (users: ${escapeHtml(users.join(", "))})` : ""}.</p>
<ul>${d.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>
<details><summary>table rules as defined</summary><ul>${rules.join("")}</ul></details>`;
}

function flagsHtml(flags: readonly Flag[]): string {
  if (flags.length === 0) return "<h2>Risky rules</h2><p>none found</p>";
  const rows = flags.map(
    (f) =>
      `<tr><td class="sev-${f.severity}">${f.severity}</td><td class="row">${escapeHtml(f.rule)}</td><td class="row">${escapeHtml(`${f.ns}/${f.db}`)}</td><td class="row">${escapeHtml([f.access ? `access ${f.access}` : "", f.table ? `${f.table}${f.field ? `.${f.field}` : ""}` : ""].filter((x) => x !== "").join(" "))}</td><td class="row" style="white-space:normal">${escapeHtml(f.why)}</td></tr>`,
  );
  return `<h2>Risky rules (${flags.length})</h2><table><tr><th>severity</th><th>rule</th><th>database</th><th>where</th><th>why</th></tr>${rows.join("\n")}</table>`;
}

export function matrixHtml(m: Matrix, files: readonly string[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Access matrix: ${escapeHtml(files.join(", "))}</title>
<style>${CSS}</style>
</head>
<body>
<h1>Access matrix <span class="muted">${escapeHtml(files.join(", "))} · compat ${m.compat}</span></h1>
<p class="muted">s c u d: select create update delete · ✓ always · ✗ never · a yellow cell holds only where its clause holds (as INFO prints it; a field's cell lists its table's rule, then its own) · - no such rule (fields have no delete) · * decided from the clause for that identity</p>
${m.databases.length === 0 ? "<p>no database defined</p>" : m.databases.map(databaseHtml).join("\n")}
${flagsHtml(m.flags)}
</body>
</html>
`;
}
