// exec/: table views (DEFINE TABLE … AS SELECT …) kept up to date on every write to a table they read, with the schema's
// rights: a plain view mirrors each matching record under the same key, a grouped view holds one record per group.

import type { DefineTableStatement, SelectStatement } from "../ast/nodes.js";
import type { WriteOp } from "../doc/env.js";
import { writeDocument } from "../doc/pipeline.js";
import { QueryError, queryError } from "../errors/index.js";
import { redefine, type DatabaseEntry, type TableEntry } from "../store/catalog.js";
import { cast, isTruthy, valueEquals } from "../value/index.js";
import { RecordId, isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { needDb, needNs, ownerBodyError, ownerCtx, withCtx } from "./context.js";
import { permissionsApply } from "./rbac.js";
import { evaluate } from "./expressions/evaluate.js";
import { valueKeyOf } from "./helpers.js";
import { project } from "./output.js";
import { docEnv } from "./records.js";
import { groupRows, visibleDocuments } from "./statements/select.js";
import { runUpdate } from "./statements/update.js";

type View = DefineTableStatement & { readonly view: SelectStatement };

/** The tables a view reads. */
function sourcesOf(view: SelectStatement): string[] {
  return view.what.flatMap((w) => (w.kind === "Table" ? [w.name] : []));
}

/** The views reading table `tb` (INFO FOR TABLE lists them). */
export function viewsOn(dbEntry: DatabaseEntry | undefined, tb: string): View[] {
  const out: View[] = [];
  if (dbEntry === undefined) return out;
  for (const t of dbEntry.tables.values()) if (t.def.view !== undefined && sourcesOf(t.def.view).includes(tb)) out.push(t.def as View);
  return out;
}

/** 2.x REMOVE TABLE: the views reading the table stop being views (their AS clause goes; 1.x keeps it). */
export function detachViews(ctx: Ctx, dbEntry: DatabaseEntry, tb: string): void {
  if (ctx.core.compat === 1) return;
  for (const view of viewsOn(dbEntry, tb)) redefine(ctx.txn, dbEntry.tables, view.name, { ...view, view: undefined });
}

/** 2.x: a view's tables must exist when it is defined. */
export function checkViewSources(ctx: Ctx, dbEntry: DatabaseEntry, def: DefineTableStatement): void {
  if (def.view === undefined || ctx.core.compat === 1) return;
  for (const tb of sourcesOf(def.view)) if (!dbEntry.tables.has(tb)) throw new QueryError("NotFound", `The table '${tb}' does not exist`);
}

/** After a write to `source`: each view reading it brought up to date (its own writes update the views reading it in turn). */
export async function maintainViews(ctx: Ctx, source: TableEntry, op: WriteOp, after: ValueObject | undefined): Promise<void> {
  const dbEntry = ctx.core.catalog.db(needNs(ctx), needDb(ctx));
  // an update that changed nothing touches no view (a view's own unchanged rewrite ends a cycle of views)
  if (!dbEntry || (op.action === "update" && valueEquals(op.before, after, { compat: ctx.core.compat }))) return;
  for (const view of viewsOn(dbEntry, source.def.name)) {
    const owner = ownerCtx(ctx, view);
    try {
      if (view.view.group) await refreshGroups(owner, view, [op.before, after]);
      else await mirror(owner, view, op.rid, after);
    } catch (e) {
      // the view read with the schema's rights: a client whom PERMISSIONS bind gets no data from its error (A9)
      throw permissionsApply(ctx, false) ? ownerBodyError(view, e) : e;
    }
  }
}

/** A view (re)defined: its tables' records written again (as SurrealDB's `UPDATE <table>`), then its records made from them. */
export async function populateView(ctx: Ctx, def: DefineTableStatement): Promise<void> {
  if (def.view === undefined) return;
  const view = def as View;
  // each record goes through its fields, events and other views again; a field that fails fails the definition
  for (const tb of sourcesOf(view.view)) {
    await runUpdate({ kind: "Update", only: false, what: [{ kind: "Table", name: tb }], data: undefined, cond: undefined, output: { kind: "None" }, timeout: undefined, parallel: false }, ctx);
  }
  const owner = ownerCtx(ctx, view);
  const docs = await sourceDocuments(owner, view);
  if (view.view.group) await refreshGroups(owner, view, docs);
  else for (const doc of docs) await mirror(owner, view, doc.id as RecordId, doc);
}

/** Every record of the view's tables that its WHERE keeps. */
async function sourceDocuments(ctx: Ctx, view: View): Promise<ValueObject[]> {
  const out: ValueObject[] = [];
  for (const { doc } of await visibleDocuments(view.view, ctx)) if (isValueObject(doc) && (await kept(ctx, view, doc))) out.push(doc);
  return out;
}

async function kept(ctx: Ctx, view: View, doc: ValueObject): Promise<boolean> {
  return !view.view.cond || isTruthy(await evaluate(view.view.cond, withCtx(ctx, { doc })), { compat: ctx.core.compat });
}

/** A plain view: the record's projection under the same key while WHERE keeps it, removed otherwise. */
async function mirror(ctx: Ctx, view: View, rid: RecordId, after: ValueObject | undefined): Promise<void> {
  const vid = new RecordId(view.name, rid.id);
  const row = after !== undefined && (await kept(ctx, view, after)) ? await project(view.view.fields, after, ctx) : undefined;
  await writeRow(ctx, vid, isValueObject(row) ? row : undefined);
}

/** A grouped view: the groups of the given records (before and after a write) computed again from their members. */
async function refreshGroups(ctx: Ctx, view: View, docs: readonly (ValueObject | undefined)[]): Promise<void> {
  const keys = new Map<string, Value[]>();
  for (const doc of docs) if (doc !== undefined && (await kept(ctx, view, doc))) keys.set(...(await groupKey(ctx, view, doc)));
  if (keys.size === 0) return;
  const members = new Map<string, ValueObject[]>();
  for (const doc of await sourceDocuments(ctx, view)) {
    const [key] = await groupKey(ctx, view, doc);
    if (keys.has(key)) members.set(key, [...(members.get(key) ?? []), doc]);
  }
  for (const [key, values] of keys) {
    const list = members.get(key) ?? [];
    // 1.x keeps a mean as sum and count: emptying its group divides by zero, and the write fails
    if (list.length === 0 && ctx.core.compat === 1 && view.view.fields.items.some((f) => f.kind === "Single" && f.expr.kind === "Call" && f.expr.name === "math::mean")) {
      throw queryError("TryDiv", "0", "0");
    }
    const row = list.length === 0 ? undefined : (await groupRows(view.view, list, ctx))[0];
    await writeRow(ctx, new RecordId(view.name, values), isValueObject(row) ? viewAggregates(ctx, view, row) : undefined);
  }
}

async function groupKey(ctx: Ctx, view: View, doc: ValueObject): Promise<[string, Value[]]> {
  const group = view.view.group!;
  const values = group.all ? [] : await Promise.all(group.fields.map((f) => evaluate(f, withCtx(ctx, { doc }))));
  return [valueKeyOf(values), values];
}

/** 2.x keeps a view's `math::mean` as a decimal. */
function viewAggregates(ctx: Ctx, view: View, row: ValueObject): ValueObject {
  if (ctx.core.compat === 1) return row;
  const out = { ...row };
  for (const f of view.view.fields.items) {
    if (f.kind !== "Single" || f.expr.kind !== "Call" || f.expr.name !== "math::mean") continue;
    const name = f.alias?.parts.length === 1 && f.alias.parts[0]!.kind === "Field" ? f.alias.parts[0]!.name : "math::mean";
    if (typeof out[name] === "number" || typeof out[name] === "bigint") out[name] = cast(out[name], { kind: "Basic", name: "decimal" });
  }
  return out;
}

/** Write one view record (NONE: remove it) through the record pipeline, with the schema's rights. */
async function writeRow(ctx: Ctx, vid: RecordId, row: ValueObject | undefined): Promise<void> {
  const env = docEnv(ctx);
  const before = await ctx.core.records.get(ctx.txn, { ns: env.ns, db: env.db, tb: vid.table }, vid);
  if (row === undefined) {
    if (before !== undefined) await writeDocument(env, { action: "delete", rid: vid, before });
    return;
  }
  await writeDocument(env, { action: before ? "update" : "create", rid: vid, before, data: async () => ({ ...row, id: vid }) });
}
