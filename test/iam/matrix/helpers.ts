// Test helper: the access matrix of SurrealQL text, loaded as `surql-auth matrix` loads files.

import { SurqlAuth } from "../../../src/index.js";
import { accessMatrix } from "../../../src/iam/matrix/index.js";
import type { Action, Cell, DatabaseMatrix, Matrix } from "../../../src/iam/matrix/types.js";

export async function matrixOf(text: string, compat: 1 | 2 = 2): Promise<Matrix> {
  const db = await SurqlAuth.open({ compat });
  await db.importText(text);
  return accessMatrix(db.engine.catalog, { compat });
}

/** `USE NS app DB app;` and the text. */
export const inApp = (text: string): string => `USE NS app DB app;\n${text}`;

/** The cell of identity `who` for `action` on `table` (or `table.field`) of the first database. */
export function cell(m: Matrix | DatabaseMatrix, path: string, who: string, action: Action): Cell {
  const d = "databases" in m ? m.databases[0]! : m;
  const [table, field] = path.split(/\.(.*)/s) as [string, string | undefined];
  const t = d.tables.find((x) => x.name === table);
  if (!t) throw new Error(`no table ${table}`);
  const cells = field === undefined ? t.cells : t.fields.find((f) => f.name === field)?.cells;
  if (!cells?.[who]) throw new Error(`no cells for ${path} / ${who}`);
  return cells[who][action];
}

/** A cell in short: `always`, `never`, `never*` (decided) or the conditions joined by ` & `. */
export function short(c: Cell): string {
  if (c.decision === "conditional") return c.conditions.map((x) => (x.on === "table" ? x.text : `${x.on}: ${x.text}`)).join(" & ");
  return `${c.decision}${c.decided ? "*" : ""}`;
}

/** Action → short cell for one identity. */
export function row(m: Matrix, path: string, who: string): Record<Action, string> {
  return {
    select: short(cell(m, path, who, "select")),
    create: short(cell(m, path, who, "create")),
    update: short(cell(m, path, who, "update")),
    delete: short(cell(m, path, who, "delete")),
  };
}
