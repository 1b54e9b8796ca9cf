// Expressions, idioms and types → canonical SurrealQL, the way SurrealDB's Display prints them.
import type {
  BinaryOp,
  BlockExpr,
  Expr,
  ExprKind,
  GraphPart,
  IdiomExpr,
  IdiomPart,
  ObjectExpr,
  RecordKeyExpr,
  TypeKind,
} from "../nodes.js";
import { innerCtx, type Ctx } from "./context.js";
import { printStmt } from "./statements.js";
import { compareStrings } from "../../value/index.js";
import { fnName, ident, key, lit, recordKey, recordTable } from "./values.js";

type ExprPrinters = { readonly [K in ExprKind]: (e: Extract<Expr, { kind: K }>, c: Ctx) => string };

const exprPrinters: ExprPrinters = {
  Literal: (e, c) => lit(e.value, c),
  Array: (e, c) => `[${list(e.items, c)}]`,
  Object: (e, c) => printObject(e.entries, c),
  RecordId: (e, c) => `${recordTable(e.table, c)}:${printRecordKey(e.key, c)}`,
  Param: (e) => `$${e.name}`,
  Table: (e, c) => ident(e.name, c),
  Idiom: (e, c) => printIdiom(e, c),
  Binary: (e, c) => `${expr(e.left, c)} ${e.ref === undefined ? binaryOpText[e.op] : `@${e.ref}@`} ${expr(e.right, c)}`,
  Unary: (e, c) => `${e.op}${expr(e.operand, c)}`,
  Cast: (e, c) => `<${type(e.type, c)}> ${expr(e.expr, c)}`,
  Call: (e, c) => `${fnName(e.name, c)}(${list(e.args, c)})`,
  Constant: (e) => printConstant(e.name),
  // An IF used as a value prints bare (SurrealDB's Subquery::Ifelse); `(IF …)` is a Subquery around it.
  Subquery: (e, c) => (e.inner.kind === "If" ? printStmt(e.inner, innerCtx(c)) : `(${printStmt(e.inner, innerCtx(c))})`),
  Block: (e, c) => printBlock(e, c),
  Mock: (e, c) => `|${ident(e.table, c)}:${e.from}${e.to === undefined ? "" : `..${e.to}`}|`,
  RangeValue: (e, c) =>
    `${e.begin === undefined ? "" : `${expr(e.begin.expr, c)}${e.begin.inclusive ? "" : ">"}`}..${e.end === undefined ? "" : `${e.end.inclusive ? "=" : ""}${expr(e.end.expr, c)}`}`,
  Closure: (e, c) =>
    `|${e.args.map((a) => `$${a.name}: ${a.type === undefined ? "any" : type(a.type, c)}`).join(", ")}|` +
    `${e.returns === undefined ? "" : ` -> ${type(e.returns, c)}`} ${expr(e.body, c)}`,
};

/** Operators as SurrealDB prints them (`&&` ⇒ AND, `IN` ⇒ INSIDE, `IS` ⇒ `=`). */
const binaryOpText: Readonly<Record<BinaryOp, string>> = {
  "||": "OR",
  "&&": "AND",
  "??": "??",
  "?:": "?:",
  "=": "=",
  "==": "==",
  "!=": "!=",
  "?=": "?=",
  "*=": "*=",
  "~": "~",
  "!~": "!~",
  "?~": "?~",
  "*~": "*~",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  "+": "+",
  "-": "-",
  "*": "*",
  "/": "/",
  "%": "%",
  "**": "**",
  CONTAINS: "CONTAINS",
  CONTAINSNOT: "CONTAINSNOT",
  CONTAINSALL: "CONTAINSALL",
  CONTAINSANY: "CONTAINSANY",
  CONTAINSNONE: "CONTAINSNONE",
  INSIDE: "INSIDE",
  NOTINSIDE: "NOTINSIDE",
  ALLINSIDE: "ALLINSIDE",
  ANYINSIDE: "ANYINSIDE",
  NONEINSIDE: "NONEINSIDE",
  OUTSIDE: "OUTSIDE",
  INTERSECTS: "INTERSECTS",
  MATCHES: "@@",
};

export function expr(e: Expr, c: Ctx): string {
  return (exprPrinters[e.kind] as (e: Expr, c: Ctx) => string)(e, c);
}

export function list(items: readonly Expr[], c: Ctx): string {
  return items.map((i) => expr(i, c)).join(", ");
}

/** Objects print with keys sorted (SurrealDB keeps them in a BTreeMap); `{}` prints as `{  }`. */
export function printObject(entries: ObjectExpr["entries"], c: Ctx): string {
  const byKey = new Map<string, Expr>();
  for (const { key: k, value } of entries) byKey.set(k, value);
  const keys = [...byKey.keys()].sort(compareStrings);
  return `{ ${keys.map((k) => `${key(k, c)}: ${expr(byKey.get(k)!, c)}`).join(", ")} }`;
}

type RecordKeyPrinters = { readonly [K in RecordKeyExpr["kind"]]: (k: Extract<RecordKeyExpr, { kind: K }>, c: Ctx) => string };

const recordKeyPrinters: RecordKeyPrinters = {
  Number: (k, c) => recordKey(k.value, c),
  String: (k, c) => recordKey(k.value, c),
  Uuid: (k, c) => recordKey(k.value, c),
  Array: (k, c) => `[${list(k.items, c)}]`,
  Object: (k, c) => printObject(k.entries, c),
  Generate: (k) => `${k.generator}()`,
  Range: (k, c) =>
    (k.begin === undefined ? "" : `${printRecordKey(k.begin.key, c)}${k.begin.inclusive ? "" : ">"}`) +
    ".." +
    (k.end === undefined ? "" : `${k.end.inclusive ? "=" : ""}${printRecordKey(k.end.key, c)}`),
};

export function printRecordKey(k: RecordKeyExpr, c: Ctx): string {
  return (recordKeyPrinters[k.kind] as (k: RecordKeyExpr, c: Ctx) => string)(k, c);
}

/** `math::pi` ⇒ `math::PI`: constants print with an upper-case last segment. */
function printConstant(name: string): string {
  const i = name.lastIndexOf("::");
  return i < 0 ? name.toUpperCase() : `${name.slice(0, i).toLowerCase()}::${name.slice(i + 2).toUpperCase()}`;
}

// ── Idioms ──

type PartPrinters = { readonly [K in IdiomPart["kind"]]: (p: Extract<IdiomPart, { kind: K }>, c: Ctx) => string };

const partPrinters: PartPrinters = {
  Start: (p, c) => expr(p.value, c),
  Field: (p, c) => `.${ident(p.name, c)}`,
  Index: (p, c) => `[${expr(p.index, c)}]`,
  All: () => "[*]",
  Last: () => "[$]",
  Where: (p, c) => `[WHERE ${expr(p.cond, c)}]`,
  Method: (p, c) => `.${fnName(p.name, c)}(${list(p.args, c)})`,
  Invoke: (p, c) => `(${list(p.args, c)})`,
  Flatten: () => "…",
  Optional: () => "?",
  Graph: (p, c) => printGraph(p, c),
};

export function printIdiom(e: IdiomExpr, c: Ctx): string {
  return e.parts
    .map((p, i) => (i === 0 && p.kind === "Field" ? ident(p.name, c) : (partPrinters[p.kind] as (p: IdiomPart, c: Ctx) => string)(p, c)))
    .join("");
}

/** `->likes`, `<-?`, `->(likes, follows WHERE x = 1 AS l)`. */
function printGraph(p: GraphPart, c: Ctx): string {
  const what = p.what.length === 0 ? "?" : p.what.map((t) => ident(t, c)).join(", ");
  if (p.what.length <= 1 && p.cond === undefined && p.alias === undefined) return `${p.dir}${what}`;
  const cond = p.cond === undefined ? "" : ` WHERE ${expr(p.cond, c)}`;
  const alias = p.alias === undefined ? "" : ` AS ${printIdiom(p.alias, c)}`;
  return `${p.dir}(${what}${cond}${alias})`;
}

// ── Blocks ──

/**
 * `{}` when empty, `{ v }` for one bare value, `{ stmt; }` for one statement, and one statement per
 * line (`{\nA;\nB;\n}`) for more.
 */
const BLOCK_WORDS = { Begin: "BEGIN", Commit: "COMMIT", Cancel: "CANCEL" } as const;

export function printBlock(b: BlockExpr, outer: Ctx): string {
  const c = innerCtx(outer);
  const s = b.statements;
  if (s.length === 0) return "{}";
  if (s.length === 1 && s[0]!.kind === "Expr") return `{ ${expr(s[0]!.expr, c)} }`;
  // SurrealDB reads a bare BEGIN / COMMIT / CANCEL in a block as a field of that name, and prints it so
  const body = s.map((st) => `${st.kind in BLOCK_WORDS ? ident(BLOCK_WORDS[st.kind as keyof typeof BLOCK_WORDS], c) : printStmt(st, c)};`);
  return s.length === 1 ? `{ ${body[0]} }` : `{\n${body.join("\n")}\n}`;
}

// ── Types ──

type TypePrinters = { readonly [K in TypeKind["kind"]]: (t: Extract<TypeKind, { kind: K }>, c: Ctx) => string };

const typePrinters: TypePrinters = {
  Basic: (t) => t.name,
  Option: (t, c) => `option<${type(t.inner, c)}>`,
  Array: (t, c) => sized("array", t.inner, t.max, c),
  Set: (t, c) => sized("set", t.inner, t.max, c),
  Record: (t, c) => (t.tables.length === 0 ? "record" : `record<${t.tables.map((n) => ident(n, c)).join(" | ")}>`),
  Geometry: (t) => (t.types.length === 0 ? "geometry" : `geometry<${t.types.join(" | ")}>`),
  Either: (t, c) => t.types.map((x) => type(x, c)).join(" | "),
  Literal: (t, c) => expr(t.value, c),
};

/** `array`, `array<int>`, `array<any, 5>`. */
function sized(name: string, inner: TypeKind | undefined, max: number | undefined, c: Ctx): string {
  const isAny = inner === undefined || (inner.kind === "Basic" && inner.name === "any");
  if (max === undefined) return isAny ? name : `${name}<${type(inner!, c)}>`;
  return `${name}<${inner === undefined ? "any" : type(inner, c)}, ${max}>`;
}

export function type(t: TypeKind, c: Ctx): string {
  return (typePrinters[t.kind] as (t: TypeKind, c: Ctx) => string)(t, c);
}
