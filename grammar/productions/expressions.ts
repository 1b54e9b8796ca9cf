// Expressions: a flat operand/operator list (to-ast applies precedence), prefix operators, primaries, args, arrays, subqueries, closures.
import { KW as K } from "../keywords.js";
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface ExpressionRules {
  expr: Rule;
  binaryOp: Rule;
  unary: Rule;
  args: Rule;
  braced: Rule;
  piped: Rule;
  array: Rule;
  subquery: Rule;
  closure: Rule;
  valueRange: Rule;
  mock: Rule;
  closureArg: Rule;
}

/** DSL occurrence index of the expr rule's own OR / MANY / SUBRULEs (its first operand's alternatives use 1–9). */
const EXPR = 10;

export function expressionRules($: Grammar): ExpressionRules {
  const alts_binaryOp = [
    { ALT: () => { $.CONSUME(K.IS); $.OPTION(() => $.CONSUME(K.NOT)); } },
    { ALT: () => { $.CONSUME2(K.NOT); $.CONSUME(K.IN); } },
    { ALT: () => $.CONSUME(T.BinaryOpToken) },
    // `@1@`: MATCHES with a match reference (2.6.0 allows whitespace inside, 1.5.4 does not: to-ast)
    { ALT: () => { $.CONSUME(T.At); $.CONSUME(T.NumberLiteral, { LABEL: "ref" }); $.CONSUME2(T.At); } },
  ];

  const alts_unary = [
    { ALT: () => { $.CONSUME(T.Bang, { LABEL: "prefix" }); $.SUBRULE($.unary); } },
    { ALT: () => { $.CONSUME(T.Minus, { LABEL: "prefix" }); $.SUBRULE2($.unary); } },
    { ALT: () => { $.CONSUME(T.Plus, { LABEL: "prefix" }); $.SUBRULE3($.unary); } },
    { ALT: () => { $.CONSUME(T.Lt); $.SUBRULE($.type); $.CONSUME(T.Gt); $.SUBRULE4($.unary); } },
    // the primary's alternatives and its postfix parts inline (no `primary` CST node per operand): the unary
    // node's first child is the primary, then its `postfix` list
    {
      ALT: () => {
        $.OR2(alts_primary);
        $.MANY(postfixes);
        $.OPTION(rangeAfterValue);
      },
    },
    // `..5`, `..=5`, `..`: a range without a begin
    { ALT: () => $.SUBRULE2($.valueRange) },
  ];

  const postfixes = (): void => {
    $.SUBRULE($.postfix);
  };
  // `1..5`, and `1>..5` (`>` touching `..`; 2.6.0: `1 > ..5` stays a comparison)
  const rangeAfterValue = (): void => {
    $.OPTION2(() => $.CONSUME(T.GtRange, { LABEL: "exclusive" }));
    $.SUBRULE($.valueRange);
  };

  const alts_primary = {
    IGNORE_AMBIGUITIES: true,
    MAX_LOOKAHEAD: 1,
    DEF: [
      { ALT: () => $.CONSUME(T.StringLiteral) },
      { ALT: () => $.CONSUME(T.PrefixedString) },
      { ALT: () => $.CONSUME(T.NumberLiteral) },
      { ALT: () => $.CONSUME(T.DurationLiteral) },
      { ALT: () => $.CONSUME(T.RegexLiteral) },
      { ALT: () => $.CONSUME(K.NONE) },
      { ALT: () => $.CONSUME(K.NULL) },
      { ALT: () => $.CONSUME(K.TRUE) },
      { ALT: () => $.CONSUME(K.FALSE) },
      { ALT: () => $.CONSUME(T.Param) },
      { ALT: () => $.SUBRULE($.array) },
      { ALT: () => $.SUBRULE($.braced) },
      { ALT: () => $.SUBRULE($.subquery) },
      { ALT: () => $.SUBRULE($.graphStep) },
      { ALT: () => $.SUBRULE($.selectStmt) },
      { ALT: () => $.SUBRULE($.createStmt) },
      { ALT: () => $.SUBRULE($.updateStmt) },
      { ALT: () => $.SUBRULE($.deleteStmt) },
      { ALT: () => $.SUBRULE($.insertStmt) },
      { ALT: () => $.SUBRULE($.relateStmt) },
      { ALT: () => $.SUBRULE($.defineStmt) },
      { ALT: () => $.SUBRULE($.removeStmt) },
      { ALT: () => $.SUBRULE($.ifStmt) },
      { ALT: () => $.SUBRULE($.piped) },
      { ALT: () => $.SUBRULE($.identStart) },
    ],
  };

  /**
   * Operands and operators in a flat list; to-ast.ts applies SurrealDB's precedence. The first operand's parts sit in
   * the expr node itself (a unary node per expression cost a rule invocation and a node), the others are `operand`s.
   * DSL indexes the unary alternatives do not use.
   */
  const expr = $.RULE("expr", () => {
    $.or(EXPR, alts_unary);
    $.many(EXPR, exprTail);
  });

  const exprTail = (): void => {
    $.subrule(EXPR, $.binaryOp);
    $.subrule(EXPR, $.unary, operandLabel);
  };
  const operandLabel = { LABEL: "operand" };

  const binaryOp = $.RULE("binaryOp", () => {
    $.OR(alts_binaryOp);
  });

  const unary = $.RULE("unary", () => {
    $.OR(alts_unary);
  });

  const args = $.RULE("args", () => {
    $.CONSUME(T.LParen);
    $.OPTION(exprList);
    $.CONSUME(T.RParen);
  });

  /** `expr (, expr)* ,?` inside args and arrays (bodies built once: chevrotain gets the same closures every time). */
  const exprList = (): void => {
    $.SUBRULE($.expr);
    $.MANY(nextExpr);
    $.OPTION2(trailingComma);
  };

  const nextExpr = (): void => {
    $.CONSUME(T.Comma);
    $.SUBRULE2($.expr);
  };

  const trailingComma = (): void => {
    $.CONSUME2(T.Comma);
  };

  const alts_braced_1 = [
    { GATE: () => isObjectStart(), ALT: () => $.SUBRULE($.object) },
    { ALT: () => $.SUBRULE($.block) },
  ];

  /** `{` starts an object when followed by `}` or by `key:`, else a block (GATEs kept out of `primary`, which is hot). */
  const braced = $.RULE("braced", () => {
    $.OR(alts_braced_1);
  });

  /** `|table:1..3|` mock or a closure `|$a| …` / `|| …`. */
  const piped = $.RULE("piped", () => {
    $.OR([
      { GATE: () => $.LA(3).tokenType === T.Colon && $.LA(2).tokenType !== T.Param, ALT: () => $.SUBRULE($.mock) },
      { ALT: () => $.SUBRULE($.closure) },
    ]);
  });

  function isObjectStart(): boolean {
    const t2 = $.LA(2).tokenType;
    if (t2 === T.RBrace) return true;
    const t3 = $.LA(3).tokenType;
    return t3 === T.Colon && (t2 === T.StringLiteral || t2 === T.NumberLiteral || t2 === T.NumIdent || (t2 !== undefined && t2.CATEGORIES !== undefined && t2.CATEGORIES.includes(T.IdentName)));
  }

  const array = $.RULE("array", () => {
    $.CONSUME(T.LBracket);
    $.OPTION(exprList);
    $.CONSUME(T.RBracket);
  });

  /** `( … )`; `(x, y)` is a geometry point. */
  const subquery = $.RULE("subquery", () => {
    $.CONSUME(T.LParen);
    $.nested(() => $.SUBRULE($.statement));
    $.OPTION(() => { $.CONSUME(T.Comma); $.SUBRULE($.expr, { LABEL: "pointY" }); });
    $.CONSUME(T.RParen);
  });

  const closure = $.RULE("closure", () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.Pipe);
          $.OPTION(() => {
            $.SUBRULE($.closureArg);
            $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.closureArg); });
          });
          $.CONSUME2(T.Pipe);
        },
      },
      { ALT: () => $.CONSUME(T.OrOr) },
    ]);
    $.OPTION2(() => { $.CONSUME(T.RightArrow); $.SUBRULE($.type, { LABEL: "returns" }); });
    $.SUBRULE($.expr);
  });

  /**
   * A range value's tail (2.x): `..` then its end unless unbounded (`1..5`, `1..`), or `..=` then its end. 2.6.0 reads
   * no end after whitespace: `1.. 3` is `1..` then `3`, and `1..= 3` an error (to-ast). An unbounded range may be the
   * begin of a `>..` range (`1..>..`; a bounded one there is an error in to-ast).
   */
  const valueRange = $.RULE("valueRange", () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.DotDot, { LABEL: "op" });
          $.OPTION({ GATE: endTouches, DEF: () => $.SUBRULE($.unary, { LABEL: "end" }) });
          $.OPTION2(() => { $.CONSUME(T.GtRange, { LABEL: "exclusive" }); $.SUBRULE($.valueRange, { LABEL: "then" }); });
        },
      },
      { ALT: () => { $.CONSUME(T.DotDotEq, { LABEL: "op" }); $.SUBRULE2($.unary, { LABEL: "end" }); } },
    ]);
  });
  const endTouches = (): boolean => $.LA(1).startOffset === $.LA(0).startOffset + 2;

  /** `|person:1..3|`, `|person:5|`. */
  const mock = $.RULE("mock", () => {
    $.CONSUME(T.Pipe);
    $.CONSUME(T.IdentName);
    $.CONSUME(T.Colon);
    $.CONSUME(T.NumberLiteral, { LABEL: "from" });
    $.OPTION(() => { $.CONSUME(T.DotDot); $.CONSUME2(T.NumberLiteral, { LABEL: "to" }); });
    $.CONSUME2(T.Pipe);
  });

  const closureArg = $.RULE("closureArg", () => {
    $.CONSUME(T.Param);
    // one kind: a `|` closes the parameter list (SurrealDB has no unions here either)
    $.OPTION(() => { $.CONSUME(T.Colon); $.SUBRULE($.typeSingle); });
  });

  return { expr, binaryOp, unary, args, braced, piped, array, subquery, closure, valueRange, mock, closureArg };
}
