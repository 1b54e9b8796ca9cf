// CST → AST, statements: a query, its statements (control flow, USE, INFO) and blocks.
import type * as A from "../../src/ast/nodes.js";
import { isToken, nodes, toks, node, tok, has, req, onlyChild, type Node, type Ctx } from "./context.js";
import { define, level, remove } from "./define.js";
import { create, deleteStmt, insert, live, relate, select, update } from "./data.js";
import { expr } from "./expressions.js";
import { optIdioms } from "./idioms.js";
import { typeKind } from "./types.js";

export function query(ctx: Ctx, n: Node): A.Statement[] {
  return statements(ctx, nodes(n, "statement"));
}

/** Statements of a query or block. */
function statements(ctx: Ctx, list: Node[]): A.Statement[] {
  return list.map((s) => statement(ctx, s));
}

export function statement(ctx: Ctx, n: Node): A.Statement {
  const [key, list] = onlyChild(n);
  const child = list[0];
  if (isToken(child)) {
    const pos = ctx.pos(child);
    return key === "BREAK" ? { kind: "Break", pos } : { kind: "Continue", pos };
  }
  return statementFrom(ctx, key, child);
}

export function statementFrom(ctx: Ctx, key: string, c: Node): A.Statement {
  switch (key) {
    case "useStmt": return useStmt(ctx, c);
    case "letStmt": return letStmt(ctx, c);
    case "returnStmt": return { kind: "Return", value: expr(ctx, req(node(c, "expr"))), fetch: optIdioms(ctx, c, "idiomList"), pos: ctx.pos(c) };
    case "ifStmt": return ifStmt(ctx, c);
    case "forStmt": return { kind: "For", param: req(tok(c, "Param")).image.slice(1), range: expr(ctx, req(node(c, "expr"))), body: block(ctx, req(node(c, "block"))), pos: ctx.pos(c) };
    case "throwStmt": return { kind: "Throw", value: expr(ctx, req(node(c, "expr"))), pos: ctx.pos(c) };
    case "optionStmt": return { kind: "Option", name: req(tok(c, "IdentName")).image.toUpperCase(), value: !has(c, "FALSE"), pos: ctx.pos(c) };
    case "sleepStmt": return { kind: "Sleep", duration: ctx.duration(req(tok(c, "DurationLiteral"))), pos: ctx.pos(c) };
    case "txStmt": return { kind: has(c, "BEGIN") ? "Begin" : has(c, "COMMIT") ? "Commit" : "Cancel", pos: ctx.pos(c) } as A.Statement;
    case "infoStmt": return info(ctx, c);
    case "defineStmt": return define(ctx, c);
    case "removeStmt": return remove(ctx, c);
    case "createStmt": return create(ctx, c);
    case "selectStmt": return select(ctx, c);
    case "updateStmt": return update(ctx, c);
    case "deleteStmt": return deleteStmt(ctx, c);
    case "insertStmt": return insert(ctx, c);
    case "relateStmt": return relate(ctx, c);
    case "liveStmt": return live(ctx, c);
    case "killStmt": return { kind: "Kill", id: expr(ctx, req(node(c, "expr"))), pos: ctx.pos(c) };
    case "expr": return { kind: "Expr", expr: expr(ctx, c), pos: ctx.pos(c) };
    default: throw new Error(`internal: unknown statement ${key}`);
  }
}

function useStmt(ctx: Ctx, n: Node): A.UseStatement {
  const ns = tok(n, "nsName"), db = tok(n, "dbName");
  return { kind: "Use", ns: ns && ctx.nameText(ns), db: db && ctx.nameText(db), pos: ctx.pos(n) };
}

function letStmt(ctx: Ctx, n: Node): A.LetStatement {
  const t = node(n, "type");
  return { kind: "Let", name: req(tok(n, "Param")).image.slice(1), type: t && typeKind(ctx, t), value: expr(ctx, req(node(n, "expr"))), pos: ctx.pos(n) };
}

function ifStmt(ctx: Ctx, n: Node): A.IfStatement {
  const conds = nodes(n, "cond").map((c) => expr(ctx, c));
  if (has(n, "THEN")) {
    const thens = nodes(n, "then").map((c) => expr(ctx, c));
    const other = node(n, "otherwise");
    return { kind: "If", branches: conds.map((cond, i) => ({ cond, then: thens[i] })), otherwise: other && expr(ctx, other), style: "Then", pos: ctx.pos(n) };
  }
  const thens = nodes(n, "thenBlock").map((b) => block(ctx, b));
  const other = node(n, "otherwiseBlock");
  return { kind: "If", branches: conds.map((cond, i) => ({ cond, then: thens[i] })), otherwise: other && block(ctx, other), style: "Block", pos: ctx.pos(n) };
}

function info(ctx: Ctx, n: Node): A.InfoStatement {
  const structure = has(n, "STRUCTURE");
  const pos = ctx.pos(n);
  const names = toks(n, "IdentName");
  const b = nodes(n, "base");
  if (has(n, "TABLE") || has(n, "TB")) return { kind: "Info", target: "TABLE", name: ctx.nameText(names[0]), base: undefined, table: undefined, structure, pos };
  if (has(n, "USER")) return { kind: "Info", target: "USER", name: ctx.nameText(names[0]), base: b[0] && level(ctx, b[0]), table: undefined, structure, pos };
  if (has(n, "SCOPE")) return { kind: "Info", target: "SCOPE", name: ctx.nameText(names[0]), base: undefined, table: undefined, structure, pos };
  if (has(n, "INDEX")) return { kind: "Info", target: "INDEX", name: ctx.nameText(names[0]), base: undefined, table: ctx.nameText(req(tok(n, "table"))), structure, pos };
  const base = level(ctx, b[0]);
  return { kind: "Info", target: base, name: undefined, base: undefined, table: undefined, structure, pos };
}

export function block(ctx: Ctx, n: Node): A.BlockExpr {
  return { kind: "Block", statements: statements(ctx, nodes(n, "statement")), pos: ctx.pos(n) };
}
