// exec/statements: REMOVE of every definition kind — RBAC, IF EXISTS, "does not exist" texts, dependent data dropped.

import type { Base, RemoveStatement } from "../../ast/nodes.js";
import { QueryError } from "../../errors/index.js";
import { deleteIn, type DefMap } from "../../store/catalog.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { checkReach } from "../access-reach.js";
import { checkAllowed } from "../rbac.js";
import type { ResourceKind } from "../rbac.js";
import { accessMessage, definitionChanged, userMessage } from "./define.js";
import { detachViews } from "../views.js";

const KIND: Record<RemoveStatement["target"], ResourceKind> = {
  NAMESPACE: "Namespace",
  DATABASE: "Database",
  USER: "Actor",
  ACCESS: "Actor",
  SCOPE: "Actor",
  TOKEN: "Actor",
  TABLE: "Table",
  FIELD: "Field",
  INDEX: "Index",
  PARAM: "Parameter",
  EVENT: "Event",
  FUNCTION: "Function",
  ANALYZER: "Analyzer",
};

function missing(s: RemoveStatement, message: string): Value {
  if (s.ifExists) return undefined;
  throw new QueryError("NotFound", message);
}

export async function runRemove(s: RemoveStatement, ctx: Ctx): Promise<Value> {
  const { catalog, records, indexes } = ctx.core;
  const kind = KIND[s.target];
  if (s.target === "NAMESPACE") {
    checkAllowed(ctx, "Edit", { kind, level: "ROOT", ns: undefined, db: undefined });
    if (!catalog.namespaces.has(s.name)) return missing(s, `The namespace '${s.name}' does not exist`);
    deleteIn(ctx.txn, catalog.namespaces, s.name);
    await records.clear(ctx.txn, { ns: s.name });
    await indexes.clear(ctx.txn, { ns: s.name });
    return undefined;
  }
  const ns = needNs(ctx);
  if (s.target === "DATABASE") {
    checkAllowed(ctx, "Edit", { kind, level: "NAMESPACE", ns, db: undefined });
    const nsEntry = catalog.ns(ns);
    if (!nsEntry?.databases.has(s.name)) return missing(s, `The database '${s.name}' does not exist`);
    deleteIn(ctx.txn, nsEntry.databases, s.name);
    await records.clear(ctx.txn, { ns, db: s.name });
    await indexes.clear(ctx.txn, { ns, db: s.name });
    return undefined;
  }
  if (s.target === "USER" || s.target === "ACCESS" || s.target === "SCOPE" || s.target === "TOKEN") {
    const base: Base = s.target === "SCOPE" ? "DATABASE" : (s.base ?? "DATABASE");
    const db = base === "DATABASE" ? needDb(ctx) : undefined;
    const levelNs = base === "ROOT" ? undefined : ns;
    checkAllowed(ctx, "Edit", { kind, level: base, ns: levelNs, db });
    if (s.target === "USER") {
      const users = catalog.usersAt(base, levelNs, db);
      if (!users?.has(s.name)) return missing(s, userMessage(ctx, base, s.name, levelNs, db, "does not exist"));
      deleteIn(ctx.txn, users, s.name);
      definitionChanged(ctx, { kind: "user", base, ns: levelNs, db, name: s.name });
      return undefined;
    }
    const accesses = catalog.accessesAt(base, levelNs, db);
    const legacy =
      s.target === "SCOPE"
        ? ({ kind: "Scope", session: undefined } as const)
        : s.target === "TOKEN"
          ? ({ kind: "Token", on: s.scope ? "SCOPE" : base === "NAMESPACE" ? "NAMESPACE" : "DATABASE", scope: s.scope, type: "HS512", value: "" } as const)
          : undefined;
    if (!accesses?.has(s.name)) return missing(s, accessMessage(ctx, { base, legacy }, s.name, levelNs, db, "does not exist"));
    deleteIn(ctx.txn, accesses, s.name);
    definitionChanged(ctx, { kind: "access", base, ns: levelNs, db, name: s.name });
    return undefined;
  }
  const db = needDb(ctx);
  checkAllowed(ctx, "Edit", { kind, level: "DATABASE", ns, db });
  const dbEntry = catalog.db(ns, db);
  switch (s.target) {
    case "TABLE": {
      if (!dbEntry?.tables.has(s.name)) return missing(s, `The table '${s.name}' does not exist`);
      deleteIn(ctx.txn, dbEntry.tables, s.name);
      detachViews(ctx, dbEntry, s.name);
      await records.clear(ctx.txn, { ns, db, tb: s.name });
      await indexes.clear(ctx.txn, { ns, db, tb: s.name });
      return undefined;
    }
    case "FIELD":
    case "INDEX":
    case "EVENT": {
      const table = dbEntry?.tables.get(s.table ?? "");
      const map = s.target === "FIELD" ? table?.fields : s.target === "INDEX" ? table?.indexes : table?.events;
      if (!map?.has(s.name)) return missing(s, `The ${s.target.toLowerCase()} '${s.name}' does not exist`);
      deleteIn(ctx.txn, map as DefMap<unknown>, s.name);
      if (s.target === "INDEX") await indexes.clear(ctx.txn, { ns, db, tb: s.table! }, s.name);
      return undefined;
    }
    case "PARAM":
      checkReach(ctx, "params", s.name, ns, db);
      if (!dbEntry?.params.has(s.name)) return missing(s, `The param '$${s.name}' does not exist`);
      deleteIn(ctx.txn, dbEntry.params, s.name);
      return undefined;
    case "FUNCTION":
      checkReach(ctx, "functions", s.name, ns, db);
      if (!dbEntry?.functions.has(s.name)) return missing(s, `The function 'fn::${s.name}' does not exist`);
      deleteIn(ctx.txn, dbEntry.functions, s.name);
      return undefined;
    case "ANALYZER":
      if (!dbEntry?.analyzers.has(s.name)) return missing(s, `The analyzer '${s.name}' does not exist`);
      deleteIn(ctx.txn, dbEntry.analyzers, s.name);
      return undefined;
  }
  return undefined;
}
