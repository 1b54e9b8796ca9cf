// exec/statements: UPDATE / UPSERT — per record: WHERE → data clause → document pipeline → RETURN output.
// A record id that does not exist is created (both versions); a table target only touches existing records.

import type { UpdateStatement } from "../../ast/nodes.js";
import { selectDocument, writeDocument } from "../../doc/pipeline.js";
import { QueryError } from "../../errors/index.js";
import { isTruthy } from "../../value/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { applyData } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { evaluateSources } from "../iterate.js";
import { docEnv } from "../records.js";
import { ONLY_ERROR } from "./select.js";
import { WriteOutputs, writeTargets } from "./write.js";

export async function runUpdate(s: UpdateStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw new QueryError("SingleOnlyOutput", ONLY_ERROR);
  const ns = needNs(ctx);
  const db = needDb(ctx);
  // v2 UPDATE leaves a missing record alone; UPSERT and v1 UPDATE create it
  const targets = await writeTargets(sources, ctx, s.kind.toUpperCase(), s.kind === "Upsert" || ctx.core.compat === 1);
  const outputs = new WriteOutputs(s.output, ctx, "After");
  const env = docEnv(ctx);
  for (const { rid, before } of targets) {
    // 1. WHERE on the existing record (as the actor sees it)
    if (s.cond) {
      const seen = before ? await selectDocument(env, ctx.core.catalog.table(ns, db, rid.table), before) : undefined;
      if (before && !seen) continue;
      if (!isTruthy(await evaluate(s.cond, withCtx(ctx, { doc: seen ?? { id: rid } })), { compat: ctx.core.compat })) continue;
    }
    // 2. data clause on the existing record (or a new one)
    const { doc, input } = await applyData(s.data, before ?? { id: rid }, ctx);
    // 3. document pipeline
    const res = await writeDocument(env, { action: before ? "update" : "create", rid, before, after: doc, input, viaUpdate: true });
    // 4. output
    await outputs.add(res);
  }
  return outputs.value(s.only);
}
