// exec/: GET /export — the session's database as SurrealQL text (definitions then records), in SurrealDB's layout per version.

import { printAccess, printStatement, tableTypeOf } from "../ast/print.js";
import type { DefineFieldStatement, DefineStatement, JwtConfig } from "../ast/nodes.js";
import { elementDefinitions } from "../doc/fields.js";
import { withoutSecrets } from "../ast/secrets.js";
import { idiomText } from "../store/catalog.js";
import type { Catalog, DatabaseEntry, TableEntry } from "../store/catalog.js";
import { isEdge, scanAll } from "../store/records.js";
import type { RecordStore } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import { toSql } from "../value/index.js";
import { RecordId } from "../value/types.js";
import type { ValueObject } from "../value/types.js";
import type { Ctx } from "./context.js";
import { needDb, needNs } from "./context.js";
import type { StoredAccess } from "./contract.js";
import { checkAllowed, maySeeSecrets } from "./rbac.js";
import type { Compat } from "./session.js";

/** What an export reads. */
export interface ExportSource {
  readonly compat: Compat;
  readonly catalog: Catalog;
  readonly records: RecordStore;
}

/** How an export handles the secrets of users and access methods (password hashes, signing keys). */
export interface ExportOptions {
  /** Whole (a role that may define users and access methods); else `[REDACTED]` and the definition commented out. */
  readonly secrets: boolean;
}

/** The title of the notice a redacted export opens with (the CLI looks for it). */
export const REDACTED_EXPORT = "REDACTED SECRETS";
const REDACTED_NOTICE = [
  "-- This export was made by a role that may not define users or access methods: their password hashes and",
  "-- signing keys read '[REDACTED]', and the definitions carrying them are commented out, so importing this",
  "-- file does not create them. An OWNER of the database (or above it) exports them whole.",
];

/**
 * GET /export for the context's session: View on its database (any role at or above it); secrets only for a
 * role that may define users and access methods there (OWNER at or above it), as DEFINE USER / ACCESS require.
 */
export async function exportForSession(ctx: Ctx): Promise<string> {
  const ns = needNs(ctx);
  const db = needDb(ctx);
  checkAllowed(ctx, "View", { kind: "Any", level: "DATABASE", ns, db });
  return exportDatabase(ctx.core, ctx.txn, ns, db, { secrets: maySeeSecrets(ctx, { level: "DATABASE", ns, db }) });
}

/** SurrealDB 2.x writes records in INSERT statements of this many. */
const BATCH = 1000;
const RULE = "-- ------------------------------";

/** Definitions in key order (SurrealDB lists them by name). */
function byName<T>(m: ReadonlyMap<string, T> | undefined): T[] {
  return [...(m ?? new Map<string, T>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

class Out {
  readonly lines: string[] = [];
  line(s = ""): void {
    this.lines.push(s);
  }
  /** A titled comment; a name in the title never ends its comment line (a table named with a line break: attack pass 9, G7). */
  header(title: string): void {
    this.lines.push(RULE, `-- ${title.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`)}`, RULE, "");
  }
  /** A titled list of statements; nothing at all when empty. */
  section(title: string, stmts: readonly string[]): void {
    if (stmts.length === 0) return;
    this.header(title);
    for (const s of stmts) this.line(`${s};`);
    this.line();
  }
  text(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }
}

/**
 * A record exported as a graph edge (RELATE in 1.x, INSERT RELATION in 2.x), as SurrealDB does: an edge whose `in` and
 * `out` are record ids; in a table whose TYPE takes only one kind, whatever that kind is, so the import takes it back.
 */
function exportsAsEdge(doc: ValueObject, t: TableEntry, compat: Compat): doc is ValueObject & { in: RecordId; out: RecordId } {
  if (!(doc.in instanceof RecordId && doc.out instanceof RecordId)) return false;
  const kind = tableTypeOf(t.def, compat).kind;
  return kind === "Relation" || (kind === "Any" && isEdge(doc));
}

/**
 * 2.x fields in name order, an element field the TYPE of a field before it already defines (`tags[*]` after
 * `tags TYPE array<string>`) written with OVERWRITE: without it the import refuses it as existing and keeps the
 * implied `PERMISSIONS FULL` (attack pass 9, G8; SurrealDB 2.6.0 refuses it too, even under OPTION IMPORT).
 */
function fieldsForImport(fields: readonly DefineFieldStatement[]): DefineFieldStatement[] {
  const implied = new Set<string>();
  return fields.map((fd) => {
    const name = idiomText(fd.name);
    const out = implied.has(name) && !fd.overwrite ? { ...fd, overwrite: true } : fd;
    for (const el of elementDefinitions(fd, 2)) implied.add(idiomText(el.name));
    return out;
  });
}

/** A definition without its secrets, commented out line by line (it must not import with `[REDACTED]` as a key). */
function commentedOut(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => `-- ${l}`)
    .join("\n");
}

/** The export text of database `db` in namespace `ns` (an absent database exports only the header). */
export async function exportDatabase(src: ExportSource, txn: Transaction, ns: string, db: string, { secrets }: ExportOptions): Promise<string> {
  const { compat } = src;
  const opts = { compat, redact: false } as const;
  const def = (d: DefineStatement): string => printStatement(d, opts);
  const print = (d: DefineStatement, jwt?: JwtConfig): string => (d.kind === "DefineAccess" ? printAccess(d, jwt, opts) : def(d));
  let redacted = false;
  // a definition whose text changes without its secrets carries one
  const guarded = (d: DefineStatement, jwt?: JwtConfig): string => {
    const whole = print(d, jwt);
    if (secrets) return whole;
    const without = withoutSecrets(d, jwt);
    const text = print(without.def, without.jwt);
    if (text === whole) return whole;
    redacted = true;
    return commentedOut(text);
  };
  const e: DatabaseEntry | undefined = src.catalog.db(ns, db);
  const users = byName(e?.users).map((u) => guarded(u.def));
  const accesses = byName(e?.accesses);
  const accessTexts = new Map(accesses.map((a) => [a, guarded(a.def, a.jwt)] as const));
  const access = (a: StoredAccess): string => accessTexts.get(a)!;
  const out = new Out();
  out.header("OPTION");
  out.line("OPTION IMPORT;");
  out.line();
  if (redacted) {
    out.header(REDACTED_EXPORT);
    for (const l of REDACTED_NOTICE) out.line(l);
    out.line();
  }
  const tables = byName(e?.tables);
  // every table's records read first (the store is async), then the text is written in one go
  const data = new Map<TableEntry, ValueObject[]>();
  for (const t of tables) data.set(t, (await scanAll(src.records, txn, { ns, db, tb: t.def.name })).map((r) => r.doc));
  const records = (t: TableEntry): ValueObject[] => data.get(t) ?? [];
  if (compat === 1) {
    // 1.x: DEFINE TOKEN … ON DATABASE under TOKENS; each scope followed by its own tokens
    const isToken = (a: StoredAccess): boolean => a.def.legacy?.kind === "Token";
    const tokenOn = (a: StoredAccess, on: string, scope?: string): boolean =>
      a.def.legacy?.kind === "Token" && a.def.legacy.on === on && (scope === undefined || a.def.legacy.scope === scope);
    out.section("USERS", users);
    out.section("TOKENS", accesses.filter((a) => tokenOn(a, "DATABASE")).map(access));
    out.section("PARAMS", byName(e?.params).map(def));
    const scopes = accesses.filter((a) => !isToken(a));
    if (scopes.length > 0) {
      out.header("SCOPES");
      for (const sc of scopes) {
        out.line(`${access(sc)};`);
        const tokens = accesses.filter((a) => tokenOn(a, "SCOPE", sc.def.name));
        for (const t of tokens) out.line(`${access(t)};`);
        if (tokens.length > 0) out.line();
      }
      out.line();
    }
    out.section("FUNCTIONS", byName(e?.functions).map(def));
    out.section("ANALYZERS", byName(e?.analyzers).map(def));
    if (tables.length === 0) return out.text();
    for (const t of tables) {
      out.header(`TABLE: ${t.def.name}`);
      out.line(`${def(t.def)};`);
      out.line();
      for (const list of [byName(t.fields), byName(t.indexes), byName(t.events)]) {
        if (list.length === 0) continue;
        for (const d of list) out.line(`${def(d)};`);
        out.line();
      }
    }
    out.header("TRANSACTION");
    out.line("BEGIN TRANSACTION;");
    out.line();
    for (const t of tables) {
      out.header(`TABLE DATA: ${t.def.name}`);
      for (const doc of records(t)) {
        const id = toSql(doc.id, { compat });
        const content = toSql(doc, { compat });
        out.line(exportsAsEdge(doc, t, compat) ? `RELATE ${toSql(doc.in, { compat })} -> ${id} -> ${toSql(doc.out, { compat })} CONTENT ${content};` : `UPDATE ${id} CONTENT ${content};`);
      }
      out.line();
    }
    out.header("TRANSACTION");
    out.line("COMMIT TRANSACTION;");
    out.line();
    return out.text();
  }
  out.section("USERS", users);
  out.section("ACCESSES", accesses.map(access));
  out.section("PARAMS", byName(e?.params).map(def));
  out.section("FUNCTIONS", byName(e?.functions).map(def));
  out.section("ANALYZERS", byName(e?.analyzers).map(def));
  for (const t of tables) {
    // 2.x: every table gets its structure block (blank line after each list, even empty) and a data block
    out.header(`TABLE: ${t.def.name}`);
    out.line(`${def(t.def)};`);
    out.line();
    for (const d of fieldsForImport(byName(t.fields))) out.line(`${def(d)};`);
    out.line();
    for (const list of [byName(t.indexes), byName(t.events)]) {
      for (const d of list) out.line(`${def(d)};`);
      out.line();
    }
    out.header(`TABLE DATA: ${t.def.name}`);
    const docs = records(t);
    for (let i = 0; i < docs.length; i += BATCH) {
      const batch = docs.slice(i, i + BATCH);
      const plain = batch.filter((d) => !exportsAsEdge(d, t, compat)).map((d) => toSql(d, { compat }));
      const edges = batch.filter((d) => exportsAsEdge(d, t, compat)).map((d) => toSql(d, { compat }));
      if (plain.length > 0) out.line(`INSERT [ ${plain.join(", ")} ];`);
      if (edges.length > 0) out.line(`INSERT RELATION [ ${edges.join(", ")} ];`);
    }
    out.line();
  }
  return out.text();
}
