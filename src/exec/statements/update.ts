// exec/statements: UPDATE / UPSERT — per record: WHERE → data clause → document pipeline → RETURN output.
// A record id that does not exist is created (both versions); a table target only touches existing records.

import type { UpdateStatement } from "../../ast/nodes.js";
import { selectDocument, writeDocument } from "../../doc/pipeline.js";
import { QueryError } from "../../errors/index.js";
import { isTruthy } from "../../value/index.js";
import type { RecordId, Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { applyData } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { evaluateSources, rangeCandidates, tableCandidates } from "../iterate.js";
import { SKIP, writeOutput } from "../output.js";
import { docEnv } from "../records.js";
import { ONLY_ERROR } from "./select.js";

export async function runUpdate(s: UpdateStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw new QueryError("SingleOnlyOutput", ONLY_ERROR);
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const targets: { rid: RecordId; before: ValueObject | undefined }[] = [];
  for (const src of sources) {
    if (src.kind === "Table") for (const r of await tableCandidates(ctx, ctx.core.catalog.table(ns, db, src.tb), src.tb, undefined, false)) targets.push({ rid: r.id, before: r.doc });
    else if (src.kind === "Range") for (const r of rangeCandidates(ctx, src.tb, src.range)) targets.push({ rid: r.id, before: r.doc });
    else if (src.kind === "Record") {
      // v2 UPDATE leaves a missing record alone; UPSERT and v1 UPDATE create it
      const before = ctx.core.records.get({ ns, db, tb: src.rid.table }, src.rid);
      if (before || s.kind === "Upsert" || ctx.core.compat === 1) targets.push({ rid: src.rid, before });
    }
    else throw new QueryError("InvalidStatementTarget", `Can not execute ${s.kind.toUpperCase()} statement using value: ${String(src.value)}`);
  }
  const results: Value[] = [];
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
    if (!res) continue;
    // 4. output
    const out = await writeOutput(s.output, res, ctx, "After");
    if (out !== SKIP) results.push(out);
  }
  // writes with ONLY must yield exactly one output
  if (s.only) {
    if (results.length !== 1) throw new QueryError("SingleOnlyOutput", ONLY_ERROR);
    return results[0];
  }
  return results;
}
