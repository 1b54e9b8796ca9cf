// iam/ errors: SurrealDB's authentication error texts, word for word, as SurrealErrors with the upstream variant as `code`.

import { SurrealError } from "../errors/index.js";

/** An authentication failure that is not the generic InvalidAuth (its text is safe to show to the client). */
export class AuthError extends SurrealError {}

const make = (code: string, message: string) => () => new AuthError(code, message);

export const tokenExpired = make("ExpiredToken", "The token has expired");
export const noRecordReturned = make("NoRecordFound", "No record was returned");
export const noSigninTarget = make("NoSigninTarget", "No signin target to either SC or DB or NS or KV");
export const missingUserOrPass = make("MissingUserOrPass", "Username or Password was not provided");
export const invalidSignup = make("InvalidSignup", "There was a problem with signing up");
export const accessMethodMismatch = make("AccessMethodMismatch", "The access method cannot be used in the requested operation");
export const tokenMakingFailed = make("TokenMakingFailed", "There was an error creating the token");
export const unexpectedAuth = make("UnexpectedAuth", "There was an unexpected error while performing authentication");
export const missingKid = make("MissingTokenHeader", "Auth token is missing the 'kid' header");
export const bearerKeyMissing = make("AccessBearerMissingKey", "This bearer access method requires a key to be provided");
export const nonComputed = make("NonComputed", "Found a non-computed value where they are not allowed");

/** v1 "The signin query failed" / v2 "The record access signin query failed" (and signup). */
export function queryFailed(compat: 1 | 2, op: "signin" | "signup"): AuthError {
  if (compat === 1) return new AuthError(op === "signin" ? "SigninQueryFailed" : "SignupQueryFailed", `The ${op} query failed`);
  return new AuthError(
    op === "signin" ? "AccessRecordSigninQueryFailed" : "AccessRecordSignupQueryFailed",
    `The record access ${op} query failed`,
  );
}

/** No SIGNIN / SIGNUP clause on the scope (v1) or record access (v2). */
export function clauseMissing(compat: 1 | 2, op: "signin" | "signup"): AuthError {
  if (compat === 1) return new AuthError(op === "signin" ? "ScopeNoSignin" : "ScopeNoSignup", `This scope does not allow ${op}`);
  return new AuthError(
    op === "signin" ? "AccessRecordNoSignin" : "AccessRecordNoSignup",
    `This record access method does not allow ${op}`,
  );
}

/** Signin/signup on a scope or access that is not defined. */
export function accessMissing(compat: 1 | 2): AuthError {
  return compat === 1
    ? new AuthError("NoScopeFound", "The scope does not exist")
    : new AuthError("AccessNotFound", "The access method does not exist");
}

export function invalidDuration(compat: 1 | 2): AuthError {
  return compat === 1
    ? new AuthError("InvalidSessionDuration", "The session has an invalid duration")
    : new AuthError("AccessInvalidDuration", "This access method has an invalid duration");
}

export function invalidExpiration(compat: 1 | 2): AuthError {
  return compat === 1
    ? new AuthError("InvalidSessionExpiration", "The session has an invalid expiration")
    : new AuthError("AccessInvalidExpiration", "This access method results in an invalid expiration");
}

export function invalidRole(role: string): AuthError {
  return new AuthError("InvalidRole", `IAM error: Invalid role '${role}'`);
}

/** Token definitions named by a token that do not exist (authenticate). */
export const notFound = {
  scope: (sc: string) => new AuthError("ScNotFound", `The scope '${sc}' does not exist`),
  scopeToken: (tk: string) => new AuthError("StNotFound", `The scope token '${tk}' does not exist`),
  databaseToken: (tk: string) => new AuthError("DtNotFound", `The database token '${tk}' does not exist`),
  namespaceToken: (tk: string) => new AuthError("NtNotFound", `The namespace token '${tk}' does not exist`),
  dbAccess: (ac: string, db: string) =>
    new AuthError("AccessDbNotFound", `The access method '${ac}' does not exist in the database '${db}'`),
  nsAccess: (ac: string, ns: string) =>
    new AuthError("AccessNsNotFound", `The access method '${ac}' does not exist in the namespace '${ns}'`),
  rootAccess: (ac: string) => new AuthError("AccessRootNotFound", `The root access method '${ac}' does not exist`),
};

