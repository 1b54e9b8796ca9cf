// exec/statements: USE NS … DB … — changes the session's namespace / database.

import type { UseStatement } from "../../ast/nodes.js";
import { QueryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";

export async function runUse(s: UseStatement, ctx: Ctx): Promise<Value> {
  const a = ctx.session.actor;
  const fixed = a.level === "Record" || a.level === "Scope" || a.level === "Database" || a.level === "Namespace";
  if (s.ns !== undefined) {
    if (fixed && a.ns !== undefined && a.ns !== s.ns) throw new QueryError("NsNotAllowed", `You don't have permission to change to the ${s.ns} namespace`);
    ctx.session.ns = s.ns;
  }
  if (s.db !== undefined) {
    if (fixed && a.level !== "Namespace" && a.db !== undefined && a.db !== s.db) throw new QueryError("DbNotAllowed", `You don't have permission to change to the ${s.db} database`);
    ctx.session.db = s.db;
  }
  return undefined;
}
