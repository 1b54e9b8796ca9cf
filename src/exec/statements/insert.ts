// exec/statements: INSERT [IGNORE] INTO table (VALUES … | objects) [ON DUPLICATE KEY UPDATE …].

import type { DataClause, InsertStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import type { DataStep, DocViews, WriteRequest, WriteResult } from "../../doc/write.js";
import type { DocEnv } from "../../doc/env.js";
import { IndexClash } from "../../doc/indexes.js";
import { queryError } from "../../errors/index.js";
import { formatRecordId, toSql } from "../../value/index.js";
import { RecordId, Table, isValueObject } from "../../value/types.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { applyData, placePath } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { recordIdFor } from "../record-key.js";
import { docEnv } from "../records.js";
import { setPath } from "../../doc/paths.js";
import { checkRelationEnds, edgeEnds } from "./relate.js";
import { WriteOutputs } from "./write.js";

async function rows(s: InsertStatement, ctx: Ctx): Promise<ValueObject[]> {
  if (s.data.kind === "Values") {
    const out: ValueObject[] = [];
    for (const row of s.data.rows) {
      let obj: ValueObject = {};
      for (let i = 0; i < s.data.fields.length; i++) obj = setPath(obj, placePath(s.data.fields[i]!), await evaluate(row[i]!, ctx));
      out.push(obj);
    }
    return out;
  }
  const v = await evaluate(s.data.value, ctx);
  const list = Array.isArray(v) ? v : [v];
  return list.map((o) => {
    if (!isValueObject(o)) throw queryError("InsertStatement", String(o));
    return o;
  });
}

export async function runInsert(s: InsertStatement, ctx: Ctx): Promise<Value> {
  const into = s.into ? (s.into.kind === "Table" ? new Table(s.into.name) : await evaluate(s.into, ctx)) : undefined;
  const outputs = new WriteOutputs(s.output, ctx, "After");
  const env = docEnv(ctx);
  for (const row of await rows(s, ctx)) {
    // 1. the record id: the row's `id` (its key, in the target table), else random in the target table
    const given = row.id;
    let rid: RecordId;
    if (into instanceof Table) rid = recordIdFor(into.name, given, ctx.core.compat);
    else if (given instanceof RecordId) rid = given;
    else throw queryError("InsertStatement", undefined);
    // 2. INSERT RELATION: the row's ends are record ids (that exist, for an ENFORCED table)
    if (s.relation) await checkRelationEnds(ctx, rid.table, [rowEnd(row, "in", ctx), rowEnd(row, "out", ctx)]);
    // 3. the document pipeline, as a create or (for an existing record) as the version does it
    const req = await insertRequest(s, ctx, rid, row);
    if (req) await outputs.add(await (req.action === "create" && clashRetried(s, ctx, given) ? createOrRetry(s, ctx, env, req, row) : writeDocument(env, req)));
  }
  return outputs.value(false);
}

/** An INSERT RELATION row's `in` or `out`: a record id. */
function rowEnd(row: ValueObject, end: "in" | "out", ctx: Ctx): RecordId {
  const v = row[end];
  if (v instanceof RecordId) return v;
  throw queryError("InsertRelationEnd", end, v === undefined ? "NONE" : toSql(v, { compat: ctx.core.compat }));
}

/**
 * Whether a new row that a unique index refuses goes on (SurrealDB's retry on the record it clashes with): 1.x always,
 * 2.x for INSERT IGNORE (the row is skipped) and for ON DUPLICATE KEY UPDATE of a row that names no id.
 */
function clashRetried(s: InsertStatement, ctx: Ctx, given: Value): boolean {
  if (ctx.core.compat === 1 || s.ignore) return true;
  return s.update !== undefined && given === undefined;
}

/** The row's create; at a unique-index clash, undone, then the clashing record is updated as an existing id would be (IGNORE in 2.x: skipped). */
async function createOrRetry(s: InsertStatement, ctx: Ctx, env: DocEnv, req: WriteRequest, row: ValueObject): Promise<WriteResult | undefined> {
  const mark = ctx.txn.savepoint();
  try {
    return await writeDocument(env, req);
  } catch (e) {
    if (!(e instanceof IndexClash)) throw e;
    ctx.txn.rollbackTo(mark);
    if (ctx.core.compat === 2 && s.ignore) return undefined;
    const existing = await ctx.core.records.get(ctx.txn, { ns: needNs(ctx), db: needDb(ctx), tb: e.clash.table }, e.clash);
    if (!existing) throw e;
    return writeDocument(env, s.update ? duplicateUpdate(s.update, ctx, e.clash, existing, row) : { action: "update", rid: e.clash, before: existing });
  }
}

/** ON DUPLICATE KEY UPDATE of the stored record `rid`, `$input` the row. */
function duplicateUpdate(update: NonNullable<InsertStatement["update"]>, ctx: Ctx, rid: RecordId, existing: ValueObject, row: ValueObject): WriteRequest {
  const set: DataClause = { kind: "Set", items: update };
  const data = (views: DocViews) => applyData(set, views, withCtx(ctx, { vars: ctx.vars.engine({ input: row }) }));
  return { action: "update", rid, before: existing, data };
}

/** The write one row asks for; NONE when INSERT IGNORE (2.x) skips an existing record. */
async function insertRequest(s: InsertStatement, ctx: Ctx, rid: RecordId, row: ValueObject): Promise<WriteRequest | undefined> {
  const req = await rowRequest(s, ctx, rid, row);
  return req && { ...req, makes: s.relation ? "edge" : "record" };
}

async function rowRequest(s: InsertStatement, ctx: Ctx, rid: RecordId, row: ValueObject): Promise<WriteRequest | undefined> {
  const existing = await ctx.core.records.get(ctx.txn, { ns: needNs(ctx), db: needDb(ctx), tb: rid.table }, rid);
  const create = async () => ({ ...row, id: rid });
  // a new record
  if (!existing) return { action: "create", rid, before: undefined, data: create };
  // INSERT RELATION: the ends it names are checked against the stored ones first, as RELATE's are
  const ends = (req: WriteRequest): WriteRequest => (s.relation ? { ...req, data: relateData(req, existing, row, ctx) } : req);
  // ON DUPLICATE KEY UPDATE: an update of the stored record, `$input` the row (2.x: a create is tried first)
  if (s.update) return ends({ ...duplicateUpdate(s.update, ctx, rid, existing, row), createFirst: { data: create, updateAfterFieldError: false } });
  // 1.x: an update without data (the update permission decides whether the stored record is returned)
  if (ctx.core.compat === 1) return { action: "update", rid, before: existing };
  // 2.x: IGNORE skips; INSERT RELATION leaves the record as it is; otherwise a create, whose permission is met before "already exists" is reported
  if (s.ignore) return undefined;
  if (s.relation) return ends({ action: "update", rid, before: existing });
  const conflict = () => queryError("RecordExists", formatRecordId(rid, { compat: ctx.core.compat }));
  return { action: "create", rid, before: undefined, data: create, conflict, conflictAfterIndexes: true };
}

/** INSERT RELATION onto a stored record: its data clause, after the row's ends are held to the stored ones (edgeEnds). */
function relateData(req: WriteRequest, existing: ValueObject, row: ValueObject, ctx: Ctx): DataStep {
  return async (views) => {
    edgeEnds(existing, row.in, row.out, ctx, views.seen);
    return req.data ? req.data(views) : views.full;
  };
}
