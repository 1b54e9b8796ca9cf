// exec/statements: RELATE from->edge->to (minimal): one edge record per pair, with `in` and `out` set (an existing edge keeps its own).

import type { RelateStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import type { DocViews } from "../../doc/write.js";
import { queryError } from "../../errors/index.js";
import { toSql, valueEquals } from "../../value/index.js";
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

/** `in` and `out` of the edge: an existing edge keeps its own (2.x: naming others is an error, reached only with update permission). */
function edgeEnds(before: ValueObject | undefined, from: RecordId, to: RecordId, ctx: Ctx): { in: Value; out: Value } {
  if (!before) return { in: from, out: to };
  if (ctx.core.compat === 2) {
    const opts = { compat: ctx.core.compat };
    if (!valueEquals(before.in, from, opts)) throw queryError("InOverride", toSql(before.in, opts));
    if (!valueEquals(before.out, to, opts)) throw queryError("OutOverride", toSql(before.out, opts));
  }
  return { in: before.in, out: before.out };
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
      const before = await ctx.core.records.get(ctx.txn, { ns, db, tb: rid.table }, rid);
      // an existing edge meets its update permission before the data clause runs
      const data = async (views: DocViews) => ({ ...(await applyData(s.data, views, ctx)), ...edgeEnds(before, f, t, ctx) });
      const res = await writeDocument(docEnv(ctx), { action: before ? "update" : "create", rid, before, data });
      await outputs.add(res);
    }
  }
  return outputs.value(s.only);
}
