// Idioms: paths after a value (`.a`, `[0]`, `[WHERE …]`, `->edge->t`), plain paths, identifiers with record ids or function calls.
import { KW as K } from "../keywords.js";
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface IdiomRules {
  idiomList: Rule;
  plainIdiom: Rule;
  postfix: Rule;
  graphStep: Rule;
  identStart: Rule;
}

export function idiomRules($: Grammar): IdiomRules {
  const alts_postfix = [
    {
      ALT: () => {
        $.CONSUME(T.Dot);
        $.OR2(alts_dotPart);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        $.OR3({
          IGNORE_AMBIGUITIES: true,
          DEF: [
            { ALT: () => $.CONSUME2(T.Star) },
            { ALT: () => $.CONSUME(T.Dollar) },
            { ALT: () => { $.CONSUME(K.WHERE); $.SUBRULE($.expr, { LABEL: "where" }); } },
            { ALT: () => { $.CONSUME(T.Question); $.SUBRULE2($.expr, { LABEL: "where" }); } },
            { ALT: () => $.SUBRULE3($.expr, { LABEL: "index" }) },
          ],
        });
        $.CONSUME(T.RBracket);
      },
    },
    { ALT: () => $.SUBRULE($.graphStep) },
    // `(args)`: a call of the value before it (a closure)
    { ALT: () => $.SUBRULE2($.args) },
    { ALT: () => $.CONSUME(T.Ellipsis) },
    { ALT: () => $.CONSUME2(T.Question) },
  ];

  const alts_dotPart = [
    { ALT: () => $.CONSUME(T.Star) },
    { ALT: () => { $.CONSUME(T.IdentName); $.OPTION(methodArgs); } },
  ];

  const methodArgs = (): void => {
    $.SUBRULE($.args);
  };

  const alts_identStart = [
    { ALT: () => { $.CONSUME(T.Colon); $.SUBRULE($.recordKey); } },
    {
      ALT: () => {
        $.AT_LEAST_ONE(pathPart);
        $.OPTION2(pathArgs);
      },
    },
    { ALT: () => $.SUBRULE2($.args) },
  ];

  const pathPart = (): void => {
    $.CONSUME(T.DoubleColon);
    $.CONSUME2(T.IdentName);
  };

  const pathArgs = (): void => {
    $.SUBRULE($.args);
  };

  const idiomList = $.RULE("idiomList", () => {
    $.SUBRULE($.plainIdiom);
    $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.plainIdiom); });
  });

  const alts_plainIdiom_1 = [
    { ALT: () => $.CONSUME(T.IdentName) },
    { ALT: () => $.CONSUME(T.Param) },
    { ALT: () => $.SUBRULE($.graphStep) },
  ];

  /** A path where only a path may stand (SET places, ORDER/GROUP/SPLIT/FETCH/OMIT, aliases): `select`, `a.b[0]`, `$x.y`, `->e->t`. */
  const plainIdiom = $.RULE("plainIdiom", () => {
    $.OR(alts_plainIdiom_1);
    $.MANY(() => $.SUBRULE($.postfix));
  });

  const postfix = $.RULE("postfix", () => {
    $.OR(alts_postfix);
  });

  const graphStep = $.RULE("graphStep", () => {
    $.OR([
      { ALT: () => $.CONSUME(T.RightArrow, { LABEL: "dir" }) },
      { ALT: () => $.CONSUME(T.LeftArrow, { LABEL: "dir" }) },
      { ALT: () => $.CONSUME(T.BothArrow, { LABEL: "dir" }) },
    ]);
    $.OR2([
      { ALT: () => $.CONSUME(T.Question) },
      { ALT: () => $.CONSUME(T.IdentName, { LABEL: "what" }) },
      {
        ALT: () => {
          $.CONSUME(T.LParen);
          $.OR3([{ ALT: () => $.CONSUME2(T.Question) }, { ALT: () => $.CONSUME2(T.IdentName, { LABEL: "what" }) }]);
          $.MANY(() => { $.CONSUME(T.Comma); $.CONSUME3(T.IdentName, { LABEL: "what" }); });
          $.OPTION(() => { $.CONSUME(K.WHERE); $.SUBRULE($.expr, { LABEL: "cond" }); });
          $.OPTION2(() => { $.CONSUME(K.AS); $.SUBRULE($.plainIdiom, { LABEL: "alias" }); });
          $.CONSUME(T.RParen);
        },
      },
    ]);
  });

  /** `ident`, `table:key`, `fn()`, `ns::fn()`, `math::pi`. */
  const identStart = $.RULE("identStart", () => {
    $.CONSUME(T.IdentName);
    $.OPTION(identTail);
  });

  const identTail = (): void => {
    $.OR(alts_identStart);
  };

  return { idiomList, plainIdiom, postfix, graphStep, identStart };
}
