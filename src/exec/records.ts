// exec/: the bridge to doc/ — a DocEnv built from a context, and permission-aware record reads.

import type { Expr } from "../ast/nodes.js";
import type { DocEnv, WriteOp } from "../doc/env.js";
import { decide, denialOf } from "../doc/decide.js";
import type { Decision, DecisionObserver, DecisionValues, Judged } from "../doc/decide.js";
import type { SchemaDefinition } from "../doc/env.js";
import { namesIn } from "./access-reach.js";
import { sessionVars } from "./expressions/params.js";
import { computeFutures } from "../doc/futures.js";
import { selectDocument, selectDocumentHidden } from "../doc/select.js";
import { checkPermissionsQuick, checkPermissionsTable } from "../doc/permissions.js";
import { newDatabaseEntry, newNamespaceEntry, newTableEntry, putIn } from "../store/catalog.js";
import type { Catalog, TableEntry } from "../store/catalog.js";
import type { IndexStore } from "../store/indexes.js";
import type { RecordStore, TableRef } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import { toMessageSql, toSql } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import type { Compat } from "./session.js";
import { bodyCtx, clientCtx, needDb, needNs } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";
import { printExpr } from "../ast/print.js";
import { checkAllowed, evaluateAsOwner, permissionsApply } from "./rbac.js";
import { defaultTableDefinition } from "./statements/define.js";
import { maintainViews } from "./views.js";

/** A DocEnv on the context's ns/db and transaction; its clauses see no client variable; field clauses keep the invoker's rights. */
export function docEnv(ctx: Ctx, opts: { standIn?: boolean } = {}): DocEnv {
  return new ContextEnv(ctx, needNs(ctx), needDb(ctx), observer(ctx, opts.standIn ? undefined : ctx.explain));
}

/**
 * What `decide` and the per-record pipeline need from a context: the actor's standing, the evaluators, and who listens —
 * the query's explain (every decision) and `--log-denials` (refusals, with the deciding clause). A stand-in read (R6) is
 * no decision of the query: only the denial log hears it, as it hears a hit's. One object of one shape per statement
 * (methods, not closures: a hot read builds it once per query).
 */
class ContextEnv implements DocEnv {
  readonly compat: Compat;
  readonly catalog: Catalog;
  readonly records: RecordStore;
  readonly indexes: IndexStore;
  readonly txn: Transaction;
  private identityVars: Record<string, Value> | undefined;
  private client: DocEnv | undefined;

  constructor(
    private readonly ctx: Ctx,
    readonly ns: string,
    readonly db: string,
    readonly observe: DecisionObserver | undefined,
  ) {
    const { catalog, records, indexes, compat } = ctx.core;
    this.compat = compat;
    this.catalog = catalog;
    this.records = records;
    this.indexes = indexes;
    this.txn = ctx.txn;
  }

  permissionsApply(write: boolean): boolean {
    return permissionsApply(this.ctx, write);
  }

  get importing(): boolean {
    return isImporting(this.ctx);
  }

  // PERMISSIONS clauses and events bypass PERMISSIONS; a field's VALUE / DEFAULT / ASSERT keeps the invoker's rights (as SurrealDB)
  evaluate(def: SchemaDefinition, clause: Expr, doc: Value, bind: Readonly<Record<string, Value>>): Promise<Value> {
    return def.kind === "DefineField" ? evaluate(clause, bodyCtx(this.ctx, { doc, bind })) : evaluateAsOwner(this.ctx, def, clause, { doc, bind });
  }

  identity(clause: Expr): DecisionValues {
    const { ctx, compat } = this;
    this.identityVars ??= sessionVars(ctx.session, compat);
    const out: Record<string, string> = {};
    for (const name of paramsIn(clause)) if (Object.hasOwn(this.identityVars, name)) out[name] = toSql(this.identityVars[name], { compat });
    return out;
  }

  printExpr(e: Expr): string {
    return printExpr(e, { compat: this.compat });
  }

  printValue(v: Value): string {
    return toMessageSql(v, { compat: this.compat });
  }

  // what an error may show is judged with the client's rights: not a decision of the query, so nobody hears it
  clientView(): DocEnv {
    const { ctx } = this;
    return (this.client ??= new ContextEnv(clientCtx(ctx.core, ctx.session, ctx.txn, ctx.vars, ctx.budget), this.ns, this.db, undefined));
  }

  ensureTable(tb: string): TableEntry {
    return ensureTable(this.ctx, tb);
  }

  maintainViews(table: TableEntry, op: WriteOp, after: ValueObject | undefined): Promise<void> {
    return maintainViews(this.ctx, table, op, after);
  }
}

/** Explain hears every decision; the denial log each refusal (not a clause's error: the statement raises it). */
function observer(ctx: Ctx, explain: ((d: Decision) => void) | undefined): DecisionObserver | undefined {
  const onDenied = ctx.core.onDenied;
  if (!explain && !onDenied) return undefined;
  return {
    all: explain !== undefined,
    decided: (d) => {
      explain?.(d);
      if (onDenied && !d.allowed && d.reason !== "where-error") onDenied(denialOf(d), ctx.session);
    },
  };
}

const PARAMS_IN = new WeakMap<Expr, readonly string[]>();

/** The `$names` a stored clause reads (a structural walk: it may find too many, never too few). */
function paramsIn(clause: Expr): readonly string[] {
  let names = PARAMS_IN.get(clause);
  if (!names) {
    const reach = { functions: new Set<string>(), params: new Set<string>() };
    namesIn(clause, reach);
    PARAMS_IN.set(clause, (names = [...reach.params]));
  }
  return names;
}

/** Does a DEFINE PARAM / DEFINE FUNCTION permission let the actor through? Its WHERE runs with the owner's rights. */
export function definitionPermits(ctx: Ctx, judged: Extract<Judged, { kind: "param" | "function" }>): Promise<boolean> {
  // (the current document stays `$this`, as it was before the decision moved to doc/)
  // (a decision reads no ns / db: a param or function may be judged outside a database)
  const env = new ContextEnv(ctx, ctx.session.ns ?? "", ctx.session.db ?? "", observer(ctx, ctx.explain));
  return decide(env, judged, "select", ctx.doc, {});
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
  const table = ctx.core.catalog.table(ns, db, rid.table);
  // an actor whom no permission binds sees the record whole, its future fields computed again
  if (!permissionsApply(ctx, false)) return doc && table ? computeFutures(docEnv(ctx), table, doc, doc) : doc;
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
    await (opts.view ?? selectDocumentHidden)(docEnv(ctx, { standIn: true }), table, standIn);
  } catch {
    // the stand-in's outcome, errors included, is dropped: the answer is the miss's
  }
}

/**
 * A write by id (UPDATE / DELETE) that found no record does the judging a hit on a record the client may not see does,
 * and drops it (attack pass 9, G2): on a stand-in `{ id }`, the action's quick check (NONE stops both), with a WHERE
 * the select permissions its view needs (a hidden record stops there), then the action's table permission. Only where
 * permissions apply.
 */
export async function writeMissLikeHit(ctx: Ctx, table: TableEntry | undefined, action: "update" | "delete", rid: RecordId, where: boolean): Promise<void> {
  if (!table || !permissionsApply(ctx, false)) return;
  const env = docEnv(ctx, { standIn: true });
  const standIn = { id: rid };
  try {
    if (env.compat === 2 && !checkPermissionsQuick(env, table, action, standIn)) return;
    if (where && !(await selectDocument(env, table, standIn))) return;
    await checkPermissionsTable(env, table, action, standIn, { before: standIn, after: standIn });
  } catch {
    // the stand-in's outcome, errors included, is dropped: the answer is the miss's
  }
}

/** After OPTION IMPORT: never for a client whom PERMISSIONS bind (OPTION needs an EDITOR; this holds whatever reaches here). */
export function isImporting(ctx: Ctx): boolean {
  return ctx.importing === true && !permissionsApply(ctx, true);
}
