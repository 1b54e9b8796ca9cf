// exec/statements: DEFINE of every definition kind — RBAC, IF NOT EXISTS / OVERWRITE per version, catalog write.

import type { Base, DefineAccessStatement, DefineStatement, DefineTableStatement, DefineUserStatement, JwtConfig } from "../../ast/nodes.js";
import { buildIndex } from "../../doc/indexes.js";
import { elementDefinitions } from "../../doc/fields.js";
import { QueryError } from "../../errors/index.js";
import { idiomText, newNamespaceEntry, newTableEntry, putIn, redefine } from "../../store/catalog.js";
import type { DefinitionChange, StoredAccess, StoredUser } from "../contract.js";
import type { Value } from "../../value/types.js";
import { holdsClosure } from "../../value/size.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { evaluate } from "../expressions/evaluate.js";
import { generatePasswordHash } from "../functions/hashing.js";
import { checkReach } from "../access-reach.js";
import { checkIndexFields, checkNestedKind } from "./define-checks.js";
import { checkSettable } from "../protected.js";
import { randomCode } from "../random.js";
import { checkAllowed } from "../rbac.js";
import type { ResourceKind } from "../rbac.js";
import { docEnv, ensureDatabase, ensureTable } from "../records.js";
import { defineRelationFields, followRelationField } from "./define-table.js";
import { checkViewSources, populateView } from "../views.js";

/** What a table gets when it is created implicitly (by a write or DEFINE FIELD). */
export function defaultTableDefinition(name: string): DefineTableStatement {
  const none = { kind: "None" } as const;
  return {
    kind: "DefineTable",
    name,
    ifNotExists: false,
    overwrite: false,
    comment: undefined,
    drop: false,
    schemafull: false,
    tableType: { kind: "Any" },
    view: undefined,
    permissions: { select: none, create: none, update: none, delete: none },
    permissionsWritten: false,
    changefeed: undefined,
  };
}

/**
 * Decide what to do with an existing definition: "write" (new or replaced) or "skip" (IF NOT EXISTS in v2).
 * v1: plain DEFINE overwrites, IF NOT EXISTS errors. v2: plain DEFINE errors, IF NOT EXISTS skips, OVERWRITE replaces.
 */
function onExisting(ctx: Ctx, s: { ifNotExists: boolean; overwrite: boolean }, exists: boolean, message: string): "write" | "skip" {
  if (!exists) return "write";
  if (ctx.core.compat === 1) {
    if (s.ifNotExists) throw new QueryError("AlreadyExists", message);
    return "write";
  }
  if (s.ifNotExists) return "skip";
  if (s.overwrite) return "write";
  throw new QueryError("AlreadyExists", message);
}

function levelOf(ctx: Ctx, base: Base): { ns: string | undefined; db: string | undefined } {
  if (base === "ROOT") return { ns: undefined, db: undefined };
  if (base === "NAMESPACE") return { ns: needNs(ctx), db: undefined };
  return { ns: needNs(ctx), db: needDb(ctx) };
}

function ensureLevel(ctx: Ctx, base: Base, ns: string | undefined, db: string | undefined): void {
  if (base === "DATABASE") ensureDatabase(ctx, ns!, db!);
  else if (base === "NAMESPACE" && !ctx.core.catalog.namespaces.has(ns!)) putIn(ctx.txn, ctx.core.catalog.namespaces, ns!, newNamespaceEntry(nsDef(ns!)));
}

function nsDef(name: string) {
  return { kind: "DefineNamespace", name, ifNotExists: false, overwrite: false, comment: undefined } as const;
}

/** Stored definitions never keep IF NOT EXISTS / OVERWRITE (the AST is never changed: a statement without them is kept as it is). */
function clean<T extends DefineStatement>(s: T): T {
  return s.ifNotExists || s.overwrite ? { ...s, ifNotExists: false, overwrite: false } : s;
}

function userExists(ctx: Ctx, base: Base, name: string, ns: string | undefined, db: string | undefined, verb: string): string {
  if (base === "ROOT") return ctx.core.compat === 1 ? `The user '${name}' ${verb}` : `The root user '${name}' ${verb}`;
  if (base === "NAMESPACE") return `The user '${name}' ${verb} in the namespace '${ns}'`;
  return `The user '${name}' ${verb} in the database '${db}'`;
}

export function userMessage(ctx: Ctx, base: Base, name: string, ns: string | undefined, db: string | undefined, verb: "already exists" | "does not exist"): string {
  if (verb === "does not exist" && base === "ROOT") return `The root user '${name}' does not exist`;
  return userExists(ctx, base, name, ns, db, verb);
}

export function accessMessage(
  ctx: Ctx,
  def: { base: Base; legacy?: DefineAccessStatement["legacy"] },
  name: string,
  ns: string | undefined,
  db: string | undefined,
  verb: "already exists" | "does not exist",
): string {
  if (ctx.core.compat === 1 && def.legacy) {
    if (def.legacy.kind === "Scope") return `The scope '${name}' ${verb}`;
    const where = def.legacy.on === "NAMESPACE" ? "namespace" : def.legacy.on === "DATABASE" ? "database" : "scope";
    return `The ${where} token '${name}' ${verb}`;
  }
  if (def.base === "ROOT") return `The root access method '${name}' ${verb}`;
  if (def.base === "NAMESPACE") return `The access method '${name}' ${verb} in the namespace '${ns}'`;
  return `The access method '${name}' ${verb} in the database '${db}'`;
}

/** The JWT an access method verifies and issues with: a random HS512 key when the definition has none. */
export function resolveJwt(def: DefineAccessStatement): JwtConfig {
  const a = def.access;
  const given = a.kind === "Jwt" ? a.jwt : a.jwt;
  if (!given) {
    const key = randomCode();
    return { verify: { kind: "Key", alg: "HS512", key }, issuer: { alg: "HS512", key } };
  }
  const fromToken = def.legacy?.kind === "Token";
  if (!given.issuer && !fromToken && given.verify.kind === "Key" && given.verify.alg.startsWith("HS")) {
    return { verify: given.verify, issuer: { alg: given.verify.alg, key: given.verify.key } };
  }
  return given;
}

const TABLE_CHILD: Partial<Record<DefineStatement["kind"], ResourceKind>> = {
  DefineTable: "Table",
  DefineField: "Field",
  DefineIndex: "Index",
  DefineEvent: "Event",
  DefineParam: "Parameter",
  DefineFunction: "Function",
  DefineAnalyzer: "Analyzer",
};

/** Tell iam/ of a user / access change once its transaction commits (never on cancel, failure or a dry run: F6). */
export function definitionChanged(ctx: Ctx, change: DefinitionChange): void {
  ctx.txn.onCommit(() => ctx.core.notify(change));
}

async function defineUser(s: DefineUserStatement, ctx: Ctx): Promise<Value> {
  const { ns, db } = levelOf(ctx, s.base);
  checkAllowed(ctx, "Edit", { kind: "Actor", level: s.base, ns, db });
  const users = ctx.core.catalog.usersAt(s.base, ns, db);
  const exists = users?.has(s.name) ?? false;
  if (onExisting(ctx, s, exists, userMessage(ctx, s.base, s.name, ns, db, "already exists")) === "skip") return undefined;
  const passhash = s.password !== undefined ? await generatePasswordHash("argon2", s.password) : (s.passhash ?? "");
  ensureLevel(ctx, s.base, ns, db);
  const stored: StoredUser = { def: { ...clean(s), password: undefined, passhash }, code: randomCode() };
  putIn(ctx.txn, ctx.core.catalog.usersAt(s.base, ns, db)!, s.name, stored);
  definitionChanged(ctx, { kind: "user", base: s.base, ns, db, name: s.name });
  return undefined;
}

async function defineAccess(s: DefineAccessStatement, ctx: Ctx): Promise<Value> {
  const { ns, db } = levelOf(ctx, s.base);
  checkAllowed(ctx, "Edit", { kind: "Actor", level: s.base, ns, db });
  const exists = ctx.core.catalog.accessesAt(s.base, ns, db)?.has(s.name) ?? false;
  if (onExisting(ctx, s, exists, accessMessage(ctx, s, s.name, ns, db, "already exists")) === "skip") return undefined;
  ensureLevel(ctx, s.base, ns, db);
  const stored: StoredAccess = { def: clean(s), jwt: resolveJwt(s) };
  putIn(ctx.txn, ctx.core.catalog.accessesAt(s.base, ns, db)!, s.name, stored);
  definitionChanged(ctx, { kind: "access", base: s.base, ns, db, name: s.name });
  return undefined;
}

export async function runDefine(s: DefineStatement, ctx: Ctx): Promise<Value> {
  const { catalog } = ctx.core;
  switch (s.kind) {
    case "DefineUser":
      return defineUser(s, ctx);
    case "DefineAccess":
      return defineAccess(s, ctx);
    case "DefineNamespace": {
      checkAllowed(ctx, "Edit", { kind: "Namespace", level: "ROOT", ns: undefined, db: undefined });
      const existing = catalog.namespaces.get(s.name);
      if (onExisting(ctx, s, !!existing, `The namespace '${s.name}' already exists`) === "skip") return undefined;
      if (existing) redefine(ctx.txn, catalog.namespaces, s.name, clean(s));
      else putIn(ctx.txn, catalog.namespaces, s.name, newNamespaceEntry(clean(s)));
      return undefined;
    }
    case "DefineDatabase": {
      const ns = needNs(ctx);
      checkAllowed(ctx, "Edit", { kind: "Database", level: "NAMESPACE", ns, db: undefined });
      const existing = catalog.db(ns, s.name);
      if (onExisting(ctx, s, !!existing, `The database '${s.name}' already exists`) === "skip") return undefined;
      ensureDatabase(ctx, ns, s.name);
      redefine(ctx.txn, catalog.ns(ns)!.databases, s.name, clean(s));
      return undefined;
    }
    default:
      break;
  }
  // Database-level definitions
  const ns = needNs(ctx);
  const db = needDb(ctx);
  checkAllowed(ctx, "Edit", { kind: TABLE_CHILD[s.kind] ?? "Table", level: "DATABASE", ns, db });
  const dbEntry = ensureDatabase(ctx, ns, db);
  switch (s.kind) {
    case "DefineTable": {
      const existing = dbEntry.tables.get(s.name);
      if (onExisting(ctx, s, !!existing, `The table '${s.name}' already exists`) === "skip") return undefined;
      checkViewSources(ctx, dbEntry, s);
      if (existing) redefine(ctx.txn, dbEntry.tables, s.name, clean(s));
      else putIn(ctx.txn, dbEntry.tables, s.name, newTableEntry(ns, db, clean(s)));
      defineRelationFields(ctx.txn, dbEntry.tables.get(s.name)!, s);
      // a view starts again from the records its tables hold
      if (s.view !== undefined && existing) await ctx.core.records.clear(ctx.txn, { ns, db, tb: s.name });
      await populateView(ctx, s);
      return undefined;
    }
    case "DefineField": {
      const name = idiomText(s.name);
      const table = dbEntry.tables.get(s.table) ?? ensureTable(ctx, s.table);
      if (ctx.core.compat === 2) checkNestedKind(table, s);
      if (onExisting(ctx, s, table.fields.has(name), `The field '${name}' already exists`) === "skip") return undefined;
      const def = clean(s);
      followRelationField(ctx.txn, dbEntry, table, def);
      putIn(ctx.txn, table.fields, name, def);
      for (const el of elementDefinitions(def, ctx.core.compat)) putIn(ctx.txn, table.fields, idiomText(el.name), el);
      return undefined;
    }
    case "DefineIndex": {
      const table = dbEntry.tables.get(s.table) ?? ensureTable(ctx, s.table);
      const replaced = table.indexes.has(s.name);
      if (onExisting(ctx, s, replaced, `The index '${s.name}' already exists`) === "skip") return undefined;
      if (ctx.core.compat === 2) checkIndexFields(table, s);
      putIn(ctx.txn, table.indexes, s.name, clean(s));
      await buildIndex(docEnv(ctx), table, s.name, replaced);
      return undefined;
    }
    case "DefineEvent": {
      const table = dbEntry.tables.get(s.table) ?? ensureTable(ctx, s.table);
      if (onExisting(ctx, s, table.events.has(s.name), `The event '${s.name}' already exists`) === "skip") return undefined;
      putIn(ctx.txn, table.events, s.name, clean(s));
      return undefined;
    }
    case "DefineParam": {
      // a param never stands in for an engine or session variable (stricter than SurrealDB: attack pass 3, A8)
      checkSettable(s.name, ctx.core.compat);
      checkReach(ctx, "params", s.name, ns, db);
      if (onExisting(ctx, s, dbEntry.params.has(s.name), `The param '$${s.name}' already exists`) === "skip") return undefined;
      // the value is query text: it runs with the definer's rights (SurrealDB computes it with the statement's options)
      const value = await evaluate(s.value, ctx);
      // a closure is kept as written (stored definitions hold data, not the definer's live scope): each use makes it anew
      putIn(ctx.txn, dbEntry.params, s.name, { ...clean(s), value: holdsClosure(value) ? s.value : { kind: "Literal", value } });
      return undefined;
    }
    case "DefineFunction": {
      checkReach(ctx, "functions", s.name, ns, db);
      if (onExisting(ctx, s, dbEntry.functions.has(s.name), `The function 'fn::${s.name}' already exists`) === "skip") return undefined;
      putIn(ctx.txn, dbEntry.functions, s.name, clean(s));
      return undefined;
    }
    case "DefineAnalyzer": {
      if (onExisting(ctx, s, dbEntry.analyzers.has(s.name), `The analyzer '${s.name}' already exists`) === "skip") return undefined;
      putIn(ctx.txn, dbEntry.analyzers, s.name, clean(s));
      return undefined;
    }
  }
  return undefined;
}
