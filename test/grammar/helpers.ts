// Test helpers for the grammar: parse one statement / expression and fail loudly otherwise.
import { expect } from "vitest";
import { parse, parseExpr } from "../../grammar/index.js";
import type { Expr, Statement } from "../../src/ast/nodes.js";
import { ParseError } from "../../src/errors/index.js";
import { Regex } from "../../src/value/types.js";

/** The statement type whose `kind` can be K (UPDATE and UPSERT share one interface). */
type StatementOf<K> = Statement extends infer S ? (S extends { kind: infer SK } ? (K extends SK ? S : never) : never) : never;

export function one<K extends Statement["kind"]>(text: string, kind: K): StatementOf<K> {
  const stmts = parse(text);
  expect(stmts).toHaveLength(1);
  expect(stmts[0].kind).toBe(kind);
  return stmts[0] as StatementOf<K>;
}

export function expr(text: string): Expr {
  return strip(parseExpr(text)) as Expr;
}

/** Removes `pos` recursively so trees compare structurally. */
export function strip<T>(v: T): T {
  if (Array.isArray(v)) return v.map(strip) as T;
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== "pos") out[k] = strip(x);
    return out as T;
  }
  return v;
}

export function parseFails(text: string): ParseError {
  try {
    parse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError);
    return e as ParseError;
  }
  throw new Error(`expected a ParseError for: ${text}`);
}

/** Compact S-expression of an expression for precedence tests: `(+ 1 (* 2 3))`. */
export function sexpr(e: Expr): string {
  switch (e.kind) {
    case "Binary": return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "Unary": return `(${e.op}${sexpr(e.operand)})`;
    case "Literal": return typeof e.value === "string" ? JSON.stringify(e.value) : e.value instanceof Regex ? `/${e.value.source}/` : String(e.value);
    case "Param": return `$${e.name}`;
    case "Idiom": return e.parts.map((p) => (p.kind === "Field" ? p.name : p.kind === "Start" ? sexpr(p.value) : `[${p.kind}]`)).join(".");
    case "Cast": return `(<${e.type.kind === "Basic" ? e.type.name : e.type.kind}> ${sexpr(e.expr)})`;
    case "Subquery": return `(sub ${e.inner.kind === "Expr" ? sexpr(e.inner.expr) : e.inner.kind})`;
    case "Call": return `${e.name}(${e.args.map(sexpr).join(", ")})`;
    default: return e.kind;
  }
}
