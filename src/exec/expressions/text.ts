// exec/expressions: short SurrealQL text of expressions for result keys (`count`, `a.b`) and messages.
// Falls back on a compact printer; the canonical printer lives in src/ast/print.ts.

import type { Expr, IdiomExpr, IdiomPart } from "../../ast/nodes.js";
import { escapeIdent, toSql } from "../../value/index.js";
import type { Compat } from "../session.js";

function partText(p: IdiomPart, compat: Compat, first: boolean): string {
  switch (p.kind) {
    case "Start":
      return exprText(p.value, compat);
    case "Field":
      return first ? escapeIdent(p.name, { compat }) : `.${escapeIdent(p.name, { compat })}`;
    case "Index":
      return `[${exprText(p.index, compat)}]`;
    case "All":
      return "[*]";
    case "Last":
      return "[$]";
    case "Where":
      return `[WHERE ${exprText(p.cond, compat)}]`;
    case "Method":
      return `.${p.name}(${p.args.map((a) => exprText(a, compat)).join(", ")})`;
    case "Invoke":
      return `(${p.args.map((a) => exprText(a, compat)).join(", ")})`;
    case "Flatten":
      return "…";
    case "Optional":
      return "?";
    case "Graph":
      return `${p.dir}${p.what.length === 1 ? p.what[0] : p.what.length === 0 ? "?" : `(${p.what.join(", ")})`}`;
  }
}

export function idiomText(idiom: IdiomExpr, compat: Compat): string {
  return idiom.parts.map((p, i) => partText(p, compat, i === 0)).join("");
}

export function exprText(e: Expr, compat: Compat): string {
  switch (e.kind) {
    case "Literal":
      return toSql(e.value, { compat });
    case "Param":
      return `$${e.name}`;
    case "Table":
      return escapeIdent(e.name, { compat });
    case "Idiom":
      return idiomText(e, compat);
    case "Binary":
      return `${exprText(e.left, compat)} ${e.op} ${exprText(e.right, compat)}`;
    case "Unary":
      return `${e.op}${exprText(e.operand, compat)}`;
    case "Call":
      return `${e.name}(${e.args.map((a) => exprText(a, compat)).join(", ")})`;
    case "Constant":
      return e.name;
    case "Array":
      return `[${e.items.map((a) => exprText(a, compat)).join(", ")}]`;
    case "Object":
      return `{ ${e.entries.map((x) => `${x.key}: ${exprText(x.value, compat)}`).join(", ")} }`;
    case "RecordId":
      return `${e.table}:${e.key.kind === "Number" || e.key.kind === "String" ? String(e.key.value) : "…"}`;
    default:
      return e.kind.toLowerCase();
  }
}

/** The result key SurrealDB uses for an un-aliased projection. */
export function projectionName(e: Expr, compat: Compat): string {
  if (e.kind === "Idiom") return idiomText(e, compat);
  if (e.kind === "Call") return e.name;
  return exprText(e, compat);
}
