// exec/statements: RELATE from->edge->to (minimal): one edge record per pair, with `in` and `out` set (an existing edge keeps its own).

import type { RelateStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import type { DocViews } from "../../doc/write.js";
import { queryError } from "../../errors/index.js";
import { isEdge } from "../../store/records.js";
import { formatRecordId, toSql, valueEquals } from "../../value/index.js";
import { RecordId, Table } from "../../value/types.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { applyData } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { checkDataId, dataId, recordIdFor } from "../record-key.js";
import { docEnv } from "../records.js";
import { WriteOutputs } from "./write.js";

const ids = (v: Value): RecordId[] => (Array.isArray(v) ? v.flat() : [v]).filter((x): x is RecordId => x instanceof RecordId);

/**
 * `in` and `out` of the edge: an existing record keeps its own (2.x: naming others is an error, reached only with update
 * permission; 1.x: only an edge, a record that was none takes the new ends). The error prints the stored end, as SurrealDB does, only when the client may select it (`seen`: the
 * edge as it sees it); an end hidden from it answers the error whether or not the statement names it, so neither the
 * text nor the outcome tells the hidden value (stricter than SurrealDB 2.6.0: attack pass 8, F1).
 */
export function edgeEnds(before: ValueObject | undefined, from: Value, to: Value, ctx: Ctx, seen: ValueObject): { in: Value; out: Value } {
  if (!before || (ctx.core.compat === 1 && !isEdge(before))) return { in: from, out: to };
  if (ctx.core.compat === 2) {
    const opts = { compat: ctx.core.compat };
    for (const [end, named, code] of [["in", from, "InOverride"], ["out", to, "OutOverride"]] as const) {
      const stored = before[end];
      if (!valueEquals(seen[end], stored, opts)) throw queryError(code, "a value");
      if (!valueEquals(stored, named, opts)) throw queryError(code, toSql(stored, opts));
    }
  }
  return { in: before.in, out: before.out };
}

/** An ENFORCED relation table's ends must exist (checked before the write and its permissions, as SurrealDB does). */
export async function checkRelationEnds(ctx: Ctx, tb: string, ends: readonly RecordId[]): Promise<void> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const t = ctx.core.catalog.table(ns, db, tb)?.def.tableType;
  if (t?.kind !== "Relation" || !t.enforced) return;
  for (const end of ends) {
    const found = await ctx.core.records.get(ctx.txn, { ns, db, tb: end.table }, end);
    if (found === undefined) throw queryError("IdNotFound", formatRecordId(end, { compat: ctx.core.compat }));
  }
}

export async function runRelate(s: RelateStatement, ctx: Ctx): Promise<Value> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const from = ids(await evaluate(s.from, ctx));
  const to = ids(await evaluate(s.to, ctx));
  const through = s.through.kind === "Table" ? new Table(s.through.name) : await evaluate(s.through, ctx);
  const outputs = new WriteOutputs(s.output, ctx, "After");
  for (const f of from) {
    for (const t of to) {
      // the edge's id: a named edge (2.x: which the data's id must name; 1.x ignores it), else the data's id or a random one in the edge table
      const given = await dataId(s.data, ctx);
      const rid = through instanceof RecordId ? through : through instanceof Table ? recordIdFor(through.name, given, ctx.core.compat) : undefined;
      if (!rid) throw queryError("RelateStatement", String(through));
      if (through instanceof RecordId && ctx.core.compat === 2) checkDataId(rid, given, 2);
      await checkRelationEnds(ctx, rid.table, [f, t]);
      const before = await ctx.core.records.get(ctx.txn, { ns, db, tb: rid.table }, rid);
      // an existing edge meets its update permission before the data clause runs
      const data = async (views: DocViews) => ({ ...(await applyData(s.data, views, ctx)), ...edgeEnds(before, f, t, ctx, views.seen) });
      const res = await writeDocument(docEnv(ctx), { action: before ? "update" : "create", rid, before, data, makes: "edge" });
      await outputs.add(res);
    }
  }
  return outputs.value(s.only);
}
