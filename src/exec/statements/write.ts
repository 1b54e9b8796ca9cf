// exec/statements: what CREATE, UPDATE, RELATE, INSERT and DELETE share — their targets, WHERE, each write's RETURN output, ONLY.

import type { Expr, Output } from "../../ast/nodes.js";
import type { WriteResult } from "../../doc/write.js";
import { queryError } from "../../errors/index.js";
import { isTruthy, toSql } from "../../value/index.js";
import type { RecordId, Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs, withCtx } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { rangeCandidates, tableCandidates, type Source } from "../iterate.js";
import { SKIP, writeOutput } from "../output.js";
import { writeMissLikeHit } from "../records.js";

/** A record an UPDATE / UPSERT / DELETE will write, with its stored value (NONE when missing). */
export interface WriteTarget {
  readonly rid: RecordId;
  readonly before: ValueObject | undefined;
  /** Named by its record id (not found through a table or range scan). */
  readonly byId: boolean;
}

/**
 * The records of each target: every record of a table or range; a record id, kept when missing only if `keepMissing`
 * (a missing id not kept costs what a hidden hit's judging does: `where`, does the statement have a WHERE).
 */
export async function writeTargets(sources: readonly Source[], ctx: Ctx, statement: "UPDATE" | "UPSERT" | "DELETE", keepMissing: boolean, where: boolean): Promise<WriteTarget[]> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const targets: WriteTarget[] = [];
  for (const src of sources) {
    if (src.kind === "Table") for (const r of await tableCandidates(ctx, ctx.core.catalog.table(ns, db, src.tb), src.tb, undefined, false)) targets.push({ rid: r.id, before: r.doc, byId: false });
    else if (src.kind === "Range") for (const r of await rangeCandidates(ctx, src.tb, src.range)) targets.push({ rid: r.id, before: r.doc, byId: false });
    else if (src.kind === "Record") {
      const before = await ctx.core.records.get(ctx.txn, { ns, db, tb: src.rid.table }, src.rid);
      if (before || keepMissing) targets.push({ rid: src.rid, before, byId: true });
      else await writeMissLikeHit(ctx, ctx.core.catalog.table(ns, db, src.rid.table), statement === "DELETE" ? "delete" : "update", src.rid, where);
    } else throw queryError("InvalidStatementTarget", toSql(src.value, { compat: ctx.core.compat }), statement, ctx.core.compat);
  }
  return targets;
}

/** A statement's WHERE as the pipeline runs it: on the record as the client may select it, with the client's rights. */
export function whereClause(cond: Expr | undefined, ctx: Ctx): ((seen: ValueObject) => Promise<boolean>) | undefined {
  if (!cond) return undefined;
  return async (seen) => isTruthy(await evaluate(cond, withCtx(ctx, { doc: seen })), { compat: ctx.core.compat });
}

/** The outputs of a write statement, one per written record as its RETURN clause shapes it. */
export class WriteOutputs {
  private readonly results: Value[] = [];

  constructor(
    private readonly output: Output | undefined,
    private readonly ctx: Ctx,
    private readonly fallback: "After" | "None",
  ) {}

  /** Add one write's output (nothing for a write the permissions skipped, or RETURN NONE). */
  async add(res: WriteResult | undefined): Promise<void> {
    await this.ctx.budget.checkpoint();
    if (!res) return;
    const out = await writeOutput(this.output, res, this.ctx, this.fallback);
    if (out !== SKIP) this.results.push(out);
  }

  /** The statement's value: every output; with ONLY exactly one, else SurrealDB's ONLY error. */
  value(only: boolean | undefined): Value {
    if (!only) return this.results;
    if (this.results.length !== 1) throw queryError("SingleOnlyOutput");
    return this.results[0];
  }
}
