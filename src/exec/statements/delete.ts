// exec/statements: DELETE — per record: the document pipeline (WHERE, delete permission) → RETURN output (default NONE).

import type { DeleteStatement } from "../../ast/nodes.js";
import { deleteMissingDocument } from "../../doc/delete.js";
import { writeDocument } from "../../doc/pipeline.js";
import { queryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { evaluateSources } from "../iterate.js";
import { docEnv, writeMissLikeHit } from "../records.js";
import { WriteOutputs, whereClause, writeTargets } from "./write.js";

export async function runDelete(s: DeleteStatement, ctx: Ctx): Promise<Value> {
  const sources = await evaluateSources(s.what, ctx);
  if (s.only && (sources.length !== 1 || sources[0]!.kind === "Table")) throw queryError("SingleOnlyOutput");
  // v1 keeps a missing record as a target (its output is NONE); v2 skips it
  const targets = await writeTargets(sources, ctx, "DELETE", ctx.core.compat === 1, s.cond !== undefined);
  const outputs = new WriteOutputs(s.output, ctx, "None");
  const env = docEnv(ctx);
  const where = whereClause(s.cond, ctx);
  for (const { rid, before } of targets) {
    // 1.x: a missing record (kept without a WHERE) still meets the delete permission; with a WHERE, what a hidden hit meets
    if (!before) {
      if (!s.cond) await outputs.add(await deleteMissingDocument(env, rid));
      else await writeMissLikeHit(ctx, ctx.core.catalog.table(env.ns, env.db, rid.table), "delete", rid, true);
      continue;
    }
    await outputs.add(await writeDocument(env, { action: "delete", rid, before, where }));
  }
  return outputs.value(s.only);
}
