// CST → AST, data statements: SELECT CREATE UPDATE/UPSERT DELETE INSERT RELATE LIVE and their clauses.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { nodes, toks, node, tok, has, req, type Node, type Ctx, type With } from "./context.js";
import { array, expr, subquery } from "./expressions.js";
import { idioms, optIdioms, plainIdiom } from "./idioms.js";
import { recordKey } from "./literals.js";
import { checkGroupFields, checkSelected, checkSplit } from "./selection.js";

/** A target expression: a bare name becomes a Table. */
function target(ctx: Ctx, e: A.Expr): A.Expr {
  if (e.kind === "Idiom" && e.parts.length === 1 && e.parts[0].kind === "Field") return { kind: "Table", name: e.parts[0].name, pos: e.pos };
  return e;
}

function targets(ctx: Ctx, n: With<"targets", C.TargetsCstNode>): A.Expr[] {
  return nodes(req(node(n, "targets")), "expr").map((e) => target(ctx, expr(ctx, e)));
}

function assignment(ctx: Ctx, n: C.AssignmentCstNode): A.Assignment {
  const op = req(tok(n, "op"));
  const map: Record<string, A.AssignOp> = { Eq: "=", PlusEq: "+=", MinusEq: "-=", PlusQEq: "+?=" };
  return { place: plainIdiom(ctx, req(node(n, "plainIdiom"))), op: map[op.tokenType.name], value: expr(ctx, req(node(n, "expr"))) };
}

function data(ctx: Ctx, n: With<"dataClause", C.DataClauseCstNode>): A.DataClause | undefined {
  const d = node(n, "dataClause");
  if (d === undefined) return undefined;
  if (has(d, "SET")) return { kind: "Set", items: nodes(d, "assignment").map((a) => assignment(ctx, a)) };
  if (has(d, "UNSET")) return { kind: "Unset", fields: idioms(ctx, req(node(d, "idiomList"))) };
  const value = expr(ctx, req(node(d, "expr")));
  if (has(d, "MERGE")) return { kind: "Merge", value };
  if (has(d, "CONTENT")) return { kind: "Content", value };
  if (has(d, "REPLACE")) return { kind: "Replace", value };
  return { kind: "Patch", value };
}

function fields(ctx: Ctx, n: C.FieldsCstNode): A.Fields {
  if (has(n, "VALUE")) {
    const alias = node(n, "valueAlias");
    return { value: true, items: [{ kind: "Single", expr: expr(ctx, req(node(n, "valueExpr"))), alias: alias && plainIdiom(ctx, alias) }] };
  }
  return {
    value: false,
    items: nodes(n, "field").map((f): A.Field => {
      if (has(f, "Star")) return { kind: "All" };
      const alias = node(f, "alias");
      return { kind: "Single", expr: expr(ctx, req(node(f, "expr"))), alias: alias && plainIdiom(ctx, alias) };
    }),
  };
}

function output(ctx: Ctx, n: With<"outputClause", C.OutputClauseCstNode>): A.Output | undefined {
  const o = node(n, "outputClause");
  if (o === undefined) return undefined;
  if (has(o, "NONE")) return { kind: "None" };
  if (has(o, "NULL")) return { kind: "Null" };
  if (has(o, "DIFF")) return { kind: "Diff" };
  if (has(o, "BEFORE")) return { kind: "Before" };
  if (has(o, "AFTER")) return { kind: "After" };
  return { kind: "Fields", fields: fields(ctx, req(node(o, "fields"))) };
}

function tail(ctx: Ctx, n: With<"tail", C.TailCstNode>): { timeout: A.Duration | undefined; parallel: boolean } {
  const t = req(node(n, "tail"));
  const d = tok(t, "DurationLiteral");
  return { timeout: d && ctx.duration(d), parallel: has(t, "PARALLEL") };
}

export function select(ctx: Ctx, n: C.SelectStmtCstNode): A.SelectStatement {
  const optExpr = (key: "cond" | "limit" | "start" | "version") => {
    const e = node(n, key);
    return e && expr(ctx, e);
  };
  let order: A.OrderClause | undefined;
  if (has(n, "ORDER")) {
    order = has(n, "RAND")
      ? { kind: "Random" }
      : {
          kind: "Fields",
          items: nodes(n, "orderItem").map((o) => ({
            field: plainIdiom(ctx, req(node(o, "plainIdiom"))),
            direction: has(o, "DESC") ? "DESC" : "ASC",
            collate: has(o, "COLLATE"),
            numeric: has(o, "NUMERIC"),
          })),
        };
  }
  const idx = toks(n, "index");
  const selected = fields(ctx, req(node(n, "fields")));
  const split = optIdioms(ctx, node(n, "split"));
  checkSplit(ctx, selected, split, node(n, "split"));
  const groupList = node(n, "group");
  const group = optIdioms(ctx, groupList);
  if (group && groupList) {
    checkSelected(ctx, selected, "group", group, nodes(groupList, "plainIdiom"));
    checkGroupFields(ctx, selected, group, nodes(groupList, "plainIdiom"));
  }
  if (order?.kind === "Fields") checkSelected(ctx, selected, "order", order.items.map((o) => o.field), nodes(n, "orderItem"));
  return {
    kind: "Select",
    fields: selected,
    omit: optIdioms(ctx, node(n, "omit")),
    only: has(n, "ONLY"),
    what: targets(ctx, n),
    with: has(n, "NOINDEX") ? { kind: "NoIndex" } : idx.length ? { kind: "Index", names: idx.map((i) => ctx.nameText(i)) } : undefined,
    cond: optExpr("cond"),
    split,
    group: has(n, "GROUP") ? { all: has(n, "ALL"), fields: group ?? [] } : undefined,
    order,
    limit: optExpr("limit"),
    start: optExpr("start"),
    fetch: optIdioms(ctx, node(n, "fetch")),
    version: optExpr("version"),
    ...tail(ctx, n),
    explain: has(n, "EXPLAIN") ? { full: has(n, "FULL") } : undefined,
    pos: ctx.pos(n),
  };
}

export function create(ctx: Ctx, n: C.CreateStmtCstNode): A.CreateStatement {
  return { kind: "Create", only: has(n, "ONLY"), what: targets(ctx, n), data: data(ctx, n), output: output(ctx, n), ...tail(ctx, n), pos: ctx.pos(n) };
}

export function update(ctx: Ctx, n: C.UpdateStmtCstNode): A.UpdateStatement {
  const cond = node(n, "cond");
  const upsert = tok(n, "UPSERT");
  if (upsert) ctx.v2Only(upsert, "UPSERT");
  return {
    kind: has(n, "UPSERT") ? "Upsert" : "Update",
    only: has(n, "ONLY"),
    what: targets(ctx, n),
    data: data(ctx, n),
    cond: cond && expr(ctx, cond),
    output: output(ctx, n),
    ...tail(ctx, n),
    pos: ctx.pos(n),
  };
}

export function deleteStmt(ctx: Ctx, n: C.DeleteStmtCstNode): A.DeleteStatement {
  const cond = node(n, "cond");
  return { kind: "Delete", only: has(n, "ONLY"), what: targets(ctx, n), cond: cond && expr(ctx, cond), output: output(ctx, n), ...tail(ctx, n), pos: ctx.pos(n) };
}

export function insert(ctx: Ctx, n: C.InsertStmtCstNode): A.InsertStatement {
  const into = tok(n, "into"), intoParam = tok(n, "intoParam");
  const relation = tok(n, "RELATION");
  if (relation) ctx.v2Only(relation, "INSERT RELATION");
  let data: A.InsertData;
  if (has(n, "VALUES")) {
    data = {
      kind: "Values",
      fields: idioms(ctx, req(node(n, "idiomList"))),
      rows: nodes(n, "valuesRow").map((r) => nodes(r, "expr").map((e) => expr(ctx, e))),
    };
  } else data = { kind: "Single", value: expr(ctx, req(node(n, "expr"))) };
  const update = has(n, "DUPLICATE") ? nodes(n, "assignment").map((a) => assignment(ctx, a)) : undefined;
  return {
    kind: "Insert",
    into: intoParam ? { kind: "Param", name: intoParam.image.slice(1) } : into ? { kind: "Table", name: ctx.nameText(into) } : undefined,
    relation: has(n, "RELATION"),
    ignore: has(n, "IGNORE"),
    data,
    update,
    output: output(ctx, n),
    ...tail(ctx, n),
    pos: ctx.pos(n),
  };
}

function relateValue(ctx: Ctx, n: C.RelateValueCstNode): A.Expr {
  const p = tok(n, "Param");
  if (p) return { kind: "Param", name: p.image.slice(1), pos: ctx.pos(p) };
  const arr = node(n, "array");
  if (arr) return array(ctx, arr);
  const sq = node(n, "subquery");
  if (sq) return subquery(ctx, sq);
  const name = ctx.nameText(req(tok(n, "IdentName")));
  const key = node(n, "recordKey");
  return key ? { kind: "RecordId", table: name, key: recordKey(ctx, key), pos: ctx.pos(n) } : { kind: "Table", name, pos: ctx.pos(n) };
}

export function relate(ctx: Ctx, n: C.RelateStmtCstNode): A.RelateStatement {
  const first = relateValue(ctx, req(node(n, "first")));
  const through = relateValue(ctx, req(node(n, "through")));
  const last = relateValue(ctx, req(node(n, "last")));
  const reversed = has(n, "LeftArrow");
  return {
    kind: "Relate",
    only: has(n, "ONLY"),
    from: reversed ? last : first,
    through,
    to: reversed ? first : last,
    uniq: has(n, "UNIQUE"),
    data: data(ctx, n),
    output: output(ctx, n),
    ...tail(ctx, n),
    pos: ctx.pos(n),
  };
}

export function live(ctx: Ctx, n: C.LiveStmtCstNode): A.LiveStatement {
  const f = node(n, "fields");
  const cond = node(n, "cond");
  return {
    kind: "Live",
    diff: has(n, "DIFF"),
    fields: f ? fields(ctx, f) : { value: false, items: [{ kind: "All" }] },
    what: target(ctx, expr(ctx, req(node(n, "what")))),
    cond: cond && expr(ctx, cond),
    fetch: optIdioms(ctx, node(n, "idiomList")),
    pos: ctx.pos(n),
  };
}
