// exec/statements: RELATE from->edge->to (minimal): one edge record per pair, with `in` and `out` set.

import type { RelateStatement } from "../../ast/nodes.js";
import { writeDocument, type DocViews } from "../../doc/pipeline.js";
import { queryError } from "../../errors/index.js";
import { randomRecordKey } from "../../value/index.js";
import { RecordId, Table } from "../../value/types.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { applyData } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { docEnv } from "../records.js";
import { WriteOutputs } from "./write.js";

const ids = (v: Value): RecordId[] => (Array.isArray(v) ? v.flat() : [v]).filter((x): x is RecordId => x instanceof RecordId);

export async function runRelate(s: RelateStatement, ctx: Ctx): Promise<Value> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const from = ids(await evaluate(s.from, ctx));
  const to = ids(await evaluate(s.to, ctx));
  const through = s.through.kind === "Table" ? new Table(s.through.name) : await evaluate(s.through, ctx);
  const outputs = new WriteOutputs(s.output, ctx, "After");
  for (const f of from) {
    for (const t of to) {
      const rid = through instanceof RecordId ? through : through instanceof Table ? new RecordId(through.name, randomRecordKey()) : undefined;
      if (!rid) throw queryError("RelateStatement", String(through));
      const before = ctx.core.records.get({ ns, db, tb: rid.table }, rid);
      // an existing edge meets its update permission before the data clause runs
      const data = async (views: DocViews) => {
        return { ...(await applyData(s.data, views, ctx)), in: f, out: t };
      };
      const res = await writeDocument(docEnv(ctx), { action: before ? "update" : "create", rid, before, data });
      await outputs.add(res);
    }
  }
  return outputs.value(s.only);
}
