// exec/statements: INFO FOR ROOT / NS / DB / TABLE / USER / SCOPE — keys per version (auth.md §2.6), texts from the printer.

import type { Base, DefineStatement, InfoStatement } from "../../ast/nodes.js";
import { printAccess, printStatement } from "../../ast/print.js";
import { withoutSecrets } from "../../ast/secrets.js";
import { structureOf } from "../../ast/structure.js";
import { QueryError } from "../../errors/index.js";
import type { StoredAccess } from "../contract.js";
import type { Value, ValueObject } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { idiomText } from "../expressions/text.js";
import { checkAllowed, maySeeSecrets } from "../rbac.js";
import { userMessage } from "./define.js";
import { viewsOn } from "../views.js";

type Entry = { name: string; def: DefineStatement; jwt?: StoredAccess["jwt"] };

/** A user or access method as the actor may see it: secrets `[REDACTED]` unless it may define it (as in an export). */
function shown(ctx: Ctx, e: Entry): Entry {
  const d = e.def;
  if (d.kind !== "DefineUser" && d.kind !== "DefineAccess") return e;
  const at = { level: d.base, ns: d.base === "ROOT" ? undefined : ctx.session.ns, db: d.base === "DATABASE" ? ctx.session.db : undefined };
  return maySeeSecrets(ctx, at) ? e : { name: e.name, ...withoutSecrets(d, e.jwt) };
}

/** `{ name: text }` or, with STRUCTURE, `[structure…]`. */
function render(ctx: Ctx, all: Entry[], structure: boolean): Value {
  const compat = ctx.core.compat;
  const entries = all.map((e) => shown(ctx, e));
  if (structure) return entries.map((e) => structureOf(e.def, { compat, redact: true, jwt: e.jwt }));
  const out: ValueObject = {};
  for (const e of entries) {
    out[e.name] =
      e.def.kind === "DefineAccess" ? printAccess(e.def, e.jwt, { compat, redact: true }) : printStatement(e.def, { compat, redact: true });
  }
  return out;
}

const users = (m: Map<string, { def: DefineStatement }> | undefined): Entry[] => [...(m?.values() ?? [])].map((u) => ({ name: (u.def as { name: string }).name, def: u.def }));
const accesses = (m: Map<string, StoredAccess> | undefined, pick: (a: StoredAccess) => boolean = () => true): Entry[] =>
  [...(m?.values() ?? [])].filter(pick).map((a) => ({ name: a.def.name, def: a.def, jwt: a.jwt }));
const defs = <T extends DefineStatement>(m: Map<string, T> | undefined, name: (d: T) => string): Entry[] => [...(m?.values() ?? [])].map((d) => ({ name: name(d), def: d }));

/** v2 `system` section; an embedded engine reports zeros, as SurrealDB's embedded builds do. */
function systemInfo(): ValueObject {
  return { available_parallelism: 0n, cpu_usage: 0, load_average: [0, 0, 0], memory_allocated: 0n, memory_usage: 0n, physical_cores: 0n, threads: 0n };
}

function selectedBase(ctx: Ctx): Base {
  if (ctx.session.db) return "DATABASE";
  if (ctx.session.ns) return "NAMESPACE";
  return "ROOT";
}

export async function runInfo(s: InfoStatement, ctx: Ctx): Promise<Value> {
  const { catalog, compat } = ctx.core;
  const st = s.structure;
  switch (s.target) {
    case "ROOT": {
      checkAllowed(ctx, "View", { kind: "Any", level: "ROOT", ns: undefined, db: undefined });
      const namespaces = render(ctx, defs(new Map([...catalog.namespaces].map(([k, v]) => [k, v.def])), (d) => d.name), st);
      const userList = render(ctx, users(catalog.rootUsers), st);
      if (compat === 1) return { namespaces, users: userList };
      return { accesses: render(ctx, accesses(catalog.rootAccesses), st), namespaces, nodes: st ? [] : {}, system: systemInfo(), users: userList };
    }
    case "NAMESPACE": {
      const ns = needNs(ctx);
      checkAllowed(ctx, "View", { kind: "Any", level: "NAMESPACE", ns, db: undefined });
      const entry = catalog.ns(ns);
      const databases = render(ctx, defs(new Map([...(entry?.databases ?? new Map())].map(([k, v]) => [k, v.def])), (d) => d.name), st);
      const userList = render(ctx, users(entry?.users), st);
      if (compat === 1) return { databases, tokens: render(ctx, accesses(entry?.accesses), st), users: userList };
      return { accesses: render(ctx, accesses(entry?.accesses), st), databases, users: userList };
    }
    case "DATABASE": {
      const ns = needNs(ctx);
      const db = needDb(ctx);
      checkAllowed(ctx, "View", { kind: "Any", level: "DATABASE", ns, db });
      const e = catalog.db(ns, db);
      const common = {
        analyzers: render(ctx, defs(e?.analyzers, (d) => d.name), st),
        functions: render(ctx, defs(e?.functions, (d) => d.name), st),
        models: st ? [] : {},
        params: render(ctx, defs(e?.params, (d) => d.name), st),
        tables: render(ctx, defs(new Map([...(e?.tables ?? new Map())].map(([k, v]) => [k, v.def])), (d) => d.name), st),
        users: render(ctx, users(e?.users), st),
      };
      if (compat === 1) {
        return {
          ...common,
          scopes: render(ctx, accesses(e?.accesses, (a) => a.def.legacy?.kind !== "Token"), st),
          tokens: render(ctx, accesses(e?.accesses, (a) => a.def.legacy?.kind === "Token" && a.def.legacy.on === "DATABASE"), st),
        };
      }
      return { accesses: render(ctx, accesses(e?.accesses), st), ...common, apis: st ? [] : {}, configs: st ? [] : {} };
    }
    case "SCOPE": {
      const ns = needNs(ctx);
      const db = needDb(ctx);
      checkAllowed(ctx, "View", { kind: "Any", level: "DATABASE", ns, db });
      const e = catalog.db(ns, db);
      return { tokens: render(ctx, accesses(e?.accesses, (a) => a.def.legacy?.kind === "Token" && a.def.legacy.scope === s.name), st) };
    }
    case "TABLE": {
      const ns = needNs(ctx);
      const db = needDb(ctx);
      checkAllowed(ctx, "View", { kind: "Any", level: "DATABASE", ns, db });
      const t = catalog.table(ns, db, s.name ?? "");
      return {
        events: render(ctx, defs(t?.events, (d) => d.name), st),
        // keyed by the field's printed name, escaped as in its text (`` `a-b` ``)
        fields: render(ctx, [...(t?.fields.values() ?? [])].map((def) => ({ name: idiomText(def.name, compat), def })), st),
        indexes: render(ctx, defs(t?.indexes, (d) => d.name), st),
        lives: st ? [] : {},
        // the views reading the table
        tables: render(ctx, defs(new Map(viewsOn(catalog.db(ns, db), s.name ?? "").map((v) => [v.name, v])), (d) => d.name), st),
      };
    }
    case "USER": {
      const base = s.base ?? selectedBase(ctx);
      const ns = base === "ROOT" ? undefined : needNs(ctx);
      const db = base === "DATABASE" ? needDb(ctx) : undefined;
      checkAllowed(ctx, "View", { kind: "Actor", level: base, ns, db });
      const u = catalog.getUser(base, ns, db, s.name ?? "");
      if (!u) throw new QueryError("UserNotFound", userMessage(ctx, base, s.name ?? "", ns, db, "does not exist"));
      const { def } = shown(ctx, { name: u.def.name, def: u.def });
      return st ? structureOf(def, { compat, redact: true }) : printStatement(def, { compat, redact: true });
    }
    case "INDEX":
      throw new QueryError("Unsupported", "INFO FOR INDEX is not supported");
  }
}
