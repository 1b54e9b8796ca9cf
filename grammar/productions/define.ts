// DEFINE and REMOVE: every definition kind, its clauses (durations, permissions, JWT config) and names.
import { KW as K } from "../keywords.js";
import * as T from "../tokens.js";
import type { Grammar, Rule } from "./dsl.js";

export interface DefineRules {
  base: Rule;
  defineStmt: Rule;
  commentClause: Rule;
  defineNamespace: Rule;
  defineDatabase: Rule;
  defineUser: Rule;
  durationClause: Rule;
  durationFor: Rule;
  defineScope: Rule;
  defineToken: Rule;
  defineAccess: Rule;
  accessType: Rule;
  jwtConfig: Rule;
  permissions: Rule;
  permissionFor: Rule;
  permissionValue: Rule;
  permissionSimple: Rule;
  defineTable: Rule;
  tableType: Rule;
  tableList: Rule;
  fieldPath: Rule;
  defineField: Rule;
  opaque: Rule;
  defineIndex: Rule;
  defineParam: Rule;
  defineEvent: Rule;
  functionName: Rule;
  defineFunction: Rule;
  fnArg: Rule;
  defineAnalyzer: Rule;
  removeStmt: Rule;
  alterStmt: Rule;
}

/** DSL occurrence indexes of the clauses inlined into many rules (IF NOT EXISTS / OVERWRITE, ON TABLE), unused elsewhere. */
const HEAD = 200;
const ON_TABLE = 201;

export function defineRules($: Grammar): DefineRules {
  const alts_base = [
    { ALT: () => $.CONSUME(K.ROOT) },
    { ALT: () => $.CONSUME(K.KV) },
    { ALT: () => $.CONSUME(K.NS) },
    { ALT: () => $.CONSUME(K.NAMESPACE) },
    { ALT: () => $.CONSUME(K.DB) },
    { ALT: () => $.CONSUME(K.DATABASE) },
  ];

  const alts_defineStmt = [
    { ALT: () => $.SUBRULE($.defineNamespace) },
    { ALT: () => $.SUBRULE($.defineDatabase) },
    { ALT: () => $.SUBRULE($.defineUser) },
    { ALT: () => $.SUBRULE($.defineScope) },
    { ALT: () => $.SUBRULE($.defineToken) },
    { ALT: () => $.SUBRULE($.defineAccess) },
    { ALT: () => $.SUBRULE($.defineTable) },
    { ALT: () => $.SUBRULE($.defineField) },
    { ALT: () => $.SUBRULE($.defineIndex) },
    { ALT: () => $.SUBRULE($.defineParam) },
    { ALT: () => $.SUBRULE($.defineEvent) },
    { ALT: () => $.SUBRULE($.defineFunction) },
    { ALT: () => $.SUBRULE($.defineAnalyzer) },
  ];

  const alts_defineUser = [
    { ALT: () => { $.CONSUME(K.PASSWORD); $.CONSUME(T.StringLiteral, { LABEL: "password" }); } },
    { ALT: () => { $.CONSUME(K.PASSHASH); $.CONSUME2(T.StringLiteral, { LABEL: "passhash" }); } },
    {
      ALT: () => {
        $.CONSUME(K.ROLES);
        $.CONSUME2(T.IdentName, { LABEL: "role" });
        $.MANY2(() => { $.CONSUME(T.Comma); $.CONSUME3(T.IdentName, { LABEL: "role" }); });
      },
    },
    { ALT: () => $.SUBRULE($.durationClause) },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alts_defineAccess = [
    { ALT: () => { $.CONSUME(K.TYPE); $.SUBRULE($.accessType); } },
    { ALT: () => { $.CONSUME(K.AUTHENTICATE); $.SUBRULE($.expr, { LABEL: "authenticate" }); } },
    { ALT: () => $.SUBRULE($.durationClause) },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alts_permissionValue = [
    { ALT: () => $.CONSUME(K.NONE) },
    { ALT: () => $.CONSUME(K.FULL) },
    { ALT: () => { $.CONSUME(K.WHERE); $.SUBRULE($.expr); } },
  ];

  const alts_defineTable = [
    { ALT: () => $.CONSUME(K.DROP) },
    { ALT: () => $.CONSUME(K.SCHEMAFULL) },
    { ALT: () => $.CONSUME(K.SCHEMAFUL) },
    { ALT: () => $.CONSUME(K.SCHEMALESS) },
    { ALT: () => { $.CONSUME(K.TYPE); $.SUBRULE($.tableType); } },
    {
      ALT: () => {
        $.CONSUME(K.AS);
        $.OR2([
          { ALT: () => { $.CONSUME(T.LParen); $.SUBRULE($.selectStmt); $.CONSUME(T.RParen); } },
          { ALT: () => $.SUBRULE2($.selectStmt) },
        ]);
      },
    },
    { ALT: () => { $.CONSUME(K.CHANGEFEED); $.CONSUME(T.DurationLiteral); $.OPTION(() => { $.CONSUME(K.INCLUDE); $.CONSUME(K.ORIGINAL); }); } },
    { ALT: () => $.SUBRULE($.permissions) },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alts_defineField = [
    { ALT: () => $.CONSUME(K.FLEXIBLE) },
    { ALT: () => { $.CONSUME(K.TYPE); $.SUBRULE($.type); } },
    { ALT: () => { $.CONSUME(K.VALUE); $.SUBRULE($.expr, { LABEL: "value" }); } },
    { ALT: () => { $.CONSUME(K.ASSERT); $.SUBRULE2($.expr, { LABEL: "assert" }); } },
    { ALT: () => { $.CONSUME(K.DEFAULT); $.OPTION(() => $.CONSUME(K.ALWAYS)); $.SUBRULE3($.expr, { LABEL: "default" }); } },
    { ALT: () => $.CONSUME(K.READONLY) },
    { ALT: () => $.SUBRULE($.permissions) },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alts_defineIndex = [
    { ALT: () => { $.OR2([{ ALT: () => $.CONSUME(K.FIELDS) }, { ALT: () => $.CONSUME(K.COLUMNS) }]); $.SUBRULE($.idiomList); } },
    { ALT: () => $.CONSUME(K.UNIQUE) },
    {
      ALT: () => {
        $.OR3([{ ALT: () => $.CONSUME(K.SEARCH, { LABEL: "special" }) }, { ALT: () => $.CONSUME(K.MTREE, { LABEL: "special" }) }, { ALT: () => $.CONSUME(K.HNSW, { LABEL: "special" }) }]);
        $.SUBRULE($.opaque);
      },
    },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alts_defineEvent = [
    { ALT: () => { $.CONSUME(K.WHEN); $.SUBRULE($.expr, { LABEL: "when" }); } },
    {
      ALT: () => {
        $.CONSUME(K.THEN);
        $.SUBRULE2($.expr, { LABEL: "then" });
        $.MANY2(() => { $.CONSUME(T.Comma); $.SUBRULE3($.expr, { LABEL: "then" }); });
      },
    },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const base = $.RULE("base", () => {
    $.OR(alts_base);
  });

  const defineStmt = $.RULE("defineStmt", () => {
    $.CONSUME(K.DEFINE);
    $.OR(alts_defineStmt);
  });

  const alts_defineHead = [
    { ALT: () => { $.consume(HEAD, K.IF); $.consume(HEAD, K.NOT); $.consume(HEAD, K.EXISTS); } },
    { ALT: () => $.consume(HEAD, K.OVERWRITE) },
  ];

  /**
   * `IF NOT EXISTS` | `OVERWRITE` after the definition's kind, its tokens in the definition's own node (every DEFINE
   * has it: a node of its own cost a rule invocation and a node per statement). DSL indexes no rule uses otherwise.
   */
  const headChoice = (): void => {
    $.or(HEAD, alts_defineHead);
  };
  // decided on one token, as in a rule of its own: `IF` always starts `IF NOT EXISTS` (never the name `if`)
  const headOption = { MAX_LOOKAHEAD: 1, DEF: headChoice };
  const defineHead = (): void => {
    $.option(HEAD, headOption);
  };

  const alts_commentClause_1 = [{ ALT: () => $.CONSUME(T.StringLiteral) }, { ALT: () => $.CONSUME(K.NONE) }];

  const commentClause = $.RULE("commentClause", () => {
    $.CONSUME(K.COMMENT);
    $.OR(alts_commentClause_1);
  });

  const defineNamespace = $.RULE("defineNamespace", () => {
    $.OR([{ ALT: () => $.CONSUME(K.NAMESPACE) }, { ALT: () => $.CONSUME(K.NS) }]);
    defineHead();
    $.CONSUME(T.IdentName);
    $.MANY(() => $.SUBRULE($.commentClause));
  });

  const defineDatabase = $.RULE("defineDatabase", () => {
    $.OR([{ ALT: () => $.CONSUME(K.DATABASE) }, { ALT: () => $.CONSUME(K.DB) }]);
    defineHead();
    $.CONSUME(T.IdentName);
    $.MANY(() =>
      $.OR2([
        { ALT: () => $.SUBRULE($.commentClause) },
        { ALT: () => { $.CONSUME(K.CHANGEFEED); $.CONSUME(T.DurationLiteral); } },
      ]),
    );
  });

  const defineUser = $.RULE("defineUser", () => {
    $.CONSUME(K.USER);
    defineHead();
    $.CONSUME(T.IdentName);
    $.CONSUME(K.ON);
    $.SUBRULE($.base);
    $.MANY(() =>
      $.OR(alts_defineUser),
    );
  });

  const durationClause = $.RULE("durationClause", () => {
    $.CONSUME(K.DURATION);
    $.SUBRULE($.durationFor);
    $.MANY(() => {
      $.OPTION(() => $.CONSUME(T.Comma));
      $.SUBRULE2($.durationFor);
    });
  });

  const alts_durationFor_1 = [{ ALT: () => $.CONSUME(K.GRANT) }, { ALT: () => $.CONSUME(K.TOKEN) }, { ALT: () => $.CONSUME(K.SESSION) }];
  const alts_durationFor_2 = [{ ALT: () => $.CONSUME(T.DurationLiteral) }, { ALT: () => $.CONSUME(K.NONE) }];

  const durationFor = $.RULE("durationFor", () => {
    $.CONSUME(K.FOR);
    $.OR(alts_durationFor_1);
    $.OR2(alts_durationFor_2);
  });

  const defineScope = $.RULE("defineScope", () => {
    $.CONSUME(K.SCOPE);
    defineHead();
    $.CONSUME(T.IdentName);
    $.MANY(() =>
      $.OR([
        { ALT: () => { $.CONSUME(K.SESSION); $.CONSUME(T.DurationLiteral); } },
        { ALT: () => { $.CONSUME(K.SIGNUP); $.SUBRULE($.expr, { LABEL: "signup" }); } },
        { ALT: () => { $.CONSUME(K.SIGNIN); $.SUBRULE2($.expr, { LABEL: "signin" }); } },
        { ALT: () => $.SUBRULE($.commentClause) },
      ]),
    );
  });

  const defineToken = $.RULE("defineToken", () => {
    $.CONSUME(K.TOKEN);
    defineHead();
    $.CONSUME(T.IdentName);
    $.CONSUME(K.ON);
    $.OR([
      { ALT: () => $.SUBRULE($.base) },
      { ALT: () => { $.CONSUME(K.SCOPE); $.CONSUME2(T.IdentName, { LABEL: "scope" }); } },
    ]);
    $.MANY(() =>
      $.OR2([
        { ALT: () => { $.CONSUME(K.TYPE); $.CONSUME3(T.IdentName, { LABEL: "alg" }); } },
        { ALT: () => { $.CONSUME(K.VALUE); $.CONSUME(T.StringLiteral); } },
        { ALT: () => $.SUBRULE($.commentClause) },
      ]),
    );
  });

  const defineAccess = $.RULE("defineAccess", () => {
    $.CONSUME(K.ACCESS);
    defineHead();
    $.CONSUME(T.IdentName);
    $.CONSUME(K.ON);
    $.SUBRULE($.base);
    $.MANY(() =>
      $.OR(alts_defineAccess),
    );
  });

  const accessType = $.RULE("accessType", () => {
    $.OR([
      { ALT: () => { $.CONSUME(K.JWT); $.SUBRULE($.jwtConfig); } },
      {
        ALT: () => {
          $.CONSUME(K.RECORD);
          $.MANY(() =>
            $.OR2([
              { ALT: () => { $.CONSUME(K.SIGNUP); $.SUBRULE($.expr, { LABEL: "signup" }); } },
              { ALT: () => { $.CONSUME(K.SIGNIN); $.SUBRULE2($.expr, { LABEL: "signin" }); } },
            ]),
          );
          $.MANY2(() => {
            $.OPTION(() => $.CONSUME(T.Comma));
            $.CONSUME(K.WITH);
            $.OR3([
              { ALT: () => { $.CONSUME2(K.JWT); $.SUBRULE2($.jwtConfig); } },
              { ALT: () => $.CONSUME(K.REFRESH) },
            ]);
          });
        },
      },
      {
        ALT: () => {
          $.CONSUME(K.BEARER);
          $.CONSUME(K.FOR);
          $.OR4([{ ALT: () => $.CONSUME(K.USER, { LABEL: "subject" }) }, { ALT: () => $.CONSUME2(K.RECORD, { LABEL: "subject" }) }]);
          $.OPTION2(() => { $.CONSUME2(K.WITH); $.CONSUME3(K.JWT); $.SUBRULE3($.jwtConfig); });
        },
      },
    ]);
  });

  const jwtConfig = $.RULE("jwtConfig", () => {
    $.AT_LEAST_ONE(() =>
      $.OR([
        { ALT: () => { $.CONSUME(K.ALGORITHM); $.CONSUME(T.IdentName, { LABEL: "alg" }); } },
        { ALT: () => { $.CONSUME(K.KEY); $.CONSUME(T.StringLiteral, { LABEL: "key" }); } },
        { ALT: () => { $.CONSUME(K.URL); $.CONSUME2(T.StringLiteral, { LABEL: "url" }); } },
      ]),
    );
    $.OPTION(() => {
      $.CONSUME(K.WITH);
      $.CONSUME(K.ISSUER);
      $.MANY(() =>
        $.OR2([
          { ALT: () => { $.CONSUME2(K.ALGORITHM); $.CONSUME2(T.IdentName, { LABEL: "issuerAlg" }); } },
          { ALT: () => { $.CONSUME2(K.KEY); $.CONSUME3(T.StringLiteral, { LABEL: "issuerKey" }); } },
        ]),
      );
    });
  });

  const alts_permissions_1 = [
    { ALT: () => $.CONSUME(K.NONE) },
    { ALT: () => $.CONSUME(K.FULL) },
    {
      ALT: () =>
        $.AT_LEAST_ONE(() => {
          $.SUBRULE($.permissionFor);
          $.OPTION(() => $.CONSUME(T.Comma));
        }),
    },
  ];

  const permissions = $.RULE("permissions", () => {
    $.CONSUME(K.PERMISSIONS);
    $.OR(alts_permissions_1);
  });

  const permissionFor = $.RULE("permissionFor", () => {
    $.CONSUME(K.FOR);
    $.CONSUME(T.IdentName, { LABEL: "action" });
    $.MANY(() => { $.CONSUME(T.Comma); $.CONSUME2(T.IdentName, { LABEL: "action" }); });
    // the value's parts in this node (no permissionValue node per FOR clause)
    $.OR(alts_permissionValue);
  });

  const permissionValue = $.RULE("permissionValue", () => {
    $.OR(alts_permissionValue);
  });

  /** PERMISSIONS NONE | FULL | WHERE … (params and functions). */
  const permissionSimple = $.RULE("permissionSimple", () => {
    $.CONSUME(K.PERMISSIONS);
    $.SUBRULE($.permissionValue);
  });

  const defineTable = $.RULE("defineTable", () => {
    $.CONSUME(K.TABLE);
    defineHead();
    $.CONSUME(T.IdentName);
    $.MANY(() =>
      $.OR(alts_defineTable),
    );
  });

  const tableType = $.RULE("tableType", () => {
    $.OR([
      { ALT: () => $.CONSUME(K.ANY) },
      { ALT: () => $.CONSUME(K.NORMAL) },
      {
        ALT: () => {
          $.CONSUME(K.RELATION);
          $.MANY(() =>
            $.OR2([
              { ALT: () => { $.OR3([{ ALT: () => $.CONSUME(K.IN) }, { ALT: () => $.CONSUME(K.FROM) }]); $.SUBRULE($.tableList, { LABEL: "from" }); } },
              { ALT: () => { $.OR4([{ ALT: () => $.CONSUME(K.OUT) }, { ALT: () => $.CONSUME(K.TO) }]); $.SUBRULE2($.tableList, { LABEL: "to" }); } },
              { ALT: () => $.CONSUME(K.ENFORCED) },
            ]),
          );
        },
      },
    ]);
  });

  const tableList = $.RULE("tableList", () => {
    $.CONSUME(T.IdentName);
    $.MANY(() => { $.CONSUME(T.Pipe); $.CONSUME2(T.IdentName); });
  });

  const alts_fieldPath_1 = [
    { ALT: () => { $.CONSUME(T.Dot); $.OR2([{ ALT: () => $.CONSUME2(T.IdentName) }, { ALT: () => $.CONSUME(T.Star) }]); } },
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        $.OR3([{ ALT: () => $.CONSUME2(T.Star) }, { ALT: () => $.CONSUME(T.NumberLiteral) }, { ALT: () => $.CONSUME(T.Dollar) }]);
        $.CONSUME(T.RBracket);
      },
    },
  ];

  /** A field path as DEFINE FIELD names it: `a`, `a.b`, `tags[*]`, `tags.*`. */
  const fieldPath = $.RULE("fieldPath", () => {
    $.CONSUME(T.IdentName);
    $.MANY(() =>
      $.OR(alts_fieldPath_1),
    );
  });

  /** `ON [TABLE] name`, the name labelled `table` in the definition's own node. */
  const onTable = (): void => {
    $.consume(ON_TABLE, K.ON);
    $.option(ON_TABLE, tableKeyword);
    $.consume(ON_TABLE, T.IdentName, tableLabel);
  };
  const tableKeyword = (): void => {
    $.consume(ON_TABLE, K.TABLE);
  };
  const tableLabel = { LABEL: "table" };

  const defineField = $.RULE("defineField", () => {
    $.CONSUME(K.FIELD);
    defineHead();
    $.SUBRULE($.fieldPath);
    onTable();
    $.MANY(() =>
      $.OR(alts_defineField),
    );
  });

  /** Tokens kept as written and not interpreted (analyzer definitions, SEARCH / MTREE / HNSW index parameters). */
  const opaque = $.RULE("opaque", () => {
    $.MANY({
      GATE: () => {
        const t = $.LA(1).tokenType;
        return t !== K.COMMENT && t !== T.Semicolon && t !== T.RBrace && t !== T.RParen && t !== T.RBracket;
      },
      DEF: () =>
        $.OR([
          { ALT: () => { $.CONSUME(T.LParen); $.SUBRULE($.opaque); $.CONSUME(T.RParen); } },
          { ALT: () => $.CONSUME(T.AnyToken) },
        ]),
    });
  });

  const defineIndex = $.RULE("defineIndex", () => {
    $.CONSUME(K.INDEX);
    defineHead();
    $.CONSUME(T.IdentName);
    onTable();
    $.MANY(() =>
      $.OR(alts_defineIndex),
    );
  });

  const defineParam = $.RULE("defineParam", () => {
    $.CONSUME(K.PARAM);
    defineHead();
    $.CONSUME(T.Param);
    $.MANY(() =>
      $.OR([
        { ALT: () => { $.CONSUME(K.VALUE); $.SUBRULE($.expr); } },
        { ALT: () => $.SUBRULE($.permissionSimple) },
        { ALT: () => $.SUBRULE($.commentClause) },
      ]),
    );
  });

  const defineEvent = $.RULE("defineEvent", () => {
    $.CONSUME(K.EVENT);
    defineHead();
    $.CONSUME(T.IdentName);
    onTable();
    $.MANY(() =>
      $.OR(alts_defineEvent),
    );
  });

  const functionName = $.RULE("functionName", () => {
    $.CONSUME(T.IdentName);
    $.AT_LEAST_ONE(() => { $.CONSUME(T.DoubleColon); $.CONSUME2(T.IdentName); });
  });

  const defineFunction = $.RULE("defineFunction", () => {
    $.CONSUME(K.FUNCTION);
    defineHead();
    $.SUBRULE($.functionName);
    $.CONSUME(T.LParen);
    $.OPTION(() => {
      $.SUBRULE($.fnArg);
      $.MANY(() => { $.CONSUME(T.Comma); $.SUBRULE2($.fnArg); });
      $.OPTION2(() => $.CONSUME2(T.Comma));
    });
    $.CONSUME(T.RParen);
    $.OPTION3(() => {
      $.OR([{ ALT: () => $.CONSUME(T.RightArrow) }, { ALT: () => $.CONSUME(K.RETURNS) }]);
      $.SUBRULE($.type, { LABEL: "returns" });
    });
    $.SUBRULE($.block);
    $.MANY2(() =>
      $.OR2([{ ALT: () => $.SUBRULE($.commentClause) }, { ALT: () => $.SUBRULE($.permissionSimple) }]),
    );
  });

  const fnArg = $.RULE("fnArg", () => {
    $.CONSUME(T.Param);
    $.CONSUME(T.Colon);
    $.SUBRULE($.type);
  });

  const defineAnalyzer = $.RULE("defineAnalyzer", () => {
    $.CONSUME(K.ANALYZER);
    defineHead();
    $.CONSUME(T.IdentName);
    $.SUBRULE($.opaque);
    $.MANY(() => { $.SUBRULE($.commentClause); $.SUBRULE2($.opaque); });
  });

  const removeStmt = $.RULE("removeStmt", () => {
    $.CONSUME(K.REMOVE);
    $.OR([
      { ALT: () => $.CONSUME(K.NAMESPACE, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.NS, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.DATABASE, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.DB, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.USER, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.ACCESS, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.SCOPE, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.TOKEN, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.TABLE, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.FIELD, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.INDEX, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.PARAM, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.EVENT, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.FUNCTION, { LABEL: "target" }) },
      { ALT: () => $.CONSUME(K.ANALYZER, { LABEL: "target" }) },
    ]);
    $.OPTION(() => { $.CONSUME(K.IF); $.CONSUME(K.EXISTS); });
    $.OR2([
      { ALT: () => $.CONSUME(T.Param) },
      // 2.x: REMOVE FUNCTION fn::x() (the parentheses are optional)
      { ALT: () => { $.SUBRULE($.functionName); $.OPTION4(() => { $.CONSUME(T.LParen); $.CONSUME(T.RParen); }); } },
      { ALT: () => $.SUBRULE($.fieldPath) },
    ]);
    $.OPTION2(() => {
      $.CONSUME(K.ON);
      $.OR3({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => $.SUBRULE($.base) },
          { ALT: () => { $.CONSUME2(K.SCOPE, { LABEL: "onScope" }); $.CONSUME(T.IdentName, { LABEL: "scope" }); } },
          { ALT: () => { $.OPTION3(() => $.CONSUME2(K.TABLE, { LABEL: "onTable" })); $.CONSUME2(T.IdentName, { LABEL: "table" }); } },
        ],
      });
    });
  });

  /** ALTER TABLE [IF EXISTS] name, then the clauses to change (2.x). */
  const alts_alterTable = [
    { ALT: () => { $.CONSUME(K.DROP); $.OPTION2(() => $.CONSUME(K.FALSE)); } },
    { ALT: () => $.CONSUME(K.SCHEMAFULL) },
    { ALT: () => $.CONSUME(K.SCHEMAFUL) },
    { ALT: () => $.CONSUME(K.SCHEMALESS) },
    { ALT: () => { $.CONSUME(K.TYPE); $.SUBRULE($.tableType); } },
    { ALT: () => { $.CONSUME(K.CHANGEFEED); $.OR2([{ ALT: () => { $.CONSUME(T.DurationLiteral); $.OPTION3(() => { $.CONSUME(K.INCLUDE); $.CONSUME(K.ORIGINAL); }); } }, { ALT: () => $.CONSUME(K.NONE) }]); } },
    { ALT: () => $.SUBRULE($.permissions) },
    { ALT: () => $.SUBRULE($.commentClause) },
  ];

  const alterStmt = $.RULE("alterStmt", () => {
    $.CONSUME(K.ALTER);
    $.CONSUME(K.TABLE);
    $.OPTION(() => { $.CONSUME(K.IF); $.CONSUME(K.EXISTS); });
    $.CONSUME(T.IdentName);
    $.MANY(() => $.OR(alts_alterTable));
  });

  return { alterStmt, base, defineStmt, commentClause, defineNamespace, defineDatabase, defineUser, durationClause, durationFor, defineScope, defineToken, defineAccess, accessType, jwtConfig, permissions, permissionFor, permissionValue, permissionSimple, defineTable, tableType, tableList, fieldPath, defineField, opaque, defineIndex, defineParam, defineEvent, functionName, defineFunction, fnArg, defineAnalyzer, removeStmt };
}
