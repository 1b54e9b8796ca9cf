// CST → AST, idioms: paths and their parts, graph steps, names that are record ids, calls or constants.
import type { IToken } from "chevrotain";
import type * as A from "../../src/ast/nodes.js";
import { unknownPathMessage } from "../builtin-paths.js";
import type * as C from "../cst.js";
import { parseErrorAt } from "../errors.js";
import { nodes, toks, node, tok, has, req, type Node, type Ctx } from "./context.js";
import { expr, primary, type UnaryParts } from "./expressions.js";
import { recordKey } from "./literals.js";

export function idioms(ctx: Ctx, n: C.IdiomListCstNode): A.IdiomExpr[] {
  return nodes(n, "plainIdiom").map((p) => plainIdiom(ctx, p));
}

export function optIdioms(ctx: Ctx, l: C.IdiomListCstNode | undefined): A.IdiomExpr[] | undefined {
  return l && idioms(ctx, l);
}

/** A path: a name, a param or a graph step, then postfix parts. */
export function plainIdiom(ctx: Ctx, n: C.PlainIdiomCstNode): A.IdiomExpr {
  const t = tok(n, "IdentName"), p = tok(n, "Param");
  const parts: A.IdiomPart[] = t
    ? [{ kind: "Field", name: ctx.nameText(t) }]
    : p
      ? [{ kind: "Start", value: { kind: "Param", name: p.image.slice(1), pos: ctx.pos(p) } }]
      : [graph(ctx, req(node(n, "graphStep")))];
  for (const x of nodes(n, "postfix")) parts.push(postfix(ctx, x));
  return { kind: "Idiom", parts, pos: ctx.pos(n) };
}

/** A primary and its postfix parts: the children of a unary node (the primary's first, then `postfix`). */
export function postfixExpr(ctx: Ctx, n: UnaryParts): A.Expr {
  const base = primary(ctx, n);
  const posts = nodes(n, "postfix");
  if (posts.length === 0) return base;
  const parts: A.IdiomPart[] = base.kind === "Idiom" ? [...base.parts] : [{ kind: "Start", value: base }];
  for (const p of posts) parts.push(postfix(ctx, p));
  return { kind: "Idiom", parts, pos: base.pos };
}

function postfix(ctx: Ctx, n: C.PostfixCstNode): A.IdiomPart {
  if (has(n, "Dot")) {
    if (has(n, "Star")) return { kind: "All" };
    const name = ctx.nameText(req(tok(n, "IdentName")));
    const args = node(n, "args");
    return args ? { kind: "Method", name, args: nodes(args, "expr").map((e) => expr(ctx, e)) } : { kind: "Field", name };
  }
  if (has(n, "LBracket")) {
    if (has(n, "Star")) return { kind: "All" };
    if (has(n, "Dollar")) return { kind: "Last" };
    const w = node(n, "where");
    if (w) return { kind: "Where", cond: expr(ctx, w) };
    return { kind: "Index", index: expr(ctx, req(node(n, "index"))) };
  }
  const g = node(n, "graphStep");
  if (g) return graph(ctx, g);
  const call = node(n, "args");
  if (call) return { kind: "Invoke", args: nodes(call, "expr").map((e) => expr(ctx, e)) };
  if (has(n, "Question")) return { kind: "Optional" };
  return { kind: "Flatten" };
}

export function graph(ctx: Ctx, n: C.GraphStepCstNode): A.GraphPart {
  const dir = req(tok(n, "dir")).image as A.GraphPart["dir"];
  const cond = node(n, "cond"), alias = node(n, "alias");
  return {
    kind: "Graph",
    dir,
    what: toks(n, "what").map((w) => ctx.nameText(w)),
    cond: cond && expr(ctx, cond),
    alias: alias && plainIdiom(ctx, alias),
  };
}

export function identStart(ctx: Ctx, n: C.IdentStartCstNode): A.Expr {
  const names = toks(n, "IdentName");
  const pos = ctx.pos(n);
  const first = ctx.nameText(names[0]);
  const key = node(n, "recordKey");
  if (key) return { kind: "RecordId", table: first, key: recordKey(ctx, key), pos };
  const args = node(n, "args");
  if (names.length === 1) {
    // a bare `NaN` is the float (1.5.4 and 2.6.0), as SurrealDB prints it
    if (!args && names[0].image === "NaN") return { kind: "Literal", value: NaN, pos };
    if (!args) return { kind: "Idiom", parts: [{ kind: "Field", name: first }], pos };
    builtinPath(ctx, names, first);
    return { kind: "Call", name: first.toLowerCase(), args: nodes(args, "expr").map((e) => expr(ctx, e)), pos };
  }
  const path = names.map((x) => ctx.nameText(x));
  if (path[0].toLowerCase() !== "fn") builtinPath(ctx, names, path.join("::"));
  if (!args) return { kind: "Constant", name: path.join("::"), pos };
  const name = path[0].toLowerCase() === "fn" ? ["fn", ...path.slice(1)].join("::") : path.join("::").toLowerCase();
  return { kind: "Call", name, args: nodes(args, "expr").map((e) => expr(ctx, e)), pos };
}

/** A builtin path SurrealDB's parser does not know is a parse error over the whole path (`uuid()`, `is::email`). */
function builtinPath(ctx: Ctx, names: IToken[], path: string): void {
  const message = unknownPathMessage(path, ctx.compat);
  if (message === undefined) return;
  const last = names[names.length - 1]!;
  throw parseErrorAt(ctx.text, names[0]!.startOffset, last.startOffset + last.image.length - names[0]!.startOffset, message);
}
