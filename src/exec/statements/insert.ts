// exec/statements: INSERT [IGNORE] INTO table (VALUES … | objects) [ON DUPLICATE KEY UPDATE …].

import type { InsertStatement } from "../../ast/nodes.js";
import { writeDocument } from "../../doc/pipeline.js";
import { QueryError } from "../../errors/index.js";
import { formatRecordId, randomRecordKey } from "../../value/index.js";
import { RecordId, Table, isValueObject } from "../../value/types.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { applyData, placePath } from "../data.js";
import { evaluate } from "../expressions/evaluate.js";
import { SKIP, writeOutput } from "../output.js";
import { docEnv } from "../records.js";
import { setPath } from "../../doc/paths.js";

async function rows(s: InsertStatement, ctx: Ctx): Promise<ValueObject[]> {
  if (s.data.kind === "Values") {
    const out: ValueObject[] = [];
    for (const row of s.data.rows) {
      let obj: ValueObject = {};
      for (let i = 0; i < s.data.fields.length; i++) obj = setPath(obj, placePath(s.data.fields[i]!), await evaluate(row[i]!, ctx));
      out.push(obj);
    }
    return out;
  }
  const v = await evaluate(s.data.value, ctx);
  const list = Array.isArray(v) ? v : [v];
  return list.map((o) => {
    if (!isValueObject(o)) throw new QueryError("InsertStatement", `Can not execute INSERT statement using value: ${String(o)}`);
    return o;
  });
}

export async function runInsert(s: InsertStatement, ctx: Ctx): Promise<Value> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  const into = s.into ? (s.into.kind === "Table" ? new Table(s.into.name) : await evaluate(s.into, ctx)) : undefined;
  const results: Value[] = [];
  for (const row of await rows(s, ctx)) {
    // 1. the record id: from `id`, else random in the target table
    const given = row.id;
    let rid: RecordId;
    if (given instanceof RecordId) rid = given;
    else if (into instanceof Table) rid = new RecordId(into.name, given === undefined ? randomRecordKey() : (given as never));
    else throw new QueryError("InsertStatement", "Can not execute INSERT statement without a target table");
    const t = { ns, db, tb: rid.table };
    const existing = ctx.core.records.get(t, rid);
    let res;
    if (existing) {
      // 2a. duplicates: IGNORE skips, ON DUPLICATE KEY UPDATE updates, otherwise an error
      if (s.ignore && ctx.core.compat === 2) continue;
      // v1 returns the existing record unchanged
      if (!s.update && ctx.core.compat === 1) {
        res = { rid, before: existing, after: existing };
        const out = await writeOutput(s.output, res, ctx, "After");
        if (out !== SKIP) results.push(out);
        continue;
      }
      if (!s.update) throw new QueryError("RecordExists", `Database record \`${formatRecordId(rid, { compat: ctx.core.compat })}\` already exists`);
      const { doc, input } = await applyData({ kind: "Set", items: s.update }, existing, ctx);
      res = await writeDocument(docEnv(ctx), { action: "update", rid, before: existing, after: doc, input });
    } else {
      // 2b. a new record
      res = await writeDocument(docEnv(ctx), { action: "create", rid, before: undefined, after: { ...row, id: rid }, input: row });
    }
    if (!res) continue;
    const out = await writeOutput(s.output, res, ctx, "After");
    if (out !== SKIP) results.push(out);
  }
  return results;
}
