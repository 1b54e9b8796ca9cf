// Statements: the query, blocks, control flow (LET RETURN IF FOR THROW SLEEP BEGIN/COMMIT), USE, OPTION, INFO, LIVE, KILL.
import { KW as K } from "../keywords.js";
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface StatementRules {
  query: Rule;
  queryStatement: Rule;
  statement: Rule;
  block: Rule;
  optionStmt: Rule;
  useStmt: Rule;
  letStmt: Rule;
  returnStmt: Rule;
  ifStmt: Rule;
  forStmt: Rule;
  throwStmt: Rule;
  sleepStmt: Rule;
  txStmt: Rule;
  infoStmt: Rule;
  liveStmt: Rule;
  killStmt: Rule;
}

export function statementRules($: Grammar): StatementRules {
  const alts_statement = {
    IGNORE_AMBIGUITIES: true,
    MAX_LOOKAHEAD: 1,
    DEF: [
      // USE only at the top of a query, as SurrealDB parses it: never inside a block, subquery, function or schema body
      { GATE: () => $.nesting === 0, ALT: () => $.SUBRULE($.useStmt) },
      { ALT: () => $.SUBRULE($.letStmt) },
      { ALT: () => $.SUBRULE($.returnStmt) },
      { ALT: () => $.SUBRULE($.ifStmt) },
      { ALT: () => $.SUBRULE($.forStmt) },
      { ALT: () => $.CONSUME(K.BREAK) },
      { ALT: () => $.CONSUME(K.CONTINUE) },
      { ALT: () => $.SUBRULE($.throwStmt) },
      { ALT: () => $.SUBRULE($.sleepStmt) },
      { ALT: () => $.SUBRULE($.txStmt) },
      { ALT: () => $.SUBRULE($.infoStmt) },
      { ALT: () => $.SUBRULE($.defineStmt) },
      { ALT: () => $.SUBRULE($.removeStmt) },
      { ALT: () => $.SUBRULE($.alterStmt) },
      { ALT: () => $.SUBRULE($.createStmt) },
      { ALT: () => $.SUBRULE($.selectStmt) },
      { ALT: () => $.SUBRULE($.updateStmt) },
      { ALT: () => $.SUBRULE($.deleteStmt) },
      { ALT: () => $.SUBRULE($.insertStmt) },
      { ALT: () => $.SUBRULE($.relateStmt) },
      { ALT: () => $.SUBRULE($.liveStmt) },
      { ALT: () => $.SUBRULE($.killStmt) },
      { ALT: () => $.SUBRULE($.optionStmt) },
      { ALT: () => $.SUBRULE($.expr) },
    ],
  };

  const query = $.RULE("query", () => {
    $.OPTION(firstStatement);
    $.MANY(nextStatement);
  });

  /** One statement of a query, or none (grammar/index.ts `parse` reads a query with it, a statement at a time). */
  const queryStatement = $.RULE("queryStatement", () => {
    $.OPTION(statementChoice);
  });
  // the statement's alternatives inline: its parts sit in the queryStatement node (no `statement` node per statement)
  const statementChoice = (): void => {
    $.OR(alts_statement);
  };
  const firstStatement = (): void => {
    $.SUBRULE($.statement);
  };

  const laterStatement = (): void => {
    $.SUBRULE2($.statement);
  };

  const nextStatement = (): void => {
    $.CONSUME(T.Semicolon);
    $.OPTION2(laterStatement);
  };

  const statement = $.RULE("statement", () => {
    $.OR(alts_statement);
  });

  const block = $.RULE("block", () => {
    $.CONSUME(T.LBrace);
    $.nested(blockStatements);
    $.CONSUME(T.RBrace);
  });

  const blockStatements = (): void => {
    $.OPTION(firstStatement);
    $.MANY(nextStatement);
  };

  /** `OPTION IMPORT [= true|false]` (SurrealDB returns no result for it). */
  const optionStmt = $.RULE("optionStmt", () => {
    $.CONSUME(K.OPTION);
    $.CONSUME(T.IdentName);
    $.OPTION(() => {
      $.CONSUME(T.Eq);
      $.OR([{ ALT: () => $.CONSUME(K.TRUE) }, { ALT: () => $.CONSUME(K.FALSE) }]);
    });
  });

  const useStmt = $.RULE("useStmt", () => {
    $.CONSUME(K.USE);
    $.AT_LEAST_ONE(() =>
      $.OR([
        { ALT: () => { $.OR2([{ ALT: () => $.CONSUME(K.NS) }, { ALT: () => $.CONSUME(K.NAMESPACE) }]); $.CONSUME(T.IdentName, { LABEL: "nsName" }); } },
        { ALT: () => { $.OR3([{ ALT: () => $.CONSUME(K.DB) }, { ALT: () => $.CONSUME(K.DATABASE) }]); $.CONSUME2(T.IdentName, { LABEL: "dbName" }); } },
      ]),
    );
  });

  const letStmt = $.RULE("letStmt", () => {
    $.CONSUME(K.LET);
    $.CONSUME(T.Param);
    $.OPTION(() => { $.CONSUME(T.Colon); $.SUBRULE($.type); });
    $.CONSUME(T.Eq);
    $.SUBRULE($.expr);
  });

  const returnStmt = $.RULE("returnStmt", () => {
    $.CONSUME(K.RETURN);
    $.SUBRULE($.expr);
    $.OPTION(returnFetch);
  });

  const returnFetch = (): void => {
    $.CONSUME(K.FETCH);
    $.SUBRULE($.idiomList);
  };

  const ifStmt = $.RULE("ifStmt", () => {
    $.CONSUME(K.IF);
    $.SUBRULE($.expr, { LABEL: "cond" });
    $.OR([
      {
        ALT: () => {
          $.CONSUME(K.THEN);
          $.SUBRULE2($.expr, { LABEL: "then" });
          $.MANY(() => {
            $.CONSUME(K.ELSE, { LABEL: "elseIf" });
            $.CONSUME2(K.IF);
            $.SUBRULE3($.expr, { LABEL: "cond" });
            $.CONSUME2(K.THEN);
            $.SUBRULE4($.expr, { LABEL: "then" });
          });
          $.OPTION(() => { $.CONSUME2(K.ELSE); $.SUBRULE5($.expr, { LABEL: "otherwise" }); });
          $.CONSUME(K.END);
        },
      },
      {
        ALT: () => {
          $.SUBRULE($.block, { LABEL: "thenBlock" });
          $.MANY2(() => {
            $.CONSUME3(K.ELSE, { LABEL: "elseIf" });
            $.CONSUME3(K.IF);
            $.SUBRULE6($.expr, { LABEL: "cond" });
            $.SUBRULE2($.block, { LABEL: "thenBlock" });
          });
          $.OPTION2(() => { $.CONSUME4(K.ELSE); $.SUBRULE3($.block, { LABEL: "otherwiseBlock" }); });
        },
      },
    ]);
  });

  const forStmt = $.RULE("forStmt", () => {
    $.CONSUME(K.FOR);
    $.CONSUME(T.Param);
    $.CONSUME(K.IN);
    $.SUBRULE($.expr);
    $.SUBRULE($.block);
  });

  const throwStmt = $.RULE("throwStmt", () => {
    $.CONSUME(K.THROW);
    $.SUBRULE($.expr);
  });

  const sleepStmt = $.RULE("sleepStmt", () => {
    $.CONSUME(K.SLEEP);
    $.CONSUME(T.DurationLiteral);
  });

  const txStmt = $.RULE("txStmt", () => {
    $.OR([{ ALT: () => $.CONSUME(K.BEGIN) }, { ALT: () => $.CONSUME(K.COMMIT) }, { ALT: () => $.CONSUME(K.CANCEL) }]);
    // TRANSACTION only at the top of a query: nested, a bare BEGIN is a field and TRANSACTION wants the closing delimiter
    $.OPTION({ GATE: () => $.nesting === 0, DEF: () => $.CONSUME(K.TRANSACTION) });
  });

  const infoStmt = $.RULE("infoStmt", () => {
    $.CONSUME(K.INFO);
    $.CONSUME(K.FOR);
    $.OR([
      { ALT: () => $.SUBRULE($.base) },
      { ALT: () => { $.OR2([{ ALT: () => $.CONSUME(K.TABLE) }, { ALT: () => $.CONSUME(K.TB) }]); $.CONSUME(T.IdentName); } },
      { ALT: () => { $.CONSUME(K.USER); $.CONSUME2(T.IdentName); $.OPTION(() => { $.CONSUME(K.ON); $.SUBRULE2($.base); }); } },
      { ALT: () => { $.CONSUME(K.SCOPE); $.CONSUME3(T.IdentName); } },
      { ALT: () => { $.CONSUME(K.INDEX); $.CONSUME4(T.IdentName); $.CONSUME2(K.ON); $.OPTION2(() => $.CONSUME2(K.TABLE)); $.CONSUME5(T.IdentName, { LABEL: "table" }); } },
    ]);
    $.OPTION3(() => $.CONSUME(K.STRUCTURE));
  });

  const liveStmt = $.RULE("liveStmt", () => {
    $.CONSUME(K.LIVE);
    $.CONSUME(K.SELECT);
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { GATE: () => $.LA(2).tokenType === K.FROM, ALT: () => $.CONSUME(K.DIFF) },
        { ALT: () => $.SUBRULE($.fields) },
      ],
    });
    $.CONSUME(K.FROM);
    $.SUBRULE($.expr, { LABEL: "what" });
    $.OPTION(() => { $.CONSUME(K.WHERE); $.SUBRULE2($.expr, { LABEL: "cond" }); });
    $.OPTION2(() => { $.CONSUME(K.FETCH); $.SUBRULE($.idiomList); });
  });

  const killStmt = $.RULE("killStmt", () => {
    $.CONSUME(K.KILL);
    $.SUBRULE($.expr);
  });

  return { query, queryStatement, statement, block, optionStmt, useStmt, letStmt, returnStmt, ifStmt, forStmt, throwStmt, sleepStmt, txStmt, infoStmt, liveStmt, killStmt };
}
