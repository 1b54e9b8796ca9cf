// Statements → canonical SurrealQL (clause order and spelling as SurrealDB's Display); DEFINE lives in define.ts.
import type {
  Assignment,
  DataClause,
  Expr,
  Field,
  Fields,
  IdiomExpr,
  IfStatement,
  InfoStatement,
  InsertData,
  OrderClause,
  Output,
  RemoveStatement,
  SelectStatement,
  Statement,
  StatementKind,
} from "../nodes.js";
import type { Duration } from "../../value/types.js";
import type { Ctx } from "./context.js";
import { defineAccess } from "./access.js";
import {
  alterTable,
  defineAnalyzer,
  defineDatabase,
  defineEvent,
  defineField,
  defineFunction,
  defineIndex,
  defineNamespace,
  defineParam,
  defineTable,
  defineUser,
} from "./define.js";
import { expr, list, printBlock, printIdiom, type } from "./expr.js";
import { dur, fnName, ident } from "./values.js";

/** The statement node(s) whose `kind` admits K (UPDATE and UPSERT share one interface). */
type NodeOf<S, K> = S extends { readonly kind: infer KK } ? (K extends KK ? S : never) : never;
type StatementPrinters = { readonly [K in StatementKind]: (s: NodeOf<Statement, K>, c: Ctx) => string };

const statementPrinters: StatementPrinters = {
  Use: (s, c) => `USE${s.ns === undefined ? "" : ` NS ${ident(s.ns, c)}`}${s.db === undefined ? "" : ` DB ${ident(s.db, c)}`}`,
  Let: (s, c) => `LET $${s.name}${s.type === undefined ? "" : `: ${type(s.type, c)}`} = ${expr(s.value, c)}`,
  Return: (s, c) => `RETURN ${expr(s.value, c)}${fetch(s.fetch, c)}`,
  If: (s, c) => printIf(s, c),
  For: (s, c) => `FOR $${s.param} IN ${expr(s.range, c)} ${printBlock(s.body, c)}`,
  Throw: (s, c) => `THROW ${expr(s.value, c)}`,
  Break: () => "BREAK",
  Continue: () => "CONTINUE",
  Sleep: (s) => `SLEEP ${dur(s.duration)}`,
  Option: (s) => `OPTION ${s.name}${s.value ? "" : " = false"}`,
  Begin: () => "BEGIN TRANSACTION",
  Commit: () => "COMMIT TRANSACTION",
  Cancel: () => "CANCEL TRANSACTION",
  Info: (s, c) => printInfo(s, c),
  Expr: (s, c) => expr(s.expr, c),
  Create: (s, c) =>
    `CREATE${only(s.only)} ${list(s.what, c)}${data(s.data, c)}${output(s.output, c)}${timeout(s.timeout)}${parallel(s.parallel)}`,
  Select: (s, c) => printSelect(s, c),
  Update: (s, c) =>
    `${s.kind.toUpperCase()}${only(s.only)} ${list(s.what, c)}${data(s.data, c)}${where(s.cond, c)}${output(s.output, c)}` +
    `${timeout(s.timeout)}${parallel(s.parallel)}`,
  Upsert: (s, c) => statementPrinters.Update(s, c),
  Delete: (s, c) =>
    `DELETE${only(s.only)} ${list(s.what, c)}${where(s.cond, c)}${output(s.output, c)}${timeout(s.timeout)}${parallel(s.parallel)}`,
  Insert: (s, c) =>
    `INSERT${s.relation ? " RELATION" : ""}${s.ignore ? " IGNORE" : ""}${s.into === undefined ? "" : ` INTO ${expr(s.into, c)}`}` +
    ` ${insertData(s.data, c)}${s.update === undefined ? "" : ` ON DUPLICATE KEY UPDATE ${assignments(s.update, c)}`}` +
    `${output(s.output, c)}${timeout(s.timeout)}${parallel(s.parallel)}`,
  Relate: (s, c) =>
    `RELATE${only(s.only)} ${expr(s.from, c)} -> ${expr(s.through, c)} -> ${expr(s.to, c)}${s.uniq ? " UNIQUE" : ""}` +
    `${data(s.data, c)}${output(s.output, c)}${timeout(s.timeout)}${parallel(s.parallel)}`,
  Live: (s, c) =>
    `LIVE SELECT ${s.diff ? "DIFF" : fields(s.fields, c)} FROM ${expr(s.what, c)}${where(s.cond, c)}${fetch(s.fetch, c)}`,
  Kill: (s, c) => `KILL ${expr(s.id, c)}`,
  DefineNamespace: defineNamespace,
  DefineDatabase: defineDatabase,
  DefineUser: defineUser,
  DefineAccess: (s, c) => defineAccess(s, c),
  DefineTable: defineTable,
  DefineField: defineField,
  DefineIndex: defineIndex,
  DefineParam: defineParam,
  DefineEvent: defineEvent,
  DefineFunction: defineFunction,
  DefineAnalyzer: defineAnalyzer,
  Remove: (s, c) => printRemove(s, c),
  AlterTable: alterTable,
};

export function printStmt(s: Statement, c: Ctx): string {
  return (statementPrinters[s.kind] as (s: Statement, c: Ctx) => string)(s, c);
}

// ── Clause helpers ──

const only = (b: boolean): string => (b ? " ONLY" : "");
const parallel = (b: boolean): string => (b ? " PARALLEL" : "");
const timeout = (d: Duration | undefined): string => (d === undefined ? "" : ` TIMEOUT ${dur(d)}`);

export function where(cond: Expr | undefined, c: Ctx): string {
  return cond === undefined ? "" : ` WHERE ${expr(cond, c)}`;
}

function idioms(xs: readonly IdiomExpr[], c: Ctx): string {
  return xs.map((x) => printIdiom(x, c)).join(", ");
}

function fetch(xs: readonly IdiomExpr[] | undefined, c: Ctx): string {
  return xs === undefined ? "" : ` FETCH ${idioms(xs, c)}`;
}

function field(f: Field, c: Ctx): string {
  if (f.kind === "All") return "*";
  return f.alias === undefined ? expr(f.expr, c) : `${expr(f.expr, c)} AS ${printIdiom(f.alias, c)}`;
}

export function fields(f: Fields, c: Ctx): string {
  return `${f.value ? "VALUE " : ""}${f.items.map((i) => field(i, c)).join(", ")}`;
}

function assignments(items: readonly Assignment[], c: Ctx): string {
  return items.map((a) => `${printIdiom(a.place, c)} ${a.op} ${expr(a.value, c)}`).join(", ");
}

type DataPrinters = { readonly [K in DataClause["kind"]]: (d: Extract<DataClause, { kind: K }>, c: Ctx) => string };

const dataPrinters: DataPrinters = {
  Set: (d, c) => `SET ${assignments(d.items, c)}`,
  Unset: (d, c) => `UNSET ${idioms(d.fields, c)}`,
  Merge: (d, c) => `MERGE ${expr(d.value, c)}`,
  Content: (d, c) => `CONTENT ${expr(d.value, c)}`,
  Replace: (d, c) => `REPLACE ${expr(d.value, c)}`,
  Patch: (d, c) => `PATCH ${expr(d.value, c)}`,
};

function data(d: DataClause | undefined, c: Ctx): string {
  return d === undefined ? "" : ` ${(dataPrinters[d.kind] as (d: DataClause, c: Ctx) => string)(d, c)}`;
}

type OutputPrinters = { readonly [K in Output["kind"]]: (o: Extract<Output, { kind: K }>, c: Ctx) => string };

const outputPrinters: OutputPrinters = {
  None: () => "NONE",
  Null: () => "NULL",
  Diff: () => "DIFF",
  Before: () => "BEFORE",
  After: () => "AFTER",
  Fields: (o, c) => fields(o.fields, c),
};

function output(o: Output | undefined, c: Ctx): string {
  return o === undefined ? "" : ` RETURN ${(outputPrinters[o.kind] as (o: Output, c: Ctx) => string)(o, c)}`;
}

function insertData(d: InsertData, c: Ctx): string {
  if (d.kind === "Single") return expr(d.value, c);
  return `(${idioms(d.fields, c)}) VALUES ${d.rows.map((r) => `(${list(r, c)})`).join(", ")}`;
}

/** 2.x ends an ORDER BY field list with a newline (a quirk of its Display); `RAND()` has none. */
function order(o: OrderClause, c: Ctx): string {
  if (o.kind === "Random") return " ORDER BY RAND()";
  const items = o.items
    .map((i) => `${printIdiom(i.field, c)}${i.collate ? " COLLATE" : ""}${i.numeric ? " NUMERIC" : ""}${i.direction === "DESC" ? " DESC" : ""}`)
    .join(", ");
  return ` ORDER BY ${items}${c.compat === 2 ? "\n" : ""}`;
}

export function printSelect(s: SelectStatement, c: Ctx): string {
  let out = `SELECT ${fields(s.fields, c)}`;
  if (s.omit !== undefined) out += ` OMIT ${idioms(s.omit, c)}`;
  out += ` FROM${only(s.only)} ${list(s.what, c)}`;
  if (s.with !== undefined) out += s.with.kind === "NoIndex" ? " WITH NOINDEX" : ` WITH INDEX ${s.with.names.map((n) => ident(n, c)).join(",")}`;
  out += where(s.cond, c);
  if (s.split !== undefined) out += ` SPLIT ON ${idioms(s.split, c)}`;
  if (s.group !== undefined) out += s.group.all ? " GROUP ALL" : ` GROUP BY ${idioms(s.group.fields, c)}`;
  if (s.order !== undefined) out += order(s.order, c);
  if (s.limit !== undefined) out += ` LIMIT ${expr(s.limit, c)}`;
  if (s.start !== undefined) out += ` START ${expr(s.start, c)}`;
  out += fetch(s.fetch, c);
  if (s.version !== undefined) out += ` VERSION ${expr(s.version, c)}`;
  out += timeout(s.timeout);
  out += parallel(s.parallel);
  if (s.explain !== undefined) out += s.explain.full ? " EXPLAIN FULL" : " EXPLAIN";
  return out;
}

/**
 * Branch bodies that are blocks print as `IF c { … }`, others as `IF c THEN …`; `END` closes the
 * statement unless every body (and the ELSE) is a block. The AST's `style` is implied by the bodies.
 */
function printIf(s: IfStatement, c: Ctx): string {
  const branches = s.branches.map((b) =>
    b.then.kind === "Block" ? `IF ${expr(b.cond, c)} ${expr(b.then, c)}` : `IF ${expr(b.cond, c)} THEN ${expr(b.then, c)}`,
  );
  let out = branches.join(" ELSE ");
  if (s.otherwise !== undefined) out += ` ELSE ${expr(s.otherwise, c)}`;
  const bracketed = s.branches.every((b) => b.then.kind === "Block") && (s.otherwise === undefined || s.otherwise.kind === "Block");
  return bracketed ? out : `${out} END`;
}

function printInfo(s: InfoStatement, c: Ctx): string {
  const structure = s.structure ? " STRUCTURE" : "";
  const name = s.name === undefined ? "" : ` ${ident(s.name, c)}`;
  switch (s.target) {
    case "ROOT":
    case "NAMESPACE":
    case "DATABASE":
      return `INFO FOR ${s.target}${structure}`;
    case "TABLE":
    case "SCOPE":
      return `INFO FOR ${s.target}${name}${structure}`;
    case "USER":
      return `INFO FOR USER${name}${s.base === undefined ? "" : ` ON ${s.base}`}${structure}`;
    case "INDEX":
      return `INFO FOR INDEX${name}${s.table === undefined ? "" : ` ON ${ident(s.table, c)}`}${structure}`;
  }
}

function printRemove(s: RemoveStatement, c: Ctx): string {
  const head = `REMOVE ${s.target}${s.ifExists ? " IF EXISTS" : ""}`;
  switch (s.target) {
    case "PARAM":
      return `${head} $${s.name}`;
    case "FUNCTION":
      return `${head} ${fnName(`fn::${s.name}`, c)}`;
    case "FIELD":
    case "INDEX":
    case "EVENT":
      return `${head} ${s.target === "FIELD" ? s.name : ident(s.name, c)} ON ${ident(s.table ?? "", c)}`;
    case "USER":
    case "ACCESS":
      return `${head} ${ident(s.name, c)} ON ${s.base ?? "DATABASE"}`;
    case "TOKEN":
      return `${head} ${ident(s.name, c)} ON ${s.scope === undefined ? (s.base ?? "DATABASE") : `SCOPE ${ident(s.scope, c)}`}`;
    default:
      return `${head} ${ident(s.name, c)}`;
  }
}
