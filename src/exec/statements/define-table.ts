// exec/statements: what DEFINE TABLE and DEFINE FIELD do beyond storing the definition — a relation table's `in` /
// `out` fields, kept in step with its IN / OUT types both ways.

import type { DefineFieldStatement, DefineTableStatement, IdiomExpr, TypeKind } from "../../ast/nodes.js";
import { queryError } from "../../errors/index.js";
import { putIn, redefine, type DatabaseEntry, type TableEntry } from "../../store/catalog.js";
import type { CatalogTxn } from "../../store/catalog.js";

const FULL = { kind: "Full" } as const;

/** `DEFINE FIELD in|out ON table TYPE record<…> PERMISSIONS FULL`, as SurrealDB stores it with a relation table. */
function endField(table: string, end: "in" | "out", tables: readonly string[]): DefineFieldStatement {
  const name: IdiomExpr = { kind: "Idiom", parts: [{ kind: "Field", name: end }] };
  return {
    kind: "DefineField",
    name,
    table,
    ifNotExists: false,
    overwrite: false,
    comment: undefined,
    flexible: false,
    type: { kind: "Record", tables },
    readonly: false,
    value: undefined,
    assert: undefined,
    default: undefined,
    defaultAlways: false,
    permissions: { select: FULL, create: FULL, update: FULL, delete: FULL },
    permissionsWritten: false,
  };
}

/** A relation table (re)defined: its `in` and `out` fields from its IN / OUT types (a NORMAL or ANY table keeps what it had). */
export function defineRelationFields(txn: CatalogTxn, table: TableEntry, def: DefineTableStatement): void {
  const t = def.tableType;
  if (t.kind !== "Relation") return;
  putIn(txn, table.fields, "in", endField(def.name, "in", t.from));
  putIn(txn, table.fields, "out", endField(def.name, "out", t.to));
}

/**
 * DEFINE FIELD in / out on a relation table: the table's IN / OUT types follow the field's record type (another
 * type is refused; no TYPE leaves them).
 */
export function followRelationField(txn: CatalogTxn, dbEntry: DatabaseEntry, table: TableEntry, fd: DefineFieldStatement): void {
  const t = table.def.tableType;
  const part = fd.name.parts.length === 1 ? fd.name.parts[0] : undefined;
  const end = part?.kind === "Field" && (part.name === "in" || part.name === "out") ? part.name : undefined;
  if (t.kind !== "Relation" || end === undefined || fd.type === undefined) return;
  const tables = recordTables(fd.type);
  if (tables === undefined) throw queryError("RelationEndType", end);
  const tableType = end === "in" ? { ...t, from: tables } : { ...t, to: tables };
  redefine(txn, dbEntry.tables, table.def.name, { ...table.def, tableType });
}

function recordTables(type: TypeKind): readonly string[] | undefined {
  return type.kind === "Record" ? type.tables : undefined;
}
