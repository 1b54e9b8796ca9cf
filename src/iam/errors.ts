// iam/ errors: SurrealDB's authentication errors by upstream variant; their texts live in the catalogue.

import { authError, type AuthError } from "../errors/index.js";

export const noRecordReturned = () => authError("NoRecordFound");
export const noSigninTarget = () => authError("NoSigninTarget");
export const missingUserOrPass = () => authError("MissingUserOrPass");
export const invalidSignup = () => authError("InvalidSignup");
export const accessMethodMismatch = () => authError("AccessMethodMismatch");
export const tokenMakingFailed = () => authError("TokenMakingFailed");
export const unexpectedAuth = () => authError("UnexpectedAuth");
export const missingKid = () => authError("MissingTokenHeader");
export const bearerKeyMissing = () => authError("AccessBearerMissingKey");
export const nonComputed = () => authError("NonComputed");

/** v1 "The signin query failed" / v2 "The record access signin query failed" (and signup). */
export function queryFailed(compat: 1 | 2, op: "signin" | "signup"): AuthError {
  if (compat === 1) return authError(op === "signin" ? "SigninQueryFailed" : "SignupQueryFailed");
  return authError(op === "signin" ? "AccessRecordSigninQueryFailed" : "AccessRecordSignupQueryFailed");
}

/** No SIGNIN / SIGNUP clause on the scope (v1) or record access (v2). */
export function clauseMissing(compat: 1 | 2, op: "signin" | "signup"): AuthError {
  if (compat === 1) return authError(op === "signin" ? "ScopeNoSignin" : "ScopeNoSignup");
  return authError(op === "signin" ? "AccessRecordNoSignin" : "AccessRecordNoSignup");
}

/** Signin/signup on a scope or access that is not defined. */
export function accessMissing(compat: 1 | 2): AuthError {
  return authError(compat === 1 ? "NoScopeFound" : "AccessNotFound");
}

export function invalidDuration(compat: 1 | 2): AuthError {
  return authError(compat === 1 ? "InvalidSessionDuration" : "AccessInvalidDuration");
}

export function invalidExpiration(compat: 1 | 2): AuthError {
  return authError(compat === 1 ? "InvalidSessionExpiration" : "AccessInvalidExpiration");
}

export const invalidRole = (role: string) => authError("InvalidRole", role);

/** Token definitions named by a token that do not exist: reasons for the log; the client sees InvalidAuth (authenticate.ts). */
export const notFound = {
  scope: (sc: string) => authError("ScNotFound", sc),
  scopeToken: (tk: string) => authError("StNotFound", tk),
  databaseToken: (tk: string) => authError("DtNotFound", tk),
  namespaceToken: (tk: string) => authError("NtNotFound", tk),
  dbAccess: (ac: string, db: string) => authError("AccessDbNotFound", ac, db),
  nsAccess: (ac: string, ns: string) => authError("AccessNsNotFound", ac, ns),
  rootAccess: (ac: string) => authError("AccessRootNotFound", ac),
};
