// iam/matrix: one cell per identity and action, for a table and for each of its fields (a field is reachable only
// where the table and its parent fields are: the cells combine all their rules).

import type { DefineFieldStatement, Permission, Permissions } from "../../ast/nodes.js";
import { printExpr } from "../../ast/print.js";
import { idiomText, type TableEntry } from "../../store/catalog.js";
import { decide, type Facts } from "./abstract.js";
import { ACTIONS, type Action, type Cell, type Cells, type FieldRow, type Identity, type TableRow } from "./types.js";

export const ALWAYS: Cell = { decision: "always", conditions: [] };
export const NEVER: Cell = { decision: "never", conditions: [] };
const NOT_APPLICABLE: Cell = { decision: "n/a", conditions: [] };

/** The rule as INFO prints it: `NONE`, `FULL`, `WHERE …`. */
export function ruleText(p: Permission, compat: 1 | 2): string {
  return p.kind === "None" ? "NONE" : p.kind === "Full" ? "FULL" : `WHERE ${printExpr(p.cond, { compat })}`;
}

/** A rule for one identity: decided when the identity's facts settle its WHERE clause. */
export function ruleCell(p: Permission, on: string, facts: Facts): Cell {
  if (p.kind === "None") return NEVER;
  if (p.kind === "Full") return ALWAYS;
  const holds = decide(p.cond, facts);
  if (holds === undefined) return { decision: "conditional", conditions: [{ on, text: printExpr(p.cond, { compat: facts.compat }) }] };
  return { ...(holds ? ALWAYS : NEVER), decided: true };
}

/** All of `cells` must allow: never if one never does, else the conditions of all. */
export function allOf(cells: readonly Cell[]): Cell {
  const decided = cells.some((c) => c.decided) ? ({ decided: true } as const) : {};
  const never = cells.find((c) => c.decision === "never");
  if (never) return { ...NEVER, ...(never.decided ? { decided: true } : {}) };
  const conditions = cells.flatMap((c) => c.conditions);
  return conditions.length === 0 ? { ...ALWAYS, ...decided } : { decision: "conditional", conditions };
}

/** Does `who` skip table and field PERMISSIONS for `action` (auth.md §6.2: any role reads, editors and owners write)? */
export function bypasses(who: Identity, action: Action): boolean {
  return who.kind === "system" && (action === "select" || who.role !== "VIEWER");
}

export interface Judge {
  readonly identities: readonly Identity[];
  readonly facts: (who: Identity) => Facts;
}

function permissionCells(perms: Permissions, on: string, j: Judge, actions: readonly Action[]): Record<string, Record<Action, Cell>> {
  const out: Record<string, Record<Action, Cell>> = {};
  for (const who of j.identities) {
    const row = {} as Record<Action, Cell>;
    for (const a of ACTIONS) row[a] = !actions.includes(a) ? NOT_APPLICABLE : bypasses(who, a) ? ALWAYS : ruleCell(perms[a], on, j.facts(who));
    out[who.id] = row;
  }
  return out;
}

const FIELD_ACTIONS: readonly Action[] = ["select", "create", "update"];

/** Defined fields that contain `name` (`a` and `a.b` for `a.b.c`, `tags` for `tags[*]`), outermost first. */
function parentsOf(fields: readonly DefineFieldStatement[], name: string): DefineFieldStatement[] {
  return fields.filter((f) => {
    const p = idiomText(f.name);
    return p !== name && (name.startsWith(`${p}.`) || name.startsWith(`${p}[`));
  });
}

function rulesOf(perms: Permissions, compat: 1 | 2, actions: readonly Action[]): Record<Action, string> {
  const out = {} as Record<Action, string>;
  for (const a of ACTIONS) out[a] = actions.includes(a) ? ruleText(perms[a], compat) : "n/a";
  return out;
}

/** The table's row: its cells, then each field's, combined with the table's and the parent fields'. */
export function tableRow(entry: TableEntry, compat: 1 | 2, j: Judge): TableRow {
  const tableCells = permissionCells(entry.def.permissions, "table", j, ACTIONS);
  const defs = [...entry.fields.values()];
  const own = new Map(defs.map((f) => [f, permissionCells(f.permissions, idiomText(f.name), j, FIELD_ACTIONS)]));
  const fields: FieldRow[] = defs.map((f) => {
    const name = idiomText(f.name);
    const chain = [...parentsOf(defs, name), f];
    const cells: Cells = Object.fromEntries(
      j.identities.map((who) => {
        const row = {} as Record<Action, Cell>;
        for (const a of ACTIONS) row[a] = FIELD_ACTIONS.includes(a) ? allOf([tableCells[who.id]![a], ...chain.map((d) => own.get(d)![who.id]![a])]) : NOT_APPLICABLE;
        return [who.id, row];
      }),
    );
    return { name, rules: rulesOf(f.permissions, compat, FIELD_ACTIONS), cells };
  });
  return { name: entry.def.name, schemafull: entry.def.schemafull, rules: rulesOf(entry.def.permissions, compat, ACTIONS), cells: tableCells, fields };
}
