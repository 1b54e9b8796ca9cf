// exec/: statement-level RBAC (auth.md §6.1) and who bypasses table/field PERMISSIONS (§6.2).

import type { Base, Expr, Statement } from "../ast/nodes.js";
import type { SchemaDefinition } from "../doc/env.js";
import { NotAllowed } from "../errors/index.js";
import type { Value } from "../value/types.js";
import type { BodyPatch, Ctx, Home } from "./context.js";
import type { Actor, Session } from "./session.js";
import { ownerBodyError, ownerCtx } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";

/** Resource kinds an Editor may edit; anything else (users, access methods incl. 1.x scopes and tokens, models…) is Owner-only. */
export type ResourceKind =
  | "Namespace"
  | "Database"
  | "Table"
  | "Record"
  | "Function"
  | "Analyzer"
  | "Parameter"
  | "Event"
  | "Field"
  | "Index"
  /** `OPTION IMPORT` (SurrealDB: Edit on Option at the database). */
  | "Option"
  /** Users and access methods, 1.x scopes included (SurrealDB 1.x lets an Editor define scopes: stricter, pass 3 A3). */
  | "Actor"
  | "Any";

const EDITOR_KINDS: ReadonlySet<ResourceKind> = new Set([
  "Namespace",
  "Database",
  "Table",
  "Record",
  "Function",
  "Analyzer",
  "Parameter",
  "Event",
  "Field",
  "Index",
  "Option",
]);

export interface Resource {
  readonly kind: ResourceKind;
  readonly level: Base;
  readonly ns: string | undefined;
  readonly db: string | undefined;
}

/** Is the actor defined at or above the resource's level, on the resource's ns/db? */
function actorCovers(a: Actor, res: Resource): boolean {
  switch (a.level) {
    case "Root":
      return true;
    case "Namespace":
      return res.level !== "ROOT" && a.ns === res.ns;
    case "Database":
      return res.level === "DATABASE" && a.ns === res.ns && a.db === res.db;
    default:
      return false;
  }
}

/** Do a system user's roles allow `action` on `res`? */
function rolesAllow(a: Actor, action: "View" | "Edit", res: Resource): boolean {
  if (!actorCovers(a, res)) return false;
  if (action === "View") return a.roles.length > 0;
  return a.roles.includes("OWNER") || (a.roles.includes("EDITOR") && EDITOR_KINDS.has(res.kind));
}

/**
 * The most a schema body may do, whoever triggers it: what an EDITOR of the database holding its definition may — no
 * namespaces, databases, users, access methods or tokens, nothing in another namespace or database. An EDITOR may write events, functions and field clauses that an OWNER later runs (pentest F10, R1).
 */
function bodyCap(home: Home): Actor {
  return { level: "Database", ns: home.ns, db: home.db, id: "", roles: ["EDITOR"] };
}

/** May the session's actor perform `action` on `res`? Inside a schema body, only within the body's cap too. */
export function isAllowed(ctx: Ctx, action: "View" | "Edit", res: Resource): boolean {
  const home = ctx.rights.home;
  if (home !== undefined && !rolesAllow(bodyCap(home), action, res)) return false;
  return sessionMay(ctx.session, ctx.core.auth, action, res);
}

/** May `session`'s actor perform `action` on `res` (with authentication `auth` on; anonymous may do all when off)? */
export function sessionMay(session: Session, auth: boolean, action: "View" | "Edit", res: Resource): boolean {
  const a = session.actor;
  if (a.level === "No") return !auth;
  return rolesAllow(a, action, res);
}

/** `OPTION …` in a query: an EDITOR's or OWNER's of the session's database, else SurrealDB's IAM error for the whole query. */
export function checkOptions(stmts: readonly Statement[], session: Session, auth: boolean): void {
  if (!stmts.some((s) => s.kind === "Option")) return;
  if (!sessionMay(session, auth, "Edit", optionResource(session))) throw new NotAllowed();
}

/** What OPTION acts on: the session's database. */
export function optionResource(session: Session): Resource {
  return { kind: "Option", level: "DATABASE", ns: session.ns, db: session.db };
}

/** May the actor see the secrets (password hashes, signing keys) of users and access methods at `at`? Only if it may define them. */
export function maySeeSecrets(ctx: Ctx, at: Omit<Resource, "kind">): boolean {
  return isAllowed(ctx, "Edit", { kind: "Actor", ...at });
}

/** Throw SurrealDB's IAM error unless allowed (reported as a denial when denials are logged; `table`: the one concerned). */
export function checkAllowed(ctx: Ctx, action: "View" | "Edit", res: Resource, table?: string): void {
  if (isAllowed(ctx, action, res)) return;
  ctx.core.onDenied?.({ action: action === "View" ? "view" : "edit", resource: res.kind, ...(table !== undefined ? { table } : {}) }, ctx.session);
  throw new NotAllowed();
}

/** Evaluate `clause` of the stored definition `def` with the schema owner's rights; an error reaches a client whose PERMISSIONS apply without data (A9). */
export async function evaluateAsOwner(ctx: Ctx, def: SchemaDefinition, clause: Expr, patch: BodyPatch = {}): Promise<Value> {
  try {
    return await evaluate(clause, ownerCtx(ctx, def, patch));
  } catch (e) {
    throw permissionsApply(ctx, false) ? ownerBodyError(def, e) : e;
  }
}

/** True when table/field/param/function PERMISSIONS must be evaluated: client rights, and an actor without a covering role. */
export function permissionsApply(ctx: Ctx, write: boolean): boolean {
  if (ctx.rights.owner) return false;
  return !isAllowed(ctx, write ? "Edit" : "View", { kind: "Record", level: "DATABASE", ns: ctx.session.ns, db: ctx.session.db });
}
