// DEFINE NAMESPACE / DATABASE / USER / TABLE / FIELD / INDEX / PARAM / EVENT / FUNCTION / ANALYZER → INFO FOR text.
import type {
  AlterTableStatement,
  DefineAnalyzerStatement,
  DefineDatabaseStatement,
  DefineEventStatement,
  DefineFieldStatement,
  DefineFunctionStatement,
  DefineIndexStatement,
  DefineNamespaceStatement,
  DefineParamStatement,
  DefineTableStatement,
  DefineUserStatement,
  Permission,
  Permissions,
} from "../nodes.js";
import type { Ctx } from "./context.js";
import { expr, printBlock, printIdiom, type } from "./expr.js";
import { printSelect } from "./statements.js";
import { dur, durOrNone, fnName, ident, str } from "./values.js";

/** ` IF NOT EXISTS` / ` OVERWRITE` as written (stored definitions have both cleared). */
export function defineHead(kind: string, s: { readonly ifNotExists: boolean; readonly overwrite: boolean }): string {
  return `DEFINE ${kind}${s.ifNotExists ? " IF NOT EXISTS" : ""}${s.overwrite ? " OVERWRITE" : ""}`;
}

export function comment(text: string | undefined, c: Ctx): string {
  return text === undefined ? "" : ` COMMENT ${str(text, c)}`;
}

export function defineNamespace(s: DefineNamespaceStatement, c: Ctx): string {
  return `${defineHead("NAMESPACE", s)} ${ident(s.name, c)}${comment(s.comment, c)}`;
}

export function defineDatabase(s: DefineDatabaseStatement, c: Ctx): string {
  return `${defineHead("DATABASE", s)} ${ident(s.name, c)}${comment(s.comment, c)}${s.changefeed === undefined ? "" : ` CHANGEFEED ${dur(s.changefeed)}`}`;
}

/** 2.x user defaults: token 1h, session NONE. */
const USER_TOKEN_DEFAULT = "1h";

/**
 * `PASSHASH` is printed, never `PASSWORD` (SurrealDB hashes at definition time); a statement that still
 * carries only a plain `password` prints it as `PASSWORD '…'` so that it can be parsed back.
 */
export function defineUser(s: DefineUserStatement, c: Ctx): string {
  const secret = s.passhash === undefined && s.password !== undefined ? ` PASSWORD ${str(s.password, c)}` : ` PASSHASH ${str(s.passhash ?? "", c)}`;
  let out = `${defineHead("USER", s)} ${ident(s.name, c)} ON ${s.base}${secret} ROLES ${s.roles.join(", ")}`;
  if (c.compat === 2) {
    const token = s.duration.token === undefined || s.duration.token === null ? USER_TOKEN_DEFAULT : dur(s.duration.token);
    const session = s.duration.session === undefined ? "NONE" : durOrNone(s.duration.session);
    out += ` DURATION FOR TOKEN ${token}, FOR SESSION ${session}`;
  }
  return out + comment(s.comment, c);
}

export function defineTable(s: DefineTableStatement, c: Ctx): string {
  let out = `${defineHead("TABLE", s)} ${ident(s.name, c)} TYPE ${tableKind(tableTypeOf(s, c.compat), c)}`;
  if (s.drop) out += " DROP";
  out += s.schemafull ? " SCHEMAFULL" : " SCHEMALESS";
  out += comment(s.comment, c);
  if (s.view !== undefined) out += ` AS ${printSelect(s.view, c)}`;
  if (s.changefeed !== undefined) out += ` CHANGEFEED ${dur(s.changefeed.expiry)}${s.changefeed.includeOriginal ? " INCLUDE ORIGINAL" : ""}`;
  return out + permissions(s.permissions, ["select", "create", "update", "delete"], c);
}

/** ALTER TABLE with the clauses it changes, in DEFINE TABLE's order. */
export function alterTable(s: AlterTableStatement, c: Ctx): string {
  let out = `ALTER TABLE${s.ifExists ? " IF EXISTS" : ""} ${ident(s.name, c)}`;
  if (s.tableType !== undefined) out += ` TYPE ${tableKind(s.tableType, c)}`;
  if (s.drop !== undefined) out += s.drop ? " DROP" : " DROP false";
  if (s.schemafull !== undefined) out += s.schemafull ? " SCHEMAFULL" : " SCHEMALESS";
  if (s.comment !== undefined) out += s.comment === null ? " COMMENT NONE" : comment(s.comment, c);
  if (s.changefeed !== undefined) out += s.changefeed === null ? " CHANGEFEED NONE" : ` CHANGEFEED ${dur(s.changefeed.expiry)}${s.changefeed.includeOriginal ? " INCLUDE ORIGINAL" : ""}`;
  return s.permissions === undefined ? out : out + permissions(s.permissions, ["select", "create", "update", "delete"], c);
}

/** A table's TYPE as printed: `ANY`, `NORMAL`, `RELATION IN a | b OUT c ENFORCED`. */
export function tableKind(t: DefineTableStatement["tableType"], c: Ctx): string {
  if (t.kind === "Any") return "ANY";
  if (t.kind === "Normal") return "NORMAL";
  let out = "RELATION";
  if (t.from.length > 0) out += ` IN ${t.from.map((n) => ident(n, c)).join(" | ")}`;
  if (t.to.length > 0) out += ` OUT ${t.to.map((n) => ident(n, c)).join(" | ")}`;
  return t.enforced ? `${out} ENFORCED` : out;
}

/** The stored table type: without a TYPE clause 2.x makes a SCHEMAFULL table NORMAL, 1.x keeps ANY. */
export function tableTypeOf(s: DefineTableStatement, compat: 1 | 2): DefineTableStatement["tableType"] {
  if (s.tableTypeWritten !== false || s.tableType.kind === "Relation") return s.tableType;
  return compat === 2 && s.schemafull ? { kind: "Normal" } : { kind: "Any" };
}

/** 2.x field permissions have no `delete`; 1.x prints all four. */
export function fieldActions(c: Ctx): readonly (keyof Permissions)[] {
  return c.compat === 2 ? ["select", "create", "update"] : ["select", "create", "update", "delete"];
}

export function defineField(s: DefineFieldStatement, c: Ctx): string {
  let out = `${defineHead("FIELD", s)} ${printIdiom(s.name, c)} ON ${ident(s.table, c)}`;
  if (s.flexible) out += " FLEXIBLE";
  if (s.type !== undefined) out += ` TYPE ${type(s.type, c)}`;
  if (s.default !== undefined) out += ` DEFAULT${s.defaultAlways ? " ALWAYS" : ""} ${expr(s.default, c)}`;
  if (s.readonly) out += " READONLY";
  if (s.value !== undefined) out += ` VALUE ${expr(s.value, c)}`;
  if (s.assert !== undefined) out += ` ASSERT ${expr(s.assert, c)}`;
  out += comment(s.comment, c);
  return out + permissions(s.permissions, fieldActions(c), c);
}

export function defineIndex(s: DefineIndexStatement, c: Ctx): string {
  const fields = s.fields.map((f) => printIdiom(f, c)).join(", ");
  return `${defineHead("INDEX", s)} ${ident(s.name, c)} ON ${ident(s.table, c)} FIELDS ${fields}${s.unique ? " UNIQUE" : ""}${comment(s.comment, c)}`;
}

export function defineParam(s: DefineParamStatement, c: Ctx): string {
  return `${defineHead("PARAM", s)} $${s.name} VALUE ${expr(s.value, c)}${comment(s.comment, c)} PERMISSIONS ${permission(s.permissions, c)}`;
}

export function defineEvent(s: DefineEventStatement, c: Ctx): string {
  const then = s.then.map((e) => expr(e, c)).join(", ");
  return `${defineHead("EVENT", s)} ${ident(s.name, c)} ON ${ident(s.table, c)} WHEN ${expr(s.when, c)} THEN ${then}${comment(s.comment, c)}`;
}

/** `-> type` exists only in 2.x. */
export function defineFunction(s: DefineFunctionStatement, c: Ctx): string {
  const args = s.args.map((a) => `$${a.name}: ${type(a.type, c)}`).join(", ");
  const returns = s.returns !== undefined && c.compat === 2 ? ` -> ${type(s.returns, c)}` : "";
  return (
    `${defineHead("FUNCTION", s)} ${fnName(`fn::${s.name}`, c)}(${args})${returns} ${printBlock(s.body, c)}` +
    `${comment(s.comment, c)} PERMISSIONS ${permission(s.permissions, c)}`
  );
}

/** Analyzer clauses as SurrealDB keeps them: tokenizers and filters upper-case, without spaces. */
export interface AnalyzerClauses {
  function?: string;
  tokenizers?: string[];
  filters?: string[];
}

/** `TOKENIZERS blank, class FILTERS snowball(english)` ⇒ `{ tokenizers: ["BLANK", "CLASS"], filters: ["SNOWBALL(ENGLISH)"] }`. */
export function analyzerClauses(text: string): AnalyzerClauses {
  const out: AnalyzerClauses = {};
  const marks = [...text.matchAll(/\b(FUNCTION|TOKENIZERS|FILTERS)\b/gi)];
  marks.forEach((m, i) => {
    const body = text.slice(m.index! + m[0].length, i + 1 < marks.length ? marks[i + 1]!.index : text.length).trim();
    const kw = m[1]!.toUpperCase();
    if (kw === "FUNCTION") out.function = body.replace(/\s+/g, "");
    else out[kw === "TOKENIZERS" ? "tokenizers" : "filters"] = splitTopLevel(body).map((x) => x.replace(/\s+/g, "").toUpperCase());
  });
  return out;
}

/** The analyzer's text is kept as written by the parser; it prints in SurrealDB's canonical form. */
export function defineAnalyzer(s: DefineAnalyzerStatement, c: Ctx): string {
  const a = analyzerClauses(s.text);
  let out = `${defineHead("ANALYZER", s)} ${ident(s.name, c)}`;
  if (a.function !== undefined) out += ` FUNCTION ${a.function}`;
  if (a.tokenizers !== undefined) out += ` TOKENIZERS ${a.tokenizers.join(",")}`;
  if (a.filters !== undefined) out += ` FILTERS ${a.filters.join(",")}`;
  return out + comment(s.comment, c);
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() !== "") parts.push(cur.trim());
  return parts;
}

// ── Permissions ──

export function permission(p: Permission, c: Ctx): string {
  return p.kind === "None" ? "NONE" : p.kind === "Full" ? "FULL" : `WHERE ${expr(p.cond, c)}`;
}

/**
 * ` PERMISSIONS NONE|FULL` when all actions agree, else actions grouped by equal permission in first-seen
 * order: ` PERMISSIONS FOR select, update WHERE …, FOR create NONE`.
 */
export function permissions(p: Permissions, actions: readonly (keyof Permissions)[], c: Ctx): string {
  const groups: { text: string; actions: string[] }[] = [];
  for (const a of actions) {
    const text = permission(p[a], c);
    const g = groups.find((x) => x.text === text);
    if (g) g.actions.push(a);
    else groups.push({ text, actions: [a] });
  }
  if (groups.length === 1 && groups[0]!.text !== "" && !groups[0]!.text.startsWith("WHERE")) return ` PERMISSIONS ${groups[0]!.text}`;
  return ` PERMISSIONS ${groups.map((g) => `FOR ${g.actions.join(", ")} ${g.text}`).join(", ")}`;
}
