// Types as written after TYPE or inside `<…>`: `a | b`, `array<string, 10>`, literal types.
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface TypeRules {
  type: Rule;
  typeSingle: Rule;
}

const TYPE = 10;

export function typeRules($: Grammar): TypeRules {
  const alts_typeSingle = [
    {
      ALT: () => {
        $.CONSUME(T.IdentName);
        $.OPTION(() => {
          $.CONSUME(T.Lt);
          $.SUBRULE($.type);
          $.OPTION2(() => { $.CONSUME(T.Comma); $.CONSUME(T.NumberLiteral, { LABEL: "max" }); });
          $.CONSUME(T.Gt);
        });
        // 1.x's `record(a, b)`: read only under compat 1 (2.x answers its own error at the `(`)
        $.OPTION4({
          GATE: () => $.compat === 1,
          DEF: () => {
            $.CONSUME(T.LParen);
            $.CONSUME2(T.IdentName, { LABEL: "v1Tables" });
            $.MANY(() => { $.CONSUME2(T.Comma); $.CONSUME3(T.IdentName, { LABEL: "v1Tables" }); });
            $.CONSUME(T.RParen);
          },
        });
      },
    },
    { ALT: () => $.CONSUME(T.StringLiteral) },
    { ALT: () => { $.OPTION3(() => $.CONSUME(T.Minus)); $.CONSUME2(T.NumberLiteral); } },
    { ALT: () => $.CONSUME(T.DurationLiteral) },
    { ALT: () => $.SUBRULE($.array) },
    { ALT: () => $.SUBRULE($.object) },
  ];

  /** `a | b | …`: the first kind's parts sit in the type node itself, the others are `or` nodes (DSL indexes the kinds do not use). */
  const type = $.RULE("type", () => {
    $.or(TYPE, alts_typeSingle);
    $.many(TYPE, otherKind);
  });
  const otherKind = (): void => {
    $.consume(TYPE, T.Pipe);
    $.subrule(TYPE, $.typeSingle, orLabel);
  };
  const orLabel = { LABEL: "or" };

  const typeSingle = $.RULE("typeSingle", () => {
    $.OR(alts_typeSingle);
  });

  return { type, typeSingle };
}
