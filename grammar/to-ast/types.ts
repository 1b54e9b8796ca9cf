// CST → AST, types: `a | b`, `option<…>`, `array<…, n>`, `record<a | b>`, literal types.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { nodes, node, tok, toks, has, req, firstToken, type Node, type Ctx } from "./context.js";
import { array, object } from "./expressions.js";
import { EXPERIMENTAL_REFERENCES, parseErrorAt } from "../errors.js";

const basicTypes = new Set(["any", "null", "bool", "bytes", "datetime", "decimal", "duration", "float", "int", "number", "object", "point", "string", "uuid", "regex", "range", "function"]);

/** Kinds 1.5.4 does not have (its parser stops there: "Failed to parse query"); literal types are 2.x too. */
const V2_KINDS = new Set(["regex", "range", "function", "true", "false"]);

/** Under compat 1, a 2.x-only kind is a parse error at its first token. */
function refuseV2Kind(ctx: Ctx, at: Parameters<Ctx["fail"]>[0], text: string): void {
  if (ctx.compat === 1) ctx.fail(at, `Unexpected token \`${text}\`, expected a kind name`, ["a kind name"]);
}

/** A node holding one kind's parts: a typeSingle node, or a type node (its first kind). */
type KindParts = { name: string; children: C.TypeSingleCstChildren };

/** The kinds of a type node: the first's parts are its own, the others its `or` nodes. */
function kinds(n: C.TypeCstNode): KindParts[] {
  return [n, ...nodes(n, "or")];
}

export function typeKind(ctx: Ctx, n: C.TypeCstNode): A.TypeKind {
  const others = nodes(n, "or");
  if (others.length === 0) return typeSingle(ctx, n);
  return { kind: "Either", types: kinds(n).map((s) => typeSingle(ctx, s)) };
}

/** Names listed in `record<a | b>` / `geometry<point | line>`. */
function typeNames(ctx: Ctx, n: C.TypeCstNode): string[] {
  return kinds(n).map((s) => {
    const nm = tok(s, "IdentName");
    if (nm === undefined || has(s, "Lt")) ctx.fail(firstToken(s), "Unexpected token, expected a table name", ["an identifier"]);
    return ctx.nameText(nm);
  });
}

export function typeSingle(ctx: Ctx, n: KindParts): A.TypeKind {
  const nm = tok(n, "IdentName");
  if (nm === undefined) {
    const first = firstToken(n as Node);
    refuseV2Kind(ctx, first, first?.image ?? "");
    const s = tok(n, "StringLiteral");
    if (s) return { kind: "Literal", value: { kind: "Literal", value: ctx.string(s) } };
    const num = tok(n, "NumberLiteral");
    if (num) {
      const v = ctx.number(num);
      const neg = has(n, "Minus");
      return { kind: "Literal", value: { kind: "Literal", value: neg ? (typeof v === "bigint" ? -v : typeof v === "number" ? -v : v) : v } };
    }
    const d = tok(n, "DurationLiteral");
    if (d) return { kind: "Literal", value: { kind: "Literal", value: ctx.duration(d) } };
    const arr = node(n, "array");
    if (arr) return { kind: "Literal", value: array(ctx, arr) };
    return { kind: "Literal", value: object(ctx, req(node(n, "object"))) };
  }
  const raw = ctx.nameText(nm);
  const name = raw.toLowerCase();
  if (V2_KINDS.has(name)) refuseV2Kind(ctx, nm, raw);
  const inner = node(n, "type");
  const maxTok = tok(n, "max");
  // 1.x's `record(a, b)` / `geometry(point)` (read only under compat 1); another name takes no `(`
  const v1Names = toks(n, "v1Tables");
  const v1 = v1Names.length > 0 ? v1Names.map((t) => ctx.nameText(t)) : undefined;
  if (v1 && name !== "record" && name !== "geometry") ctx.fail(req(tok(n, "LParen")), "Unexpected token `(`, expected Eof");
  const max = maxTok ? Number(maxTok.image) : undefined;
  switch (name) {
    case "option": {
      if (!inner) ctx.fail(firstToken(nm), "Unexpected token `option`, expected `<`", ["`<`"]);
      // SurrealDB 2.6 rejects option<any>; accepted here (the printer's round-trip properties generate it).
      return { kind: "Option", inner: typeKind(ctx, inner) };
    }
    case "array":
    case "set":
      return { kind: name === "array" ? "Array" : "Set", inner: inner && typeKind(ctx, inner), max };
    case "record":
      return { kind: "Record", tables: v1 ? v1 : inner ? typeNames(ctx, inner) : [] };
    case "geometry":
      return { kind: "Geometry", types: v1 ? v1 : inner ? typeNames(ctx, inner) : [] };

    case "true": case "false":
      return { kind: "Literal", value: { kind: "Literal", value: name === "true" } };
  }
  if (basicTypes.has(name) && !inner) return { kind: "Basic", name: name as A.BasicTypeName };
  if (name === "references") {
    throw parseErrorAt(ctx.text, nm.startOffset, nm.image.length, EXPERIMENTAL_REFERENCES, [], "", "Use of `REFERENCES` keyword is still experimental");
  }
  ctx.fail(firstToken(nm), `Unexpected token \`${raw}\`, expected a kind name`, ["a kind name"]);
}
