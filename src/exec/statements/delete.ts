// exec/statements: DELETE — per record: WHERE → document pipeline (delete permission) → RETURN output (default NONE).

import type { DeleteStatement } from "../../ast/nodes.js";
import { selectDocument, writeDocument } from "../../doc/pipeline.js";
import { QueryError } from "../../errors/index.js";
import { isTruthy } from "../../value/index.js";
import type { RecordId, Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { evaluateSources, rangeCandidates, tableCandidates } from "../iterate.js";
import { SKIP, writeOutput } from "../output.js";
import { docEnv } from "../records.js";
import { ONLY_ERROR } from "./select.js";
import { checkPermissionsTable } from "../../doc/permissions.js";
import { permissionsApply } from "../rbac.js";

export async function runDelete(s: DeleteStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw new QueryError("SingleOnlyOutput", ONLY_ERROR);
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const targets: { rid: RecordId; before: ValueObject | undefined }[] = [];
  for (const src of sources) {
    if (src.kind === "Table") for (const r of await tableCandidates(ctx, ctx.core.catalog.table(ns, db, src.tb), src.tb, undefined, false)) targets.push({ rid: r.id, before: r.doc });
    else if (src.kind === "Range") for (const r of rangeCandidates(ctx, src.tb, src.range)) targets.push({ rid: r.id, before: r.doc });
    else if (src.kind === "Record") {
      // v1 keeps a missing record as a target (its output is NONE); v2 skips it
      const before = ctx.core.records.get({ ns, db, tb: src.rid.table }, src.rid);
      if (before || ctx.core.compat === 1) targets.push({ rid: src.rid, before });
    } else throw new QueryError("InvalidStatementTarget", `Can not execute DELETE statement using value: ${String(src.value)}`);
  }
  const results: Value[] = [];
  const env = docEnv(ctx);
  for (const { rid, before } of targets) {
    if (!before) {
      if (s.cond) continue;
      // 1.x: a missing record still meets the delete permission
      if (permissionsApply(ctx, true)) {
        const table = ctx.core.catalog.table(ns, db, rid.table);
        if (!table || !(await checkPermissionsTable(env, table, "delete", undefined))) continue;
      }
      const out = await writeOutput(s.output, { rid, before: undefined, after: undefined }, ctx, "None");
      if (out !== SKIP) results.push(out);
      continue;
    }
    if (s.cond) {
      const seen = await selectDocument(env, ctx.core.catalog.table(ns, db, rid.table), before);
      if (!seen || !isTruthy(await evaluate(s.cond, withCtx(ctx, { doc: seen })), { compat: ctx.core.compat })) continue;
    }
    const res = await writeDocument(env, { action: "delete", rid, before, after: undefined, input: undefined });
    if (!res) continue;
    const out = await writeOutput(s.output, res, ctx, "None");
    if (out !== SKIP) results.push(out);
  }
  // writes with ONLY must yield exactly one output
  if (s.only) {
    if (results.length !== 1) throw new QueryError("SingleOnlyOutput", ONLY_ERROR);
    return results[0];
  }
  return results;
}
