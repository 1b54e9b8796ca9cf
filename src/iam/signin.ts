// RPC / HTTP signin: the dispatch table of auth.md §3.2, per compat.

import type { Base } from "../ast/nodes.js";
import { InvalidAuth } from "../errors/index.js";
import type { Session } from "../exec/session.js";
import type { ValueObject } from "../value/types.js";
import { getAccess, type IamContext } from "./context.js";
import { assertComputedCredentials, readCredentials } from "./credentials.js";
import { accessMethodMismatch, accessMissing, bearerKeyMissing, missingUserOrPass, noSigninTarget } from "./errors.js";
import { recordSignin } from "./record.js";
import type { CredentialGate } from "./throttle.js";
import { userSignin } from "./user.js";

/** Whom a credential object signs in as (auth.md §3.2), decided from the object alone. */
export type SigninTarget =
  | { readonly kind: "record"; readonly ns: string; readonly db: string; readonly ac: string }
  | { readonly kind: "user"; readonly base: Base; readonly ns: string | undefined; readonly db: string | undefined }
  | { readonly kind: "namespaceAccess"; readonly ns: string; readonly ac: string }
  | { readonly kind: "none" };

export function signinTarget(ns: string | undefined, db: string | undefined, ac: string | undefined): SigninTarget {
  if (ns !== undefined && db !== undefined && ac !== undefined) return { kind: "record", ns, db, ac };
  if (ns !== undefined && db !== undefined) return { kind: "user", base: "DATABASE", ns, db };
  if (ns !== undefined && ac !== undefined) return { kind: "namespaceAccess", ns, ac };
  if (ns !== undefined) return { kind: "user", base: "NAMESPACE", ns, db: undefined };
  if (db === undefined && ac === undefined) return { kind: "user", base: "ROOT", ns: undefined, db: undefined };
  return { kind: "none" };
}

/** `gate`: the throttle's word on the stored credentials the signin meets (throttle.ts). */
export async function signin(ctx: IamContext, session: Session, vars: ValueObject, gate?: CredentialGate): Promise<{ token: string; refresh?: string }> {
  assertComputedCredentials(vars, ctx.compat);
  const { ns, db, ac, user, pass } = readCredentials(vars, ctx.compat);
  const target = signinTarget(ns, db, ac);
  switch (target.kind) {
    case "record":
      return recordSignin(ctx, session, vars, "signin", target.ns, target.db, target.ac, gate);
    case "user":
      if (user === undefined || pass === undefined) throw missingUserOrPass();
      return userSignin(ctx, session, target.base, target.ns, target.db, user, pass, gate?.admit);
    case "namespaceAccess":
      if (ctx.compat === 1) throw noSigninTarget();
      return namespaceAccessSignin(ctx, target.ns, target.ac, vars);
    case "none":
      throw noSigninTarget();
  }
}

/** v2 NS-level access signin exists only for BEARER accesses (experimental, not supported here). */
function namespaceAccessSignin(ctx: IamContext, ns: string, ac: string, vars: ValueObject): never {
  const stored = getAccess(ctx, "NAMESPACE", ns, undefined, ac);
  if (!stored) throw accessMissing(2);
  if (stored.def.access.kind !== "Bearer") throw accessMethodMismatch();
  if (vars.key === undefined) throw bearerKeyMissing();
  throw new InvalidAuth("bearer access needs the bearer_access capability, which is not supported");
}
