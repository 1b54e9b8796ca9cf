// doc/: a table's TYPE against the write — NORMAL tables take no edges, RELATION tables nothing but edges.

import { printTableKind, tableTypeOf } from "../ast/print.js";
import { queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { formatRecordId } from "../value/record.js";
import type { RecordId } from "../value/types.js";

/** What a statement writes: a record (CREATE, INSERT, UPSERT) or an edge (RELATE, INSERT RELATION); UPDATE is not checked. */
export type RecordKind = "record" | "edge";

/** Refuse a record the table's TYPE does not take, in SurrealDB's words (ANY takes both). */
export function checkTableType(table: TableEntry, rid: RecordId, makes: RecordKind | undefined, compat: 1 | 2): void {
  if (makes === undefined) return;
  const t = tableTypeOf(table.def, compat);
  if (t.kind === "Any" || (t.kind === "Relation") === (makes === "edge")) return;
  throw queryError("TableCheck", formatRecordId(rid, { compat }), makes === "edge", printTableKind(t, { compat }), compat);
}
