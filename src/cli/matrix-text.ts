// CLI `matrix`: the access matrix as terminal text — per database a grid of tables and fields × identity columns
// (s c u d sub-columns), conditions as numbered footnotes below it, then the flags; fits 120 columns.

import type { Cell, DatabaseMatrix, Flag, Identity, Matrix } from "../iam/matrix/types.js";
import { ACTIONS } from "../iam/matrix/types.js";

const WIDTH = 120;
const LABEL_MAX = 32;
const GAP = "   ";

/** A column of the grid: identities whose cells are alike (one system role at every level) shown once. */
interface Column {
  readonly title: string;
  readonly ids: readonly string[];
}

const sameCells = (m: DatabaseMatrix, a: string, b: string): boolean =>
  m.tables.every((t) => JSON.stringify(t.cells[a]) === JSON.stringify(t.cells[b]) && t.fields.every((f) => JSON.stringify(f.cells[a]) === JSON.stringify(f.cells[b])));

/** One column per role when its levels agree (they do: a role reads and writes alike at root, ns and db), else one per level. */
export function columnsOf(m: DatabaseMatrix): Column[] {
  const out: Column[] = [];
  for (const role of ["OWNER", "EDITOR", "VIEWER"] as const) {
    const ids = m.identities.filter((i) => i.kind === "system" && i.role === role).map((i) => i.id);
    if (ids.every((id) => sameCells(m, ids[0]!, id))) out.push({ title: role, ids });
    else for (const id of ids) out.push({ title: id, ids: [id] });
  }
  for (const i of m.identities) if (i.kind !== "system") out.push({ title: i.kind === "record" ? i.access : "guest", ids: [i.id] });
  return out;
}

/** Footnotes: each distinct set of conditions gets a number, in order of first use. */
class Footnotes {
  readonly texts: string[] = [];
  private readonly numbers = new Map<string, number>();
  of(cell: Cell, table: string): string {
    const text = cell.conditions.map((c) => `${c.on === "table" ? `table ${table}` : `field ${table}.${c.on}`}: ${c.text}`).join("  AND  ");
    let n = this.numbers.get(text);
    if (n === undefined) {
      this.texts.push(text);
      n = this.texts.length;
      this.numbers.set(text, n);
    }
    return String(n);
  }
}

function cellText(cell: Cell, table: string, notes: Footnotes): string {
  const mark = cell.decided ? "*" : "";
  switch (cell.decision) {
    case "always":
      return `✓${mark}`;
    case "never":
      return `✗${mark}`;
    case "n/a":
      return "-";
    case "conditional":
      return notes.of(cell, table);
  }
}

const pad = (s: string, n: number): string => s + " ".repeat(Math.max(0, n - [...s].length));
const clip = (s: string, n: number): string => ([...s].length <= n ? s : `${[...s].slice(0, n - 1).join("")}…`);

/** Wrap `text` to `width`, continuation lines indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  const lead = /^ */.exec(text)![0];
  let line = lead;
  for (const word of text.slice(lead.length).split(" ")) {
    if (line.trim() !== "" && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() === "" ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** The grid's rows: label, then per column the four cell texts. */
function gridRows(m: DatabaseMatrix, columns: readonly Column[], notes: Footnotes): { label: string; cells: string[][] }[] {
  const rows: { label: string; cells: string[][] }[] = [];
  for (const t of m.tables) {
    const row = (label: string, cells: DatabaseMatrix["tables"][number]["cells"]) =>
      rows.push({ label, cells: columns.map((c) => ACTIONS.map((a) => cellText(cells[c.ids[0]!]![a], t.name, notes))) });
    row(`${t.name}${t.schemafull ? " (schemafull)" : ""}`, t.cells);
    for (const f of t.fields) row(`  .${f.name}`, f.cells);
  }
  return rows;
}

/** Column groups that fit WIDTH next to the labels (a wide matrix is shown in several panels). */
function panels(columns: readonly Column[], widths: readonly number[][], labelWidth: number): number[][] {
  const out: number[][] = [[]];
  let used = labelWidth;
  columns.forEach((c, i) => {
    const w = Math.max(widths[i]!.reduce((a, b) => a + b + 1, -1), [...c.title].length) + GAP.length;
    if (used + w > WIDTH && out.at(-1)!.length > 0) {
      out.push([]);
      used = labelWidth;
    }
    out.at(-1)!.push(i);
    used += w;
  });
  return out;
}

function grid(m: DatabaseMatrix, notes: Footnotes): string[] {
  const columns = columnsOf(m);
  const rows = gridRows(m, columns, notes);
  const labelWidth = Math.min(LABEL_MAX, Math.max(10, ...rows.map((r) => [...r.label].length))) + 2;
  // each sub-column as wide as its widest cell
  const widths = columns.map((_, ci) => ACTIONS.map((a, ai) => Math.max(1, ...rows.map((r) => [...r.cells[ci]![ai]!].length))));
  const out: string[] = [];
  for (const panel of panels(columns, widths, labelWidth)) {
    const groupWidth = (ci: number) => Math.max(widths[ci]!.reduce((a, b) => a + b + 1, -1), [...columns[ci]!.title].length);
    const line = (label: string, part: (ci: number) => string) => (pad(label, labelWidth) + panel.map((ci) => pad(part(ci), groupWidth(ci))).join(GAP)).trimEnd();
    out.push(line("", (ci) => columns[ci]!.title));
    out.push(line("", (ci) => ACTIONS.map((a, ai) => pad(a[0]!, widths[ci]![ai]!)).join(" ")));
    for (const r of rows) out.push(line(clip(r.label, labelWidth - 2), (ci) => r.cells[ci]!.map((c, ai) => pad(c, widths[ci]![ai]!)).join(" ")));
    out.push("");
  }
  return out;
}

function usersLine(m: DatabaseMatrix): string {
  const users = m.identities.flatMap((i) => (i.kind === "system" ? i.users.map((u) => `${u} (${i.level} ${i.role})`) : []));
  return users.length === 0 ? "no system users defined here" : `users: ${users.join(", ")}`;
}

function legend(m: DatabaseMatrix, compat: 1 | 2): string[] {
  const records = m.identities.filter((i): i is Extract<Identity, { kind: "record" }> => i.kind === "record").map((i) => i.access);
  const kind = compat === 1 ? "scope" : "record access";
  return [
    wrap(`OWNER, EDITOR, VIEWER: system users with that role at root, on namespace ${m.ns} or on database ${m.db} (${usersLine(m)})`, WIDTH, "  "),
    ...records.map((r) => `${r}: users of ${kind} ${r}`),
  ];
}

const CELL_LEGEND = [
  "s c u d: select create update delete · ✓ always · ✗ never · N where footnote N holds · - no rule (fields have no delete)",
  "*: decided from the WHERE clause for that identity ($auth is NONE for guests) · a field's cell includes its table's rule",
].join("\n");

function flagLines(flags: readonly Flag[]): string[] {
  if (flags.length === 0) return ["no risky rules found"];
  const out = [`${flags.length} risky rule${flags.length === 1 ? "" : "s"}:`];
  for (const f of flags) {
    const where = [f.access ? `access ${f.access}` : "", f.table ? `${f.table}${f.field ? `.${f.field}` : ""}` : ""].filter((x) => x !== "").join(" ");
    out.push(wrap(`  ${pad(f.severity, 6)}  ${f.rule}  ${f.ns}/${f.db} ${where}: ${f.why}`, WIDTH, "                "));
  }
  return out;
}

/** Control characters from schema names and clauses would drive the terminal: shown as `?`. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

export function matrixText(m: Matrix): string {
  const out: string[] = [];
  if (m.databases.length === 0) out.push("no database defined", "");
  for (const d of m.databases) {
    out.push(`== namespace ${d.ns}, database ${d.db} (compat ${m.compat})`, "");
    const notes = new Footnotes();
    if (d.tables.length === 0) out.push("no tables defined", "");
    else out.push(...grid(d, notes));
    notes.texts.forEach((t, i) => out.push(wrap(`[${i + 1}] ${t}`, WIDTH, "    ")));
    if (notes.texts.length > 0) out.push("");
    out.push(...legend(d, m.compat), ...d.notes.map((n) => wrap(n, WIDTH, "  ")), "");
  }
  out.push(CELL_LEGEND, "", ...flagLines(m.flags));
  return `${out.join("\n").replace(CONTROL, "?")}\n`;
}
