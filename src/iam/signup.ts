// RPC / HTTP signup: only scopes (v1) and database-level record accesses (v2) sign up.

import type { Session } from "../exec/session.js";
import type { ValueObject } from "../value/types.js";
import type { IamContext } from "./context.js";
import { assertComputedCredentials, readCredentials } from "./credentials.js";
import { invalidSignup } from "./errors.js";
import { recordSignin } from "./record.js";

export async function signup(ctx: IamContext, session: Session, vars: ValueObject): Promise<{ token: string; refresh?: string }> {
  assertComputedCredentials(vars, ctx.compat);
  const { ns, db, ac } = readCredentials(vars, ctx.compat);
  if (ns === undefined || db === undefined || ac === undefined) throw invalidSignup();
  return recordSignin(ctx, session, vars, "signup", ns, db, ac);
}
