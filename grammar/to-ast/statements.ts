// CST → AST, statements: a query, its statements (control flow, USE, INFO) and blocks.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { isToken, nodes, toks, node, tok, has, req, firstKey, type Node, oneOf, type Ctx, type OneOf } from "./context.js";
import { alter, define, level, remove } from "./define.js";
import { create, deleteStmt, insert, live, relate, select, update } from "./data.js";
import { expr } from "./expressions.js";
import { optIdioms } from "./idioms.js";
import { typeKind } from "./types.js";

/** A query's statements. */
export function query(ctx: Ctx, n: C.QueryCstNode): A.Statement[] {
  return statements(ctx, nodes(n, "statement"));
}

/** The statement of a `queryStatement` node (its parts are the node's own), none if it is empty. */
export function queryStatement(ctx: Ctx, n: C.QueryStatementCstNode): A.Statement[] {
  return firstKey(n) === undefined ? [] : [statement(ctx, n)];
}

/** Statements of a query or block. */
function statements(ctx: Ctx, list: C.StatementCstNode[]): A.Statement[] {
  return list.map((s) => statement(ctx, s));
}

export function statement(ctx: Ctx, n: { children: C.StatementCstChildren }): A.Statement {
  const one = oneOf(n);
  if (one.key === "BREAK") return { kind: "Break", pos: ctx.pos(one.node) };
  if (one.key === "CONTINUE") return { kind: "Continue", pos: ctx.pos(one.node) };
  return statementFrom(ctx, one);
}

/** A statement from its rule's node (also a statement standing as a value: `(SELECT …)`, `IF …` as an operand). */
export function statementFrom(ctx: Ctx, one: Exclude<OneOf<C.StatementCstChildren>, { key: "BREAK" | "CONTINUE" }>): A.Statement {
  switch (one.key) {
    case "useStmt": return useStmt(ctx, one.node);
    case "letStmt": return letStmt(ctx, one.node);
    case "returnStmt": {
      const c = one.node;
      return { kind: "Return", value: expr(ctx, req(node(c, "expr"))), fetch: optIdioms(ctx, node(c, "idiomList")), pos: ctx.pos(c) };
    }
    case "ifStmt": return ifStmt(ctx, one.node);
    case "forStmt": {
      const c = one.node;
      return { kind: "For", param: req(tok(c, "Param")).image.slice(1), range: expr(ctx, req(node(c, "expr"))), body: block(ctx, req(node(c, "block"))), pos: ctx.pos(c) };
    }
    case "throwStmt": return { kind: "Throw", value: expr(ctx, req(node(one.node, "expr"))), pos: ctx.pos(one.node) };
    case "optionStmt": return { kind: "Option", name: req(tok(one.node, "IdentName")).image.toUpperCase(), value: !has(one.node, "FALSE"), pos: ctx.pos(one.node) };
    case "sleepStmt": return { kind: "Sleep", duration: ctx.duration(req(tok(one.node, "DurationLiteral"))), pos: ctx.pos(one.node) };
    case "txStmt": {
      const c = one.node;
      return { kind: has(c, "BEGIN") ? "Begin" : has(c, "COMMIT") ? "Commit" : "Cancel", pos: ctx.pos(c) };
    }
    case "infoStmt": return info(ctx, one.node);
    case "defineStmt": return define(ctx, one.node);
    case "removeStmt": return remove(ctx, one.node);
    case "alterStmt": return alter(ctx, one.node);
    case "createStmt": return create(ctx, one.node);
    case "selectStmt": return select(ctx, one.node);
    case "updateStmt": return update(ctx, one.node);
    case "deleteStmt": return deleteStmt(ctx, one.node);
    case "insertStmt": return insert(ctx, one.node);
    case "relateStmt": return relate(ctx, one.node);
    case "liveStmt": return live(ctx, one.node);
    case "killStmt": return { kind: "Kill", id: expr(ctx, req(node(one.node, "expr"))), pos: ctx.pos(one.node) };
    case "expr": return { kind: "Expr", expr: expr(ctx, one.node), pos: ctx.pos(one.node) };
  }
}

function useStmt(ctx: Ctx, n: C.UseStmtCstNode): A.UseStatement {
  const ns = tok(n, "nsName"), db = tok(n, "dbName");
  return { kind: "Use", ns: ns && ctx.nameText(ns), db: db && ctx.nameText(db), pos: ctx.pos(n) };
}

function letStmt(ctx: Ctx, n: C.LetStmtCstNode): A.LetStatement {
  const t = node(n, "type");
  return { kind: "Let", name: req(tok(n, "Param")).image.slice(1), type: t && typeKind(ctx, t), value: expr(ctx, req(node(n, "expr"))), pos: ctx.pos(n) };
}

function ifStmt(ctx: Ctx, n: C.IfStmtCstNode): A.IfStatement {
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

function info(ctx: Ctx, n: C.InfoStmtCstNode): A.InfoStatement {
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

export function block(ctx: Ctx, n: C.BlockCstNode): A.BlockExpr {
  return { kind: "Block", statements: statements(ctx, nodes(n, "statement")), pos: ctx.pos(n) };
}
