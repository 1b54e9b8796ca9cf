// CST → AST, expressions: operator precedence over the flat operand/operator list, prefix operators, casts, ranges, primaries.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { Decimal, Geometry, type ValueObject } from "../../src/value/types.js";
import { geometryFromObject } from "../../src/value/geometry.js";
import type { IToken } from "chevrotain";
import { durationOrRefusal, isToken, nodes, node, tok, toks, has, req, firstKey, oneOf, firstToken, type Node, type Ctx } from "./context.js";
import { block, statement, statementFrom } from "./statements.js";
import { graph, identStart, postfixExpr } from "./idioms.js";
import { literalValue, noValue, objectEntries, prefixed, stringLiteral, regexLiteral } from "./literals.js";
import { typeKind, typeSingle } from "./types.js";
import { describeFound, parseErrorAt } from "../errors.js";

const opText: Record<string, A.BinaryOp> = {
  AND: "&&", AndAnd: "&&", OR: "||", OrOr: "||", Nullish: "??", Truthy: "?:", Eq: "=", EqEq: "==", NotEq: "!=",
  AnyEq: "?=", AllEq: "*=", Tilde: "~", NotLike: "!~", AnyLike: "?~", AllLike: "*~", Matches: "MATCHES", Lt: "<", LtEq: "<=",
  Gt: ">", GtRange: ">", GtEq: ">=", Plus: "+", Minus: "-", Star: "*", Times: "*", Slash: "/", Divide: "/", Percent: "%", Power: "**",
  IN: "INSIDE", CONTAINS: "CONTAINS", CONTAINSNOT: "CONTAINSNOT", CONTAINSALL: "CONTAINSALL", CONTAINSANY: "CONTAINSANY",
  CONTAINSNONE: "CONTAINSNONE", INSIDE: "INSIDE", NOTINSIDE: "NOTINSIDE", ALLINSIDE: "ALLINSIDE", ANYINSIDE: "ANYINSIDE",
  NONEINSIDE: "NONEINSIDE", OUTSIDE: "OUTSIDE", INTERSECTS: "INTERSECTS",
};
const setOps: Record<string, A.BinaryOp> = {
  "∋": "CONTAINS", "∌": "CONTAINSNOT", "⊇": "CONTAINSALL", "⊃": "CONTAINSANY", "⊅": "CONTAINSNONE",
  "∈": "INSIDE", "∉": "NOTINSIDE", "⊆": "ALLINSIDE", "⊂": "ANYINSIDE", "⊄": "NONEINSIDE",
};

/**
 * Binding power, higher binds tighter (SurrealDB 2.6, checked against the oracle):
 * OR < AND < equality (= IS != == ?= *= ~ !~ ?~ *~ @@) < relation (< <= > >= IN CONTAINS… INSIDE… OUTSIDE INTERSECTS)
 * < + - < * / % < ** < ?? ?: — all left-associative (`2 ** 3 ** 2` is 64, `2 ?? 1 + 1` is 3).
 */
function precedence(op: A.BinaryOp): number {
  switch (op) {
    case "||": return 1;
    case "&&": return 2;
    case "=": case "==": case "!=": case "?=": case "*=": case "~": case "!~": case "?~": case "*~": case "MATCHES": return 4;
    case "+": case "-": return 6;
    case "*": case "/": case "%": return 7;
    case "**": return 8;
    case "??": case "?:": return 9;
    default: return 5;
  }
}

/** Operators SurrealDB 2 refuses to chain without parentheses (`a = b = c`, `a IN b CONTAINS c`); not `==`, `<` `<=` `>` `>=`, `@@`. */
function nonAssociative(op: A.BinaryOp): boolean {
  const p = precedence(op);
  return (p === 4 || p === 5) && op !== "==" && op !== "<" && op !== "<=" && op !== ">" && op !== ">=" && op !== "MATCHES";
}

/** A node holding an operand's parts: a unary node, or an expr node (its first operand). */
export type UnaryParts = { name: string; children: C.UnaryCstChildren };

/** The first operand's parts are the expr node's own, the others are its `operand` nodes. */
export function expr(ctx: Ctx, n: C.ExprCstNode): A.Expr {
  const first = unary(ctx, n);
  const operands = nodes(n, "operand");
  if (operands.length === 0) return first;
  const opNodes = nodes(n, "binaryOp");
  const ops = opNodes.map((o) => binaryOp(ctx, o));
  const refs = opNodes.map((o) => matchRef(ctx, o));
  const values = [first];
  for (const u of operands) values.push(unary(ctx, u));
  // Precedence climbing over the flat operand/operator list (all operators left-associative).
  let i = 0;
  const climb = (minPrec: number): A.Expr => {
    let left = values[i];
    while (i < ops.length && precedence(ops[i]) >= minPrec) {
      const at = i;
      const op = ops[i++];
      const prec = precedence(op);
      const right = climb(prec + 1);
      if (nonAssociative(op) && left.kind === "Binary" && nonAssociative(left.op)) {
        ctx.fail(firstToken(opNodes[at]), "Chaining relational operators have no defined associativity.");
      }
      const ref = refs[at];
      left = ref === undefined ? { kind: "Binary", op, left, right } : { kind: "Binary", op, left, right, ref };
    }
    return left;
  };
  return climb(0);
}

function binaryOp(ctx: Ctx, n: C.BinaryOpCstNode): A.BinaryOp {
  if (has(n, "ref")) return "MATCHES";
  if (has(n, "IS")) return has(n, "NOT") ? "!=" : "=";
  if (has(n, "NOT")) return "NOTINSIDE";
  const t = req(tok(n, "BinaryOpToken"));
  if (t.tokenType.name === "SetOp") return setOps[t.image];
  return opText[t.tokenType.name];
}

function unary(ctx: Ctx, n: UnaryParts): A.Expr {
  const prefix = tok(n, "prefix");
  if (prefix) {
    const inner = req(node(n, "unary"));
    // a prefix binds tighter than a range (`-2..2` begins at -2); a cast takes the whole range (`<array> 1..5`)
    if (node(inner, "valueRange") && firstKey(inner) !== "valueRange") return valueRange(ctx, inner, prefixOp(ctx, prefix, inner, true), n);
    return prefixOp(ctx, prefix, inner, false);
  }
  const t = node(n, "type");
  if (t) return cast(ctx, t, req(node(n, "unary")), n);
  if (node(n, "valueRange")) return valueRange(ctx, n, firstKey(n) === "valueRange" ? undefined : postfixExpr(ctx, n), n);
  return postfixExpr(ctx, n);
}

/** The reference number of `@N@` (a u8, as SurrealDB reads it; 1.5.4 reads no whitespace inside). */
function matchRef(ctx: Ctx, n: C.BinaryOpCstNode): number | undefined {
  const ref = tok(n, "ref");
  if (ref === undefined) return undefined;
  const [open, close] = toks(n, "At");
  if (ctx.compat === 1 && (ref.startOffset !== req(open).startOffset + 1 || req(close).startOffset !== ref.startOffset + ref.image.length)) {
    ctx.fail(ref, "Unexpected whitespace in a match reference `@N@`", ["@"]);
  }
  const dot = ref.image.search(/[^0-9]/);
  if (dot >= 0) throw parseErrorAt(ctx.text, ref.startOffset + dot, 1, `Unexpected character \`${ref.image[dot]}\` starting float, only integers are allowed here`);
  if (Number(ref.image) > 255) ctx.fail(ref, "Invalid integer: number too large to fit in target type");
  return Number(ref.image);
}

/** `-x`, `!x`, `+x` over `inner` (without its range tail when `bare`). */
/** `<type> expr`; `<future> { … }` takes a block only (its value is computed where it stands). */
function cast(ctx: Ctx, t: C.TypeCstNode, operand: C.UnaryCstNode, n: UnaryParts): A.Expr {
  const name = tok(t, "IdentName");
  if (name !== undefined && name.image.toLowerCase() === "future" && !has(t, "Lt") && nodes(t, "or").length === 0) {
    const expr = unary(ctx, operand);
    if (expr.kind !== "Block") ctx.fail(firstToken(operand), `Unexpected ${describeFound(req(firstToken(operand)))}, expected {`, ["`{`"]);
    return { kind: "Cast", type: { kind: "Basic", name: "future" }, expr, pos: ctx.pos(n) };
  }
  return { kind: "Cast", type: typeKind(ctx, t), expr: unary(ctx, operand), pos: ctx.pos(n) };
}

function prefixOp(ctx: Ctx, prefix: IToken, inner: C.UnaryCstNode, bare: boolean): A.Expr {
  const op = prefix.image as A.UnaryOp;
  // `-` before a bare number is part of the literal, so i64's minimum reads
  const num = tok(inner, "NumberLiteral");
  if (op === "-" && num && !tok(inner, "prefix") && !node(inner, "type") && nodes(inner, "postfix").length === 0) {
    return { kind: "Literal", value: ctx.number({ ...num, image: `-${num.image}` }), pos: ctx.pos(prefix) };
  }
  const operand = bare ? postfixExpr(ctx, inner) : unary(ctx, inner);
  if (op === "-" && operand.kind === "Literal" && (typeof operand.value === "bigint" || typeof operand.value === "number")) {
    return { kind: "Literal", value: -operand.value, pos: ctx.pos(prefix) };
  }
  if (op === "-" && operand.kind === "Literal" && operand.value instanceof Decimal) {
    const text = operand.value.text;
    return { kind: "Literal", value: new Decimal(text.startsWith("-") ? text.slice(1) : "-" + text), pos: ctx.pos(prefix) };
  }
  return { kind: "Unary", op, operand, pos: ctx.pos(prefix) };
}

/** `a..b`, `a..=b`, `..b`, `a..`, `..`, and `a>..b`: `holder` holds the range and its `exclusive` `>`. */
function valueRange(ctx: Ctx, holder: UnaryParts, begin: A.Expr | undefined, at: Node): A.RangeExpr {
  return rangeFrom(ctx, req(node(holder, "valueRange")), tok(holder, "exclusive"), begin, at, false);
}

/**
 * The range of `n` from `begin` (`>` excludes it). A range may begin with a range (`afterRange`): 2.6.0 reads an
 * unbounded one so (`1..3..` is `(1..3)..`, `1..>..` is `(1..)>..`) and refuses a bounded one (its chaining error).
 */
function rangeFrom(ctx: Ctx, n: C.ValueRangeCstNode, exclusive: IToken | undefined, begin: A.Expr | undefined, at: Node, afterRange: boolean): A.RangeExpr {
  if (exclusive) ctx.v2Only(exclusive, "A range with an excluded start (`>..`)");
  const from = begin && { expr: begin, inclusive: exclusive === undefined };
  const op = req(tok(n, "op"));
  const endNode = node(n, "end");
  if (endNode !== undefined && afterRange) {
    // 2.6.0 points two characters past the operator
    const note = "use parens, '()', to specify which operator must be evaluated first";
    throw parseErrorAt(ctx.text, op.startOffset + 2, op.image.length, "Chaining range operators has no specified associativity", [], "", note);
  }
  if (endNode === undefined) {
    const range: A.RangeExpr = { kind: "RangeValue", begin: from, end: undefined, pos: ctx.pos(at) };
    const then = node(n, "then");
    return then ? rangeFrom(ctx, then, tok(n, "exclusive"), range, at, true) : range;
  }
  const inclusive = op.image === "..=";
  if (inclusive && req(firstToken(endNode)).startOffset !== op.startOffset + 3) {
    const message = "Unexpected whitespace, expected inclusive range to be immediately followed by a expression";
    throw parseErrorAt(ctx.text, op.startOffset + 3, 1, message, [], "", "Whitespace between a range and it's operands is dissallowed");
  }
  const chained = node(endNode, "valueRange");
  if (chained === undefined || firstKey(endNode) === "valueRange") {
    return { kind: "RangeValue", begin: from, end: { expr: unary(ctx, endNode), inclusive }, pos: ctx.pos(at) };
  }
  const inner: A.RangeExpr = { kind: "RangeValue", begin: from, end: { expr: postfixExpr(ctx, endNode), inclusive }, pos: ctx.pos(at) };
  return rangeFrom(ctx, chained, tok(endNode, "exclusive"), inner, at, true);
}

/** A duration; under compat 1 one past the maximum is a field of that name, as 1.5.4 reads the word (NONE without a document). */
function durationLiteral(ctx: Ctx, t: IToken): A.Expr {
  if (ctx.compat === 1 && typeof durationOrRefusal(t.image, 1) === "string") return { kind: "Idiom", parts: [{ kind: "Field", name: t.image }], pos: ctx.pos(t) };
  return { kind: "Literal", value: ctx.duration(t), pos: ctx.pos(t) };
}

/** What a primary is read from: a unary node's inline alternatives, or the object / block of `{…}`, the mock / closure of `|…|`. */
type PrimaryNode = { children: C.UnaryCstChildren & C.BracedCstChildren & C.PipedCstChildren };

export function primary(ctx: Ctx, n: PrimaryNode): A.Expr {
  const one = oneOf(n);
  switch (one.key) {
    case "StringLiteral": return stringLiteral(ctx, one.node);
    case "PrefixedString": return prefixed(ctx, one.node);
    case "NumberLiteral": return { kind: "Literal", value: ctx.number(one.node), pos: ctx.pos(one.node) };
    case "DurationLiteral": return durationLiteral(ctx, one.node);
    case "RegexLiteral": return { kind: "Literal", value: regexLiteral(ctx, one.node), pos: ctx.pos(one.node) };
    case "NONE": return { kind: "Literal", value: undefined, pos: ctx.pos(one.node) };
    case "NULL": return { kind: "Literal", value: null, pos: ctx.pos(one.node) };
    case "TRUE": return { kind: "Literal", value: true, pos: ctx.pos(one.node) };
    case "FALSE": return { kind: "Literal", value: false, pos: ctx.pos(one.node) };
    case "Param": return { kind: "Param", name: one.node.image.slice(1), pos: ctx.pos(one.node) };
    case "braced":
    case "piped":
      return primary(ctx, one.node);
    case "array": return array(ctx, one.node);
    case "object": return objectOrGeometry(ctx, one.node);
    case "block": return block(ctx, one.node);
    case "subquery": return subquery(ctx, one.node);
    case "graphStep": return { kind: "Idiom", parts: [graph(ctx, one.node)], pos: ctx.pos(one.node) };
    case "closure": return closure(ctx, one.node);
    case "mock": {
      const el = one.node;
      const to = tok(el, "to");
      return { kind: "Mock", table: ctx.nameText(req(tok(el, "IdentName"))), from: BigInt(req(tok(el, "from")).image), to: to && BigInt(to.image), pos: ctx.pos(el) };
    }
    case "identStart": return identStart(ctx, one.node);
    case "ifStmt":
    case "selectStmt":
    case "createStmt":
    case "updateStmt":
    case "deleteStmt":
    case "insertStmt":
    case "relateStmt":
    case "defineStmt":
    case "removeStmt":
      return { kind: "Subquery", inner: statementFrom(ctx, one), pos: ctx.pos(one.node) };
  }
  throw new Error(`internal: primary ${String(one.key)}`);
}

export function array(ctx: Ctx, n: C.ArrayCstNode): A.ArrayExpr {
  return { kind: "Array", items: nodes(n, "expr").map((e) => expr(ctx, e)), pos: ctx.pos(n) };
}

export function object(ctx: Ctx, n: C.ObjectCstNode): A.ObjectExpr {
  return { kind: "Object", entries: objectEntries(ctx, n), pos: ctx.pos(n) };
}

/** An object literal; one of literal values shaped as GeoJSON is a geometry (SurrealDB's parser reads it so). */
function objectOrGeometry(ctx: Ctx, n: C.ObjectCstNode): A.ObjectExpr | A.LiteralExpr {
  const o = object(ctx, n);
  if (o.entries.length !== 2) return o;
  const value = literalValue(o);
  const g = value === noValue ? undefined : geometryFromObject(value as ValueObject, ctx.compat);
  return g ? { kind: "Literal", value: g, pos: o.pos } : o;
}

export function subquery(ctx: Ctx, n: C.SubqueryCstNode): A.SubqueryExpr | A.LiteralExpr {
  let inner = statement(ctx, req(node(n, "statement")));
  const y = node(n, "pointY");
  if (y === undefined) {
    // `(IF …)`: SurrealDB keeps the IF as a value inside the parentheses, so it prints them back.
    if (inner.kind === "If") inner = { kind: "Expr", expr: { kind: "Subquery", inner, pos: inner.pos } };
    return { kind: "Subquery", inner, pos: ctx.pos(n) };
  }
  // `(x, y)`: a point; both coordinates must be number literals.
  const yv = expr(ctx, y);
  const num = (e: A.Expr): number | undefined =>
    e.kind === "Literal" && (typeof e.value === "number" || typeof e.value === "bigint") ? Number(e.value) : e.kind === "Literal" && e.value instanceof Decimal ? Number(e.value.text) : undefined;
  const x = inner.kind === "Expr" ? num(inner.expr) : undefined;
  const yn = num(yv);
  if (x === undefined || yn === undefined) ctx.fail(firstToken(n), "Unexpected token `(`, expected a geometry point of two numbers");
  return { kind: "Literal", value: new Geometry("Point", [x, yn]), pos: ctx.pos(n) };
}

/** `|$x| …` (2.x only: 1.5.4's parser stops at the `|`). */
function closure(ctx: Ctx, n: C.ClosureCstNode): A.ClosureExpr {
  if (ctx.compat === 1) ctx.fail(firstToken(n), "Unexpected token `|`, expected a value", ["a value"]);
  const ret = node(n, "returns");
  return {
    kind: "Closure",
    args: nodes(n, "closureArg").map((a) => {
      const t = node(a, "typeSingle");
      return { name: req(tok(a, "Param")).image.slice(1), type: t && typeSingle(ctx, t) };
    }),
    returns: ret && typeKind(ctx, ret),
    body: expr(ctx, req(node(n, "expr"))),
    pos: ctx.pos(n),
  };
}
