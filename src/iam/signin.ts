// RPC / HTTP signin: the dispatch table of auth.md §3.2, per compat.

import { InvalidAuth } from "../errors/index.js";
import type { Session } from "../exec/session.js";
import type { ValueObject } from "../value/types.js";
import { getAccess, type IamContext } from "./context.js";
import { assertComputedCredentials, readCredentials } from "./credentials.js";
import { accessMethodMismatch, accessMissing, bearerKeyMissing, missingUserOrPass, noSigninTarget } from "./errors.js";
import { recordSignin } from "./record.js";
import { userSignin } from "./user.js";

export async function signin(ctx: IamContext, session: Session, vars: ValueObject): Promise<{ token: string; refresh?: string }> {
  assertComputedCredentials(vars, ctx.compat);
  const { ns, db, ac, user, pass } = readCredentials(vars, ctx.compat);
  const needUser = () => {
    if (user === undefined || pass === undefined) throw missingUserOrPass();
    return [user, pass] as const;
  };
  if (ns !== undefined && db !== undefined && ac !== undefined) return recordSignin(ctx, session, vars, "signin", ns, db, ac);
  if (ns !== undefined && db !== undefined) return userSignin(ctx, session, "DATABASE", ns, db, ...needUser());
  if (ns !== undefined && ac !== undefined) {
    if (ctx.compat === 1) throw noSigninTarget();
    return namespaceAccessSignin(ctx, ns, ac, vars);
  }
  if (ns !== undefined) return userSignin(ctx, session, "NAMESPACE", ns, undefined, ...needUser());
  if (db === undefined && ac === undefined) return userSignin(ctx, session, "ROOT", undefined, undefined, ...needUser());
  throw noSigninTarget();
}

/** v2 NS-level access signin exists only for BEARER accesses (experimental, not supported here). */
function namespaceAccessSignin(ctx: IamContext, ns: string, ac: string, vars: ValueObject): never {
  const stored = getAccess(ctx, "NAMESPACE", ns, undefined, ac);
  if (!stored) throw accessMissing(2);
  if (stored.def.access.kind !== "Bearer") throw accessMethodMismatch();
  if (vars.key === undefined) throw bearerKeyMissing();
  throw new InvalidAuth("bearer access needs the bearer_access capability, which is not supported");
}
