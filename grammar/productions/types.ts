// Types as written after TYPE or inside `<…>`: `a | b`, `array<string, 10>`, literal types.
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface TypeRules {
  type: Rule;
  typeSingle: Rule;
}

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
      },
    },
    { ALT: () => $.CONSUME(T.StringLiteral) },
    { ALT: () => { $.OPTION3(() => $.CONSUME(T.Minus)); $.CONSUME2(T.NumberLiteral); } },
    { ALT: () => $.CONSUME(T.DurationLiteral) },
    { ALT: () => $.SUBRULE($.array) },
    { ALT: () => $.SUBRULE($.object) },
  ];

  const type = $.RULE("type", () => {
    $.SUBRULE($.typeSingle);
    $.MANY(() => { $.CONSUME(T.Pipe); $.SUBRULE2($.typeSingle); });
  });

  const typeSingle = $.RULE("typeSingle", () => {
    $.OR(alts_typeSingle);
  });

  return { type, typeSingle };
}
