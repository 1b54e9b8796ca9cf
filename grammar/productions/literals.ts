// Literals: record keys (with ranges), objects.
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface LiteralRules {
  recordKey: Rule;
  rangeTail: Rule;
  recordKeyValue: Rule;
  object: Rule;
  objectEntry: Rule;
}

export function literalRules($: Grammar): LiteralRules {
  const minus = (): void => {
    $.CONSUME(T.Minus);
  };

  const alts_recordKeyValue = [
    { ALT: () => { $.OPTION(minus); $.CONSUME(T.NumberLiteral); } },
    { ALT: () => $.CONSUME(T.NumIdent) },
    { ALT: () => $.CONSUME(T.DurationLiteral) },
    { ALT: () => $.CONSUME(T.PrefixedString) },
    { ALT: () => $.CONSUME(T.StringLiteral) },
    { ALT: () => $.SUBRULE($.array) },
    { ALT: () => $.SUBRULE($.object) },
    { ALT: () => { $.CONSUME(T.IdentName); $.OPTION2(() => { $.CONSUME(T.LParen); $.CONSUME(T.RParen); }); } },
  ];

  const alts_objectEntry = [
    { ALT: () => $.CONSUME(T.IdentName) },
    { ALT: () => $.CONSUME(T.StringLiteral) },
    { ALT: () => $.CONSUME(T.NumberLiteral) },
    // `{ 1a: … }`: 1.5.4 prints a key that starts with a digit bare, and reads it back
    { ALT: () => $.CONSUME(T.NumIdent) },
  ];

  const recordKey = $.RULE("recordKey", () => {
    $.OR(alts_recordKey);
  });

  // a key's parts sit in the recordKey node itself (a recordKeyValue node per record id cost a rule invocation)
  const alts_recordKey = [
    // `..`, `..=`, `>..`, `>..=` after a record key (`user:1 > 5` stays a comparison: its `>` is no GtRange)
    { ALT: () => { $.OR2(alts_recordKeyValue); $.option(5, rangeAfterKey); } },
    { ALT: () => $.SUBRULE2($.rangeTail) },
  ];

  const rangeAfterKey = (): void => {
    $.SUBRULE($.rangeTail);
  };

  const rangeTail = $.RULE("rangeTail", () => {
    $.OPTION2(() => $.CONSUME(T.GtRange, { LABEL: "exclusive" }));
    $.OR([{ ALT: () => $.CONSUME(T.DotDot, { LABEL: "op" }) }, { ALT: () => $.CONSUME(T.DotDotEq, { LABEL: "op" }) }]);
    $.OPTION(() => $.SUBRULE($.recordKeyValue, { LABEL: "end" }));
  });

  const recordKeyValue = $.RULE("recordKeyValue", () => {
    $.OR(alts_recordKeyValue);
  });

  const object = $.RULE("object", () => {
    $.CONSUME(T.LBrace);
    $.OPTION(() => {
      $.SUBRULE($.objectEntry);
      $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.objectEntry); });
      $.OPTION2(() => $.CONSUME2(T.Comma));
    });
    $.CONSUME(T.RBrace);
  });

  const objectEntry = $.RULE("objectEntry", () => {
    $.OR(alts_objectEntry);
    $.CONSUME(T.Colon);
    $.SUBRULE($.expr);
  });

  return { recordKey, rangeTail, recordKeyValue, object, objectEntry };
}
