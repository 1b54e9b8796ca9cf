// Data statements: SELECT CREATE UPDATE/UPSERT DELETE INSERT RELATE and their clauses (SET … , RETURN, TIMEOUT).
import type { TokenType } from "chevrotain";
import { KW as K } from "../keywords.js";
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface DataRules {
  targets: Rule;
  assignment: Rule;
  dataClause: Rule;
  outputClause: Rule;
  tail: Rule;
  fields: Rule;
  field: Rule;
  selectStmt: Rule;
  orderItem: Rule;
  createStmt: Rule;
  updateStmt: Rule;
  deleteStmt: Rule;
  insertStmt: Rule;
  valuesRow: Rule;
  relateStmt: Rule;
  relateValue: Rule;
}

export function dataRules($: Grammar): DataRules {
  /** True when the `(` at LA(1) closes on a `)` that is followed by `tok`. */
  function parenFollowedBy(tok: TokenType): boolean {
    let depth = 0;
    for (let i = 1; ; i++) {
      const t = $.LA(i);
      if (t.tokenType === undefined || t.tokenType.name === "EOF") return false;
      const n = t.tokenType;
      if (n === T.LParen || n === T.LBracket || n === T.LBrace) depth++;
      else if (n === T.RParen || n === T.RBracket || n === T.RBrace) {
        depth--;
        if (depth === 0) return $.LA(i + 1).tokenType === tok;
      }
    }
  }

  const alts_dataClause = [
    {
      ALT: () => {
        $.CONSUME(K.SET);
        $.SUBRULE($.assignment);
        $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.assignment); });
      },
    },
    { ALT: () => { $.CONSUME(K.UNSET); $.SUBRULE($.idiomList); } },
    { ALT: () => { $.CONSUME(K.MERGE); $.SUBRULE($.expr); } },
    { ALT: () => { $.CONSUME(K.CONTENT); $.SUBRULE2($.expr); } },
    { ALT: () => { $.CONSUME(K.REPLACE); $.SUBRULE3($.expr); } },
    { ALT: () => { $.CONSUME(K.PATCH); $.SUBRULE4($.expr); } },
  ];

  const alts_field = [
    { ALT: () => $.CONSUME(T.Star) },
    { ALT: () => { $.SUBRULE($.expr); $.OPTION(() => { $.CONSUME(K.AS); $.SUBRULE($.plainIdiom, { LABEL: "alias" }); }); } },
  ];

  const targets = $.RULE("targets", () => {
    $.SUBRULE($.expr);
    $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.expr); });
  });

  const alts_assignment_1 = [
    { ALT: () => $.CONSUME(T.Eq, { LABEL: "op" }) },
    { ALT: () => $.CONSUME(T.PlusEq, { LABEL: "op" }) },
    { ALT: () => $.CONSUME(T.MinusEq, { LABEL: "op" }) },
    { ALT: () => $.CONSUME(T.PlusQEq, { LABEL: "op" }) },
  ];

  const assignment = $.RULE("assignment", () => {
    $.SUBRULE($.plainIdiom);
    $.OR(alts_assignment_1);
    $.SUBRULE($.expr);
  });

  const dataClause = $.RULE("dataClause", () => {
    $.OR(alts_dataClause);
  });

  const outputClause = $.RULE("outputClause", () => {
    $.CONSUME(K.RETURN);
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => $.CONSUME(K.NONE) },
        { ALT: () => $.CONSUME(K.NULL) },
        { ALT: () => $.CONSUME(K.DIFF) },
        { ALT: () => $.CONSUME(K.BEFORE) },
        { ALT: () => $.CONSUME(K.AFTER) },
        { ALT: () => $.SUBRULE($.fields) },
      ],
    });
  });

  const tail = $.RULE("tail", () => {
    $.OPTION(() => { $.CONSUME(K.TIMEOUT); $.CONSUME(T.DurationLiteral); });
    $.OPTION2(() => $.CONSUME(K.PARALLEL));
  });

  const fields = $.RULE("fields", () => {
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => { $.CONSUME(K.VALUE); $.SUBRULE($.expr, { LABEL: "valueExpr" }); $.OPTION(() => { $.CONSUME(K.AS); $.SUBRULE($.plainIdiom, { LABEL: "valueAlias" }); }); },
        },
        {
          ALT: () => {
            $.SUBRULE($.field);
            $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.field); });
          },
        },
      ],
    });
  });

  const field = $.RULE("field", () => {
    $.OR(alts_field);
  });

  const selectStmt = $.RULE("selectStmt", () => {
    $.CONSUME(K.SELECT);
    $.SUBRULE($.fields);
    $.OPTION(() => { $.CONSUME(K.OMIT); $.SUBRULE($.idiomList, { LABEL: "omit" }); });
    $.CONSUME(K.FROM);
    $.OPTION2(() => $.CONSUME(K.ONLY));
    $.SUBRULE($.targets);
    $.OPTION3(() => {
      $.CONSUME(K.WITH);
      $.OR([
        { ALT: () => $.CONSUME(K.NOINDEX) },
        { ALT: () => { $.CONSUME(K.INDEX); $.CONSUME(T.IdentName, { LABEL: "index" }); $.MANY(() => { $.CONSUME(T.Comma); $.CONSUME2(T.IdentName, { LABEL: "index" }); }); } },
      ]);
    });
    $.OPTION4(() => { $.CONSUME(K.WHERE); $.SUBRULE($.expr, { LABEL: "cond" }); });
    $.OPTION5(() => { $.CONSUME(K.SPLIT); $.OPTION6(() => $.CONSUME(K.ON)); $.SUBRULE2($.idiomList, { LABEL: "split" }); });
    $.OPTION7(() => {
      $.CONSUME(K.GROUP);
      $.OR2({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => $.CONSUME(K.ALL) },
          { ALT: () => { $.OPTION8(() => $.CONSUME(K.BY)); $.SUBRULE3($.idiomList, { LABEL: "group" }); } },
        ],
      });
    });
    $.OPTION9(() => {
      $.CONSUME(K.ORDER);
      $.option(10, () => $.CONSUME2(K.BY));
      $.OR3({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => { $.CONSUME(K.RAND); $.CONSUME(T.LParen); $.CONSUME(T.RParen); } },
          { ALT: () => { $.SUBRULE($.orderItem); $.MANY2(() => { $.CONSUME2(T.Comma); $.SUBRULE2($.orderItem); }); } },
        ],
      });
    });
    // LIMIT and START in either order (SurrealDB accepts both).
    $.MANY3(() =>
      $.OR4([
        { ALT: () => { $.CONSUME(K.LIMIT); $.option(12, () => $.CONSUME3(K.BY)); $.SUBRULE2($.expr, { LABEL: "limit" }); } },
        { ALT: () => { $.CONSUME(K.START); $.option(14, () => $.CONSUME(K.AT)); $.SUBRULE3($.expr, { LABEL: "start" }); } },
      ]),
    );
    $.option(15, () => { $.CONSUME(K.FETCH); $.SUBRULE4($.idiomList, { LABEL: "fetch" }); });
    $.option(16, () => { $.CONSUME(K.VERSION); $.SUBRULE4($.expr, { LABEL: "version" }); });
    $.SUBRULE($.tail);
    $.option(17, () => { $.CONSUME(K.EXPLAIN); $.option(18, () => $.CONSUME(K.FULL)); });
  });

  const orderItem = $.RULE("orderItem", () => {
    $.SUBRULE($.plainIdiom);
    $.OPTION(() => $.CONSUME(K.COLLATE));
    $.OPTION2(() => $.CONSUME(K.NUMERIC));
    $.OPTION3(() => $.OR([{ ALT: () => $.CONSUME(K.ASC) }, { ALT: () => $.CONSUME(K.DESC) }]));
  });

  const createStmt = $.RULE("createStmt", () => {
    $.CONSUME(K.CREATE);
    $.OPTION(() => $.CONSUME(K.ONLY));
    $.SUBRULE($.targets);
    $.OPTION2(() => $.SUBRULE($.dataClause));
    $.OPTION3(() => $.SUBRULE($.outputClause));
    $.SUBRULE($.tail);
  });

  const updateStmt = $.RULE("updateStmt", () => {
    $.OR([{ ALT: () => $.CONSUME(K.UPDATE) }, { ALT: () => $.CONSUME(K.UPSERT) }]);
    $.OPTION(() => $.CONSUME(K.ONLY));
    $.SUBRULE($.targets);
    $.OPTION2(() => $.SUBRULE($.dataClause));
    $.OPTION3(() => { $.CONSUME(K.WHERE); $.SUBRULE($.expr, { LABEL: "cond" }); });
    $.OPTION4(() => $.SUBRULE($.outputClause));
    $.SUBRULE($.tail);
  });

  const deleteStmt = $.RULE("deleteStmt", () => {
    $.CONSUME(K.DELETE);
    $.OPTION(() => $.CONSUME(K.FROM));
    $.OPTION2(() => $.CONSUME(K.ONLY));
    $.SUBRULE($.targets);
    $.OPTION3(() => { $.CONSUME(K.WHERE); $.SUBRULE($.expr, { LABEL: "cond" }); });
    $.OPTION4(() => $.SUBRULE($.outputClause));
    $.SUBRULE($.tail);
  });

  const insertStmt = $.RULE("insertStmt", () => {
    $.CONSUME(K.INSERT);
    $.OPTION(() => $.CONSUME(K.IGNORE));
    $.OPTION2(() => $.CONSUME(K.RELATION));
    $.OPTION3({
      MAX_LOOKAHEAD: 1,
      DEF: () => {
      $.CONSUME(K.INTO);
      $.OR([{ ALT: () => $.CONSUME(T.Param, { LABEL: "intoParam" }) }, { ALT: () => $.CONSUME(T.IdentName, { LABEL: "into" }) }]);
      },
    });
    $.OR2([
      {
        GATE: () => parenFollowedBy(K.VALUES),
        ALT: () => {
          $.CONSUME(T.LParen);
          $.SUBRULE($.idiomList);
          $.CONSUME(T.RParen);
          $.CONSUME(K.VALUES);
          $.SUBRULE($.valuesRow);
          $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.valuesRow); });
        },
      },
      { ALT: () => $.SUBRULE($.expr) },
    ]);
    $.OPTION4(() => {
      $.CONSUME(K.ON);
      $.CONSUME(K.DUPLICATE);
      $.CONSUME(K.KEY);
      $.CONSUME(K.UPDATE);
      $.SUBRULE($.assignment);
      $.MANY2(() => { $.CONSUME2(T.Comma); $.SUBRULE2($.assignment); });
    });
    $.OPTION5(() => $.SUBRULE($.outputClause));
    $.SUBRULE($.tail);
  });

  const valuesRow = $.RULE("valuesRow", () => {
    $.CONSUME(T.LParen);
    $.SUBRULE($.expr);
    $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.expr); });
    $.CONSUME(T.RParen);
  });

  const relateStmt = $.RULE("relateStmt", () => {
    $.CONSUME(K.RELATE);
    $.OPTION(() => $.CONSUME(K.ONLY));
    $.SUBRULE($.relateValue, { LABEL: "first" });
    $.OR([
      { ALT: () => { $.CONSUME(T.RightArrow); $.SUBRULE2($.relateValue, { LABEL: "through" }); $.CONSUME2(T.RightArrow); $.SUBRULE3($.relateValue, { LABEL: "last" }); } },
      { ALT: () => { $.CONSUME(T.LeftArrow); $.SUBRULE4($.relateValue, { LABEL: "through" }); $.CONSUME2(T.LeftArrow); $.SUBRULE5($.relateValue, { LABEL: "last" }); } },
    ]);
    $.OPTION2(() => $.CONSUME(K.UNIQUE));
    $.OPTION3(() => $.SUBRULE($.dataClause));
    $.OPTION4(() => $.SUBRULE($.outputClause));
    $.SUBRULE($.tail);
  });

  const relateValue = $.RULE("relateValue", () => {
    $.OR([
      { ALT: () => $.CONSUME(T.Param) },
      { ALT: () => $.SUBRULE($.array) },
      { ALT: () => $.SUBRULE($.subquery) },
      { ALT: () => { $.CONSUME(T.IdentName); $.OPTION(() => { $.CONSUME(T.Colon); $.SUBRULE($.recordKey); }); } },
    ]);
  });

  return { targets, assignment, dataClause, outputClause, tail, fields, field, selectStmt, orderItem, createStmt, updateStmt, deleteStmt, insertStmt, valuesRow, relateStmt, relateValue };
}
