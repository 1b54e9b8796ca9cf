// exec/: the bridge to doc/ — a DocEnv built from a context, and permission-aware record reads.

import type { Expr } from "../ast/nodes.js";
import type { DocEnv } from "../doc/env.js";
import { selectDocument, selectDocumentHidden } from "../doc/pipeline.js";
import { newDatabaseEntry, newNamespaceEntry, newTableEntry, putIn } from "../store/catalog.js";
import type { TableEntry } from "../store/catalog.js";
import type { TableRef } from "../store/records.js";
import { toSql } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { bodyCtx, clientCtx, needDb, needNs } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";
import { printExpr } from "../ast/print.js";
import { checkAllowed, evaluateAsOwner, permissionsApply } from "./rbac.js";
import { defaultTableDefinition } from "./statements/define.js";

/** A DocEnv on the context's ns/db and transaction; its clauses see no client variable; field clauses keep the invoker's rights. */
export function docEnv(ctx: Ctx): DocEnv {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const { catalog, records, indexes, compat, onDenied } = ctx.core;
  return {
    catalog,
    records,
    indexes,
    txn: ctx.txn,
    compat,
    ns,
    db,
    permissionsApply: (write) => permissionsApply(ctx, write),
    denied: onDenied && ((d) => onDenied(d, ctx.session)),
    clientView: () => docEnv(clientCtx(ctx.core, ctx.session, ctx.txn, ctx.vars, ctx.budget)),
    // PERMISSIONS clauses and events bypass PERMISSIONS; a field's VALUE / DEFAULT / ASSERT keeps the invoker's rights (as SurrealDB)
    evaluate: (def, clause: Expr, doc: Value, bind) => (def.kind === "DefineField" ? evaluate(clause, bodyCtx(ctx, { doc, bind })) : evaluateAsOwner(ctx, def, clause, { doc, bind })),
    ensureTable: (tb) => ensureTable(ctx, tb),
    printExpr: (e) => printExpr(e, { compat }),
    printValue: (v) => toSql(v, { compat }),
  };
}

/** The table's entry; a missing table is created (PERMISSIONS NONE) when the actor may define tables. */
export function ensureTable(ctx: Ctx, tb: string): TableEntry {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const existing = ctx.core.catalog.table(ns, db, tb);
  if (existing) return existing;
  checkAllowed(ctx, "Edit", { kind: "Table", level: "DATABASE", ns, db }, tb);
  const dbEntry = ensureDatabase(ctx, ns, db);
  const entry = newTableEntry(ns, db, defaultTableDefinition(tb));
  putIn(ctx.txn, dbEntry.tables, tb, entry);
  return entry;
}

/** The namespace and database entries, created on first use as SurrealDB does. */
export function ensureDatabase(ctx: Ctx, ns: string, db: string) {
  const { catalog } = ctx.core;
  let nsEntry = catalog.namespaces.get(ns);
  if (!nsEntry) {
    nsEntry = newNamespaceEntry({ kind: "DefineNamespace", name: ns, ifNotExists: false, overwrite: false, comment: undefined });
    putIn(ctx.txn, catalog.namespaces, ns, nsEntry);
  }
  let dbEntry = nsEntry.databases.get(db);
  if (!dbEntry) {
    dbEntry = newDatabaseEntry(ns, { kind: "DefineDatabase", name: db, ifNotExists: false, overwrite: false, comment: undefined, changefeed: undefined });
    putIn(ctx.txn, nsEntry.databases, db, dbEntry);
  }
  return dbEntry;
}

/** Read a record as the actor may see it (NONE when missing or denied). */
export async function fetchRecord(rid: RecordId, ctx: Ctx): Promise<ValueObject | undefined> {
  return readRecord(rid, ctx, selectDocument);
}

/** Read a record as a client's WHERE sees it, SELECT's view in this compat (NONE when missing or denied). */
export async function fetchRecordForCondition(rid: RecordId, ctx: Ctx): Promise<ValueObject | undefined> {
  return readRecord(rid, ctx, async (env, table, doc) => (await selectDocumentHidden(env, table, doc))?.doc);
}

type View = (env: DocEnv, table: TableEntry | undefined, doc: ValueObject) => Promise<ValueObject | undefined>;

async function readRecord(rid: RecordId, ctx: Ctx, view: View): Promise<ValueObject | undefined> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const doc = await ctx.core.records.get(ctx.txn, { ns, db, tb: rid.table }, rid);
  if (!permissionsApply(ctx, false)) return doc;
  const table = ctx.core.catalog.table(ns, db, rid.table);
  if (doc) return view(docEnv(ctx), table, doc);
  await missLikeHit(ctx, table, { id: rid }, { view });
  return undefined;
}

/**
 * A read that found nothing (by id, link or indexed value) does the work a hit on a record the client may not see does,
 * and drops it (attack R6: response time told a hidden hit from a miss): a stand-in record — the looked-up id, or the
 * looked-up value at the indexed field — is fetched when the miss read no record yet (`fetchFrom`) and put through the
 * select permissions as a hit would be; its outcome and any error are dropped. Only where permissions apply.
 */
export async function missLikeHit(
  ctx: Ctx,
  table: TableEntry | undefined,
  standIn: ValueObject & { id: RecordId },
  opts: { fetchFrom?: TableRef; view?: View } = {},
): Promise<void> {
  if (!table || !permissionsApply(ctx, false)) return;
  try {
    if (opts.fetchFrom) await ctx.core.records.get(ctx.txn, opts.fetchFrom, standIn.id);
    await (opts.view ?? selectDocumentHidden)(docEnv(ctx), table, standIn);
  } catch {
    // the stand-in's outcome, errors included, is dropped: the answer is the miss's
  }
}
