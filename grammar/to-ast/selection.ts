// CST → AST, SELECT: a SPLIT path must be one of the statement's selected fields (as written or as aliased), unless it selects `*`.

import type * as A from "../../src/ast/nodes.js";
import { printExpr } from "../../src/ast/print.js";
import type * as C from "../cst.js";
import { firstToken, nodes, type Ctx } from "./context.js";

/** Whether a field of the selection outputs the path `text`: its alias, its path, or a function's name (`count`). */
function selects(f: A.Field, text: string): boolean {
  if (f.kind === "All") return true;
  if (f.alias !== undefined && printExpr(f.alias) === text) return true;
  if (f.expr.kind === "Idiom") return printExpr(f.expr) === text;
  return f.expr.kind === "Call" && f.expr.name === text;
}

/** Refuse a SPLIT path the selection does not output, in each version's words (1.x points after the path). */
export function checkSplit(ctx: Ctx, fields: A.Fields, split: readonly A.IdiomExpr[] | undefined, list: C.IdiomListCstNode | undefined): void {
  if (split === undefined || list === undefined) return;
  const cst = nodes(list, "plainIdiom");
  split.forEach((idiom, i) => {
    const text = printExpr(idiom);
    if (fields.items.some((f) => selects(f, text))) return;
    const at = firstToken(cst[i]!);
    if (ctx.compat === 2) ctx.fail(at, `Missing split idiom \`${text}\` in statement selection`);
    const pos = ctx.pos(at);
    ctx.fail(at, `Found '${text}' in SPLIT ON clause at line ${pos?.line ?? 1} column ${(pos?.column ?? 1) + text.length}, but field is is not present in SELECT expression`);
  });
}
