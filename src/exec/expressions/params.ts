// exec/expressions: `$name` lookup — local variables, document params, session variables per compat, DEFINE PARAM.

import { queryError } from "../../errors/index.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import type { Session } from "../session.js";
import { evaluateAsOwner } from "../rbac.js";
import { definitionPermits } from "../records.js";

/** `$session` as SurrealDB shows it (auth.md §5). */
export function sessionObject(session: Session, compat: 1 | 2): ValueObject {
  const exp = session.exp === undefined ? undefined : BigInt(session.exp);
  if (compat === 1) {
    return { db: session.db, id: session.id, ip: session.ip, ns: session.ns, or: session.origin, sc: session.ac, sd: session.rd, tk: session.tk, exp };
  }
  return { ac: session.ac, exp, db: session.db, id: session.id, ip: session.ip, ns: session.ns, or: session.origin, rd: session.rd, tk: session.tk };
}

/** Session-derived variables for `compat`. */
export function sessionVars(session: Session, compat: 1 | 2): Record<string, Value> {
  const base = { auth: session.rd, token: session.tk, session: sessionObject(session, compat) };
  return compat === 1 ? { ...base, scope: session.ac } : { ...base, access: session.ac };
}

export async function lookupParam(name: string, ctx: Ctx): Promise<Value> {
  // 1. the current document: always the engine's, whatever variables are in scope
  if (name === "this" || name === "self") return ctx.doc;
  // 2. the session's identity ($auth, $token, $session, $access / $scope): never a variable
  const sv = sessionVars(ctx.session, ctx.core.compat);
  if (Object.hasOwn(sv, name)) return sv[name];
  // 3. variables in scope: the client's (query variables, LETs, connection params) — or, in a schema body, only its own
  if (ctx.vars.has(name)) return ctx.vars.get(name);
  // 4. DEFINE PARAM: needs a namespace and database (SurrealDB's "Specify a …" errors), the record user's own only;
  // its PERMISSIONS and value are the schema owner's clauses
  const def = ctx.core.catalog.db(needNs(ctx), needDb(ctx))?.params.get(name);
  // 5. an access clause's credential, which never shadows a DEFINE PARAM
  if (!def) return ctx.vars.credential(name);
  if (!(await definitionPermits(ctx, { kind: "param", def }))) throw queryError("ParamPermissions", name);
  return evaluateAsOwner(ctx, def, def.value);
}
