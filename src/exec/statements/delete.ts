// exec/statements: DELETE — per record: the document pipeline (WHERE, delete permission) → RETURN output (default NONE).

import type { DeleteStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import { queryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { evaluateSources } from "../iterate.js";
import { docEnv } from "../records.js";
import { WriteOutputs, whereClause, writeTargets } from "./write.js";
import { checkPermissionsTable } from "../../doc/permissions.js";
import { permissionsApply } from "../rbac.js";

export async function runDelete(s: DeleteStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw queryError("SingleOnlyOutput");
  const ns = needNs(ctx);
  const db = needDb(ctx);
  // v1 keeps a missing record as a target (its output is NONE); v2 skips it
  const targets = await writeTargets(sources, ctx, "DELETE", ctx.core.compat === 1);
  const outputs = new WriteOutputs(s.output, ctx, "None");
  const env = docEnv(ctx);
  const where = whereClause(s.cond, ctx);
  for (const { rid, before } of targets) {
    if (!before) {
      if (s.cond) continue;
      // 1.x: a missing record still meets the delete permission
      if (permissionsApply(ctx, true)) {
        const table = ctx.core.catalog.table(ns, db, rid.table);
        if (!table || !(await checkPermissionsTable(env, table, "delete", undefined))) continue;
      }
      await outputs.add({ rid, before: undefined, after: undefined });
      continue;
    }
    await outputs.add(await writeDocument(env, { action: "delete", rid, before, where }));
  }
  return outputs.value(s.only);
}
