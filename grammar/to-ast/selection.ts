// CST → AST, SELECT: a SPLIT, GROUP BY or ORDER BY path must be one of the statement's selected fields (as written or as aliased), unless it selects `*`.

import type * as A from "../../src/ast/nodes.js";
import { printExpr } from "../../src/ast/print.js";
import type * as C from "../cst.js";
import { firstToken, nodes, type Ctx, type Node } from "./context.js";

/** Whether a field of the selection outputs the path `text`: its alias, its path, or a function's name (`count`). */
function selects(f: A.Field, text: string): boolean {
  if (f.kind === "All") return true;
  if (f.alias !== undefined && printExpr(f.alias) === text) return true;
  if (f.expr.kind === "Idiom") return printExpr(f.expr) === text;
  return f.expr.kind === "Call" && f.expr.name === text;
}

/** The clauses whose paths must be selected, with each version's words for them. */
const CLAUSES = { split: ["split", "SPLIT ON"], group: ["group", "GROUP BY"], order: ["order", "ORDER BY"] } as const;

/**
 * Refuse a SPLIT / GROUP BY / ORDER BY path the selection does not output, in each version's words (1.x points after
 * the path): `SELECT name FROM t ORDER BY age` is a parse error in both.
 */
export function checkSelected(ctx: Ctx, fields: A.Fields, clause: keyof typeof CLAUSES, paths: readonly (A.IdiomExpr | undefined)[], at: readonly Node[]): void {
  const [v2, v1] = CLAUSES[clause];
  paths.forEach((idiom, i) => {
    if (idiom === undefined) return;
    const text = printExpr(idiom);
    if (fields.items.some((f) => selects(f, text))) return;
    const token = firstToken(at[i]!);
    if (ctx.compat === 2) ctx.fail(token, `Missing ${v2} idiom \`${text}\` in statement selection`);
    const pos = ctx.pos(token);
    ctx.fail(token, `Found '${text}' in ${v1} clause at line ${pos?.line ?? 1} column ${(pos?.column ?? 1) + text.length}, but field is is not present in SELECT expression`);
  });
}

/** SPLIT's paths and their CST nodes (the same check). */
export function checkSplit(ctx: Ctx, fields: A.Fields, split: readonly A.IdiomExpr[] | undefined, list: C.IdiomListCstNode | undefined): void {
  if (split === undefined || list === undefined) return;
  checkSelected(ctx, fields, "split", split, nodes(list, "plainIdiom"));
}
