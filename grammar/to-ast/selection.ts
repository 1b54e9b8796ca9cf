// CST → AST, SELECT: a SPLIT, GROUP BY or ORDER BY path must be one of the statement's selected fields (as written or as aliased), unless it selects `*`;
// in 1.x, each field beside a GROUP BY must be grouped, an aggregate or static.

import type * as A from "../../src/ast/nodes.js";
import { isAggregate } from "../../src/ast/aggregates.js";
import { printExpr } from "../../src/ast/print.js";
import type * as C from "../cst.js";
import { firstToken, nodes, type Ctx, type Node } from "./context.js";

/** Whether a field of the selection outputs the path `text`: its alias (1.x: an aliased field only that), its path, or a function's name (`count`). */
function selects(f: A.Field, text: string, compat: 1 | 2): boolean {
  if (f.kind === "All") return true;
  if (f.alias !== undefined && printExpr(f.alias) === text) return true;
  if (f.alias !== undefined && compat === 1) return false;
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
    if (fields.items.some((f) => selects(f, text, ctx.compat))) return;
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

/** 1.5.4's static values beside a GROUP BY: literals, constants, and arrays, objects, operators and builtin calls of them (`count() + 1`; not a cast, a subquery or `(1)`). */
function staticV1(e: A.Expr): boolean {
  switch (e.kind) {
    case "Literal":
    case "Constant":
      return true;
    case "Array":
      return e.items.every(staticV1);
    case "Object":
      return e.entries.every((x) => staticV1(x.value));
    case "Binary":
      return staticV1(e.left) && staticV1(e.right);
    case "Unary":
      return staticV1(e.operand);
    case "Call":
      return !e.name.toLowerCase().startsWith("fn::") && e.args.every(staticV1);
    default:
      return false;
  }
}

/** Whether a field may stand beside 1.5.4's GROUP BY `groups`: static, an aggregate call, or a grouped path (as written or by its alias). */
function groupableV1(f: A.Field, groups: readonly string[]): boolean {
  if (f.kind === "All") return false;
  if (staticV1(f.expr) || (f.expr.kind === "Call" && isAggregate(f.expr.name))) return true;
  if (f.alias !== undefined && groups.includes(printExpr(f.alias))) return true;
  return f.expr.kind === "Idiom" && groups.includes(printExpr(f.expr));
}

/** 1.x: refuse a field beside GROUP BY that is not grouped, an aggregate or static, pointing after the last group path (2.x takes it). */
export function checkGroupFields(ctx: Ctx, fields: A.Fields, group: readonly A.IdiomExpr[], at: readonly Node[]): void {
  if (ctx.compat !== 1 || group.length === 0) return;
  const groups = group.map((g) => printExpr(g));
  const bad = fields.items.find((f) => !groupableV1(f, groups));
  if (bad === undefined) return;
  const text = bad.kind === "All" ? "*" : `${printExpr(bad.expr)}${bad.alias === undefined ? "" : ` AS ${printExpr(bad.alias)}`}`;
  const token = firstToken(at[at.length - 1]!);
  const pos = ctx.pos(token);
  ctx.fail(token, `Found '${text}' in SELECT clause at line ${pos?.line ?? 1} column ${(pos?.column ?? 1) + groups[groups.length - 1]!.length}, but field is not an aggregate function, and is not present in GROUP BY expression`);
}
