// exec/statements: USE NS … DB … — changes the session's namespace / database.

import type { UseStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { stayAt } from "../context.js";

// At the top of a query the statement itself checks nothing (SurrealDB 1.5.4 and 2.6.0 both answer NONE); what an
// actor may do in the new namespace / database is decided by RBAC and PERMISSIONS on each later statement.
// Anywhere else (a block, subquery, function, event or other schema body) it never moves the caller's session:
// SurrealDB's parser and ours refuse USE there; a USE that still gets here (an AST built by hand) may name only
// where the session already is, and does nothing (pentest R2).
export async function runUse(s: UseStatement, ctx: Ctx): Promise<Value> {
  if (ctx.depth > 0 || ctx.rights.inSchemaBody) {
    stayAt(ctx.session.ns, ctx.session.db, s.ns, s.db);
    return undefined;
  }
  if (s.ns !== undefined) ctx.session.ns = s.ns;
  if (s.db !== undefined) ctx.session.db = s.db;
  return undefined;
}
