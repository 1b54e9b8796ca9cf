// exec/statements: USE NS … DB … — changes the session's namespace / database.

import type { UseStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";

// The statement itself checks nothing (SurrealDB 1.5.4 and 2.6.0 both answer NONE); what an actor may do in the
// new namespace / database is decided by RBAC and PERMISSIONS on each later statement.
export async function runUse(s: UseStatement, ctx: Ctx): Promise<Value> {
  if (s.ns !== undefined) ctx.session.ns = s.ns;
  if (s.db !== undefined) ctx.session.db = s.db;
  return undefined;
}
