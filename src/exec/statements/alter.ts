// exec/statements: ALTER TABLE (2.x) — the stored table definition with the written clauses replaced.

import type { AlterTableStatement, DefineTableStatement } from "../../ast/nodes.js";
import { tableTypeOf } from "../../ast/print.js";
import { QueryError } from "../../errors/index.js";
import { redefine } from "../../store/catalog.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { checkAllowed } from "../rbac.js";
import { defineRelationFields } from "./define-table.js";

/** The definition with each clause the statement wrote in place of the stored one (the stored TYPE as it stood: SCHEMAFULL alone changes no ANY). */
function altered(def: DefineTableStatement, s: AlterTableStatement, compat: 1 | 2): DefineTableStatement {
  return {
    ...def,
    drop: s.drop ?? def.drop,
    schemafull: s.schemafull ?? def.schemafull,
    tableType: s.tableType ?? tableTypeOf(def, compat),
    tableTypeWritten: true,
    ...(s.permissions !== undefined ? { permissions: s.permissions, permissionsWritten: true } : {}),
    comment: s.comment === undefined ? def.comment : (s.comment ?? undefined),
    changefeed: s.changefeed === undefined ? def.changefeed : (s.changefeed ?? undefined),
  };
}

export async function runAlter(s: AlterTableStatement, ctx: Ctx): Promise<Value> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  // 1. the actor may edit tables of this database
  checkAllowed(ctx, "Edit", { kind: "Table", level: "DATABASE", ns, db });
  // 2. the table exists (IF EXISTS: nothing to do otherwise)
  const dbEntry = ctx.core.catalog.db(ns, db);
  const table = dbEntry?.tables.get(s.name);
  if (!dbEntry || !table) {
    if (s.ifExists) return undefined;
    throw new QueryError("NotFound", `The table '${s.name}' does not exist`);
  }
  // 3. the new definition; a relation type (re)defines the `in` / `out` fields
  const def = altered(table.def, s, ctx.core.compat);
  redefine(ctx.txn, dbEntry.tables, s.name, def);
  if (s.tableType !== undefined) defineRelationFields(ctx.txn, table, def);
  return undefined;
}
