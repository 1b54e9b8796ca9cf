// exec/: the variables a client may never set — one list per compat and one check, used by every entry point.

import { protectedVariable } from "../errors/index.js";
import type { Compat } from "./session.js";

/** What SurrealDB itself refuses in query variables, RPC let / set, LET and signin / signup variables (oracle 1.5.4 / 2.6.0). */
export const SESSION_VARIABLES: Readonly<Record<Compat, readonly string[]>> = {
  1: ["auth", "scope", "token", "session"],
  2: ["access", "auth", "token", "session"],
};

/**
 * The engine's document variables. SurrealDB lets a client set these (and name FOR / closure / function
 * parameters after any engine variable); we refuse them all with the same error: stricter, on purpose.
 */
export const DOCUMENT_VARIABLES: readonly string[] = ["this", "self", "value", "input", "parent", "before", "after", "event"];

const PROTECTED: Readonly<Record<Compat, ReadonlySet<string>>> = {
  1: new Set([...SESSION_VARIABLES[1], ...DOCUMENT_VARIABLES]),
  2: new Set([...SESSION_VARIABLES[2], ...DOCUMENT_VARIABLES]),
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
