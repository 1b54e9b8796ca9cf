// exec/: the variables a client may never set — one list per compat and one check, used by every entry point.

import { protectedVariable } from "../errors/index.js";
import type { Compat } from "./session.js";

/** What SurrealDB itself refuses in query variables, RPC let / set, LET and signin / signup variables (oracle 1.5.4 / 2.6.0). */
export const SESSION_VARIABLES: Readonly<Record<Compat, readonly string[]>> = {
  1: ["auth", "scope", "token", "session"],
  2: ["access", "auth", "token", "session"],
};

/** The engine's document variables. */
export const DOCUMENT_VARIABLES: readonly string[] = ["this", "self", "value", "input", "parent", "before", "after", "event"];

/**
 * What we refuse beyond SurrealDB, on purpose (README "Compatibility"): the document variables, and the other
 * version's identity name (SurrealDB 2.6 lets a client set `$scope`, which satisfies a 1.x rule `WHERE $scope = …`).
 * FOR, closure and function parameters are checked against the same list; SurrealDB checks none of them.
 */
export const STRICTER_THAN_SURREALDB: Readonly<Record<Compat, readonly string[]>> = {
  1: ["access", ...DOCUMENT_VARIABLES],
  2: ["scope", ...DOCUMENT_VARIABLES],
};

const PROTECTED: Readonly<Record<Compat, ReadonlySet<string>>> = {
  1: new Set([...SESSION_VARIABLES[1], ...STRICTER_THAN_SURREALDB[1]]),
  2: new Set([...SESSION_VARIABLES[2], ...STRICTER_THAN_SURREALDB[2]]),
};

export function isProtected(name: string, compat: Compat): boolean {
  return PROTECTED[compat].has(name);
}

/** Throws `'<name>' is a protected variable and cannot be set` unless a client may set `name`. */
export function checkSettable(name: string, compat: Compat): void {
  if (isProtected(name, compat)) throw protectedVariable(name);
}

/** checkSettable for every key of a variables object. */
export function checkSettableAll(vars: Readonly<Record<string, unknown>>, compat: Compat): void {
  for (const name of Object.keys(vars)) checkSettable(name, compat);
}
