// exec/statements: CREATE — per target: new record id → document pipeline (permission, data clause, fields) → RETURN output.

import type { CreateStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import type { DocViews } from "../../doc/write.js";
import { queryError } from "../../errors/index.js";
import { formatRecordId, toSql } from "../../value/index.js";
import { RecordId } from "../../value/types.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { applyData } from "../data.js";
import { evaluateSources } from "../iterate.js";
import { checkDataId, dataId, recordIdFor } from "../record-key.js";
import { docEnv } from "../records.js";
import { WriteOutputs } from "./write.js";

export async function runCreate(s: CreateStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && sources.length !== 1) throw queryError("SingleOnlyOutput");
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const outputs = new WriteOutputs(s.output, ctx, "After");
  for (const src of sources) {
    // 1. the new record's id: the one the data names, else random; a named record must be the data's id
    const given = await dataId(s.data, ctx);
    let rid: RecordId;
    if (src.kind === "Table") rid = recordIdFor(src.tb, given, ctx.core.compat);
    else if (src.kind === "Record") checkDataId((rid = src.rid), given, ctx.core.compat);
    else throw queryError("InvalidStatementTarget", toSql(src.kind === "Range" ? new RecordId(src.tb, src.range) : src.value, { compat: ctx.core.compat }), "CREATE", ctx.core.compat);
    // 2. it must not exist yet (reported after the permission checks, as SurrealDB does)
    const exists = (await ctx.core.records.get(ctx.txn, { ns, db, tb: rid.table }, rid)) !== undefined;
    const conflict = () => queryError("RecordExists", formatRecordId(rid, { compat: ctx.core.compat }));
    // 3. the document pipeline runs the data clause after the quick permission check
    const data = (views: DocViews) => applyData(s.data, views, ctx);
    const res = await writeDocument(docEnv(ctx), { action: "create", rid, before: undefined, data, makes: "record", conflict: exists ? conflict : undefined });
    // 4. output
    await outputs.add(res);
  }
  return outputs.value(s.only);
}
