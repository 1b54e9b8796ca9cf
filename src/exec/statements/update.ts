// exec/statements: UPDATE / UPSERT — per record, the document pipeline runs WHERE, the permission, then the data clause.
// A record id that does not exist is created (UPSERT, UPDATE in 1.x or after OPTION IMPORT); a table target only touches existing records.

import type { UpdateStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import type { DocViews } from "../../doc/write.js";
import { queryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { applyData } from "../data.js";
import { evaluateSources } from "../iterate.js";
import { checkDataId, dataId, recordIdFor } from "../record-key.js";
import { docEnv, isImporting } from "../records.js";
import { WriteOutputs, whereClause, writeTargets } from "./write.js";

export async function runUpdate(s: UpdateStatement, ctx: Ctx): Promise<Value> {
  const compat = ctx.core.compat;
  const given = await dataId(s.data, ctx);
  // UPSERT of a table whose data names an id writes that record
  const sources = (await evaluateSources(s.what, ctx)).map((src) =>
    s.kind === "Upsert" && src.kind === "Table" && given !== undefined ? { kind: "Record" as const, rid: recordIdFor(src.tb, given, compat) } : src,
  );
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw queryError("SingleOnlyOutput");
  // v2 UPDATE leaves a missing record alone; UPSERT, v1 UPDATE and v2 UPDATE after OPTION IMPORT (a 1.x export's data) create it
  const creates = s.kind === "Upsert" || compat === 1 || isImporting(ctx);
  const targets = await writeTargets(sources, ctx, s.kind === "Upsert" ? "UPSERT" : "UPDATE", creates, s.cond !== undefined);
  const outputs = new WriteOutputs(s.output, ctx, "After");
  const env = docEnv(ctx);
  const where = whereClause(s.cond, ctx);
  for (const { rid, before, byId } of targets) {
    // the data's id must name the record (checked once the write is permitted; 1.x ignores it on a table's records)
    const data = (views: DocViews) => {
      if (compat === 2 || byId) checkDataId(rid, given, compat);
      return applyData(s.data, views, ctx);
    };
    await outputs.add(await writeDocument(env, { action: before ? "update" : "create", rid, before, where, data, viaUpdate: true, makes: s.kind === "Upsert" ? "record" : undefined, createFirst: s.kind === "Upsert" && byId && before ? { data, updateAfterFieldError: true } : undefined }));
  }
  return outputs.value(s.only);
}
