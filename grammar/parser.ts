// Parser: tokens → CST. One CstParser instance (performSelfAnalysis once); to-ast.ts turns its CST into the AST.
import { CstParser, type CstNode, type IToken, type TokenType } from "chevrotain";
import { KW, keywordTokens } from "./keywords.js";
import * as T from "./tokens.js";
import { errorMessageProvider } from "./errors.js";

const K = KW;

/**
 * Rules on the parser's stack at most. Prefix chains (`!!!…`, `<int><int>…`) and `IF … THEN IF …` nest without
 * brackets, and each bracket level costs 3–8 rules: this stops all of them with a ParseError well before the JS
 * stack runs out (cold, unoptimised frames overflow at about 1,000 rules; 100 nested parentheses take about 400).
 */
export const MAX_RULE_DEPTH = 512;

/** Thrown on entering a rule past MAX_RULE_DEPTH; `parse` reports it at `token`. */
export class RuleDepthExceeded extends Error {
  constructor(readonly token: IToken) {
    super("Exceeded maximum parse depth");
  }
}

type InvocationHook = (this: CstParser, shortName: number, fullName: string, idxInCallingRule: number) => void;
const enterRule = (CstParser.prototype as unknown as { ruleInvocationStateUpdate: InvocationHook }).ruleInvocationStateUpdate;

export class SurqlParser extends CstParser {
  constructor() {
    super([...T.categoryTokens, ...T.lexerTokens, ...keywordTokens], {
      maxLookahead: 2,
      // Grammar validations (ambiguities, left recursion) run under vitest and on demand; skipping them halves start-up.
      skipValidations: process.env.VITEST === undefined && process.env.SURQL_GRAMMAR_VALIDATE !== "1",
      recoveryEnabled: false,
      errorMessageProvider,
      // no node locations: to-ast.ts finds a node's start from its first token
      nodeLocationTracking: "none",
    });
    this.performSelfAnalysis();
  }

  /** Chevrotain's (untyped, internal) hook on entering every rule: bounds the rule depth. */
  ruleInvocationStateUpdate(shortName: number, fullName: string, idxInCallingRule: number): void {
    enterRule.call(this, shortName, fullName, idxInCallingRule);
    if ((this as unknown as { RULE_STACK_IDX: number }).RULE_STACK_IDX >= MAX_RULE_DEPTH) throw new RuleDepthExceeded(this.LA(1));
  }

  /** Blocks and subqueries the parser stands in: statements there may not be USE. */
  private nesting = 0;

  private nested(parse: () => void): void {
    this.nesting++;
    try {
      parse();
    } finally {
      this.nesting--;
    }
  }

  /** True when the `(` at LA(1) closes on a `)` that is followed by `tok`. */
  private parenFollowedBy(tok: TokenType): boolean {
    let depth = 0;
    for (let i = 1; ; i++) {
      const t = this.LA(i);
      if (t.tokenType === undefined || t.tokenType.name === "EOF") return false;
      const n = t.tokenType;
      if (n === T.LParen || n === T.LBracket || n === T.LBrace) depth++;
      else if (n === T.RParen || n === T.RBracket || n === T.RBrace) {
        depth--;
        if (depth === 0) return this.LA(i + 1).tokenType === tok;
      }
    }
  }

  // OR alternatives of hot rules, built once (an inline array or `() => …` would be allocated on every invocation).
  private readonly alts_statement = {
    IGNORE_AMBIGUITIES: true,
    MAX_LOOKAHEAD: 1,
    DEF: [
      // USE only at the top of a query, as SurrealDB parses it: never inside a block, subquery, function or schema body
      { GATE: () => this.nesting === 0, ALT: () => this.SUBRULE(this.useStmt) },
      { ALT: () => this.SUBRULE(this.letStmt) },
      { ALT: () => this.SUBRULE(this.returnStmt) },
      { ALT: () => this.SUBRULE(this.ifStmt) },
      { ALT: () => this.SUBRULE(this.forStmt) },
      { ALT: () => this.CONSUME(K.BREAK) },
      { ALT: () => this.CONSUME(K.CONTINUE) },
      { ALT: () => this.SUBRULE(this.throwStmt) },
      { ALT: () => this.SUBRULE(this.sleepStmt) },
      { ALT: () => this.SUBRULE(this.txStmt) },
      { ALT: () => this.SUBRULE(this.infoStmt) },
      { ALT: () => this.SUBRULE(this.defineStmt) },
      { ALT: () => this.SUBRULE(this.removeStmt) },
      { ALT: () => this.SUBRULE(this.createStmt) },
      { ALT: () => this.SUBRULE(this.selectStmt) },
      { ALT: () => this.SUBRULE(this.updateStmt) },
      { ALT: () => this.SUBRULE(this.deleteStmt) },
      { ALT: () => this.SUBRULE(this.insertStmt) },
      { ALT: () => this.SUBRULE(this.relateStmt) },
      { ALT: () => this.SUBRULE(this.liveStmt) },
      { ALT: () => this.SUBRULE(this.killStmt) },
      { ALT: () => this.SUBRULE(this.optionStmt) },
      { ALT: () => this.SUBRULE(this.expr) },
    ],
  };
  private readonly alts_base = [
    { ALT: () => this.CONSUME(K.ROOT) },
    { ALT: () => this.CONSUME(K.KV) },
    { ALT: () => this.CONSUME(K.NS) },
    { ALT: () => this.CONSUME(K.NAMESPACE) },
    { ALT: () => this.CONSUME(K.DB) },
    { ALT: () => this.CONSUME(K.DATABASE) },
  ];
  private readonly alts_defineStmt = [
    { ALT: () => this.SUBRULE(this.defineNamespace) },
    { ALT: () => this.SUBRULE(this.defineDatabase) },
    { ALT: () => this.SUBRULE(this.defineUser) },
    { ALT: () => this.SUBRULE(this.defineScope) },
    { ALT: () => this.SUBRULE(this.defineToken) },
    { ALT: () => this.SUBRULE(this.defineAccess) },
    { ALT: () => this.SUBRULE(this.defineTable) },
    { ALT: () => this.SUBRULE(this.defineField) },
    { ALT: () => this.SUBRULE(this.defineIndex) },
    { ALT: () => this.SUBRULE(this.defineParam) },
    { ALT: () => this.SUBRULE(this.defineEvent) },
    { ALT: () => this.SUBRULE(this.defineFunction) },
    { ALT: () => this.SUBRULE(this.defineAnalyzer) },
  ];
  private readonly alts_defineUser = [
    { ALT: () => { this.CONSUME(K.PASSWORD); this.CONSUME(T.StringLiteral, { LABEL: "password" }); } },
    { ALT: () => { this.CONSUME(K.PASSHASH); this.CONSUME2(T.StringLiteral, { LABEL: "passhash" }); } },
    {
      ALT: () => {
        this.CONSUME(K.ROLES);
        this.CONSUME2(T.IdentName, { LABEL: "role" });
        this.MANY2(() => { this.CONSUME(T.Comma); this.CONSUME3(T.IdentName, { LABEL: "role" }); });
      },
    },
    { ALT: () => this.SUBRULE(this.durationClause) },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_defineAccess = [
    { ALT: () => { this.CONSUME(K.TYPE); this.SUBRULE(this.accessType); } },
    { ALT: () => { this.CONSUME(K.AUTHENTICATE); this.SUBRULE(this.expr, { LABEL: "authenticate" }); } },
    { ALT: () => this.SUBRULE(this.durationClause) },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_permissionValue = [
    { ALT: () => this.CONSUME(K.NONE) },
    { ALT: () => this.CONSUME(K.FULL) },
    { ALT: () => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr); } },
  ];
  private readonly alts_defineTable = [
    { ALT: () => this.CONSUME(K.DROP) },
    { ALT: () => this.CONSUME(K.SCHEMAFULL) },
    { ALT: () => this.CONSUME(K.SCHEMAFUL) },
    { ALT: () => this.CONSUME(K.SCHEMALESS) },
    { ALT: () => { this.CONSUME(K.TYPE); this.SUBRULE(this.tableType); } },
    {
      ALT: () => {
        this.CONSUME(K.AS);
        this.OR2([
          { ALT: () => { this.CONSUME(T.LParen); this.SUBRULE(this.selectStmt); this.CONSUME(T.RParen); } },
          { ALT: () => this.SUBRULE2(this.selectStmt) },
        ]);
      },
    },
    { ALT: () => { this.CONSUME(K.CHANGEFEED); this.CONSUME(T.DurationLiteral); this.OPTION(() => { this.CONSUME(K.INCLUDE); this.CONSUME(K.ORIGINAL); }); } },
    { ALT: () => this.SUBRULE(this.permissions) },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_defineField = [
    { ALT: () => this.CONSUME(K.FLEXIBLE) },
    { ALT: () => { this.CONSUME(K.TYPE); this.SUBRULE(this.type); } },
    { ALT: () => { this.CONSUME(K.VALUE); this.SUBRULE(this.expr, { LABEL: "value" }); } },
    { ALT: () => { this.CONSUME(K.ASSERT); this.SUBRULE2(this.expr, { LABEL: "assert" }); } },
    { ALT: () => { this.CONSUME(K.DEFAULT); this.OPTION(() => this.CONSUME(K.ALWAYS)); this.SUBRULE3(this.expr, { LABEL: "default" }); } },
    { ALT: () => this.CONSUME(K.READONLY) },
    { ALT: () => this.SUBRULE(this.permissions) },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_defineIndex = [
    { ALT: () => { this.OR2([{ ALT: () => this.CONSUME(K.FIELDS) }, { ALT: () => this.CONSUME(K.COLUMNS) }]); this.SUBRULE(this.idiomList); } },
    { ALT: () => this.CONSUME(K.UNIQUE) },
    {
      ALT: () => {
        this.OR3([{ ALT: () => this.CONSUME(K.SEARCH, { LABEL: "special" }) }, { ALT: () => this.CONSUME(K.MTREE, { LABEL: "special" }) }, { ALT: () => this.CONSUME(K.HNSW, { LABEL: "special" }) }]);
        this.SUBRULE(this.opaque);
      },
    },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_defineEvent = [
    { ALT: () => { this.CONSUME(K.WHEN); this.SUBRULE(this.expr, { LABEL: "when" }); } },
    {
      ALT: () => {
        this.CONSUME(K.THEN);
        this.SUBRULE2(this.expr, { LABEL: "then" });
        this.MANY2(() => { this.CONSUME(T.Comma); this.SUBRULE3(this.expr, { LABEL: "then" }); });
      },
    },
    { ALT: () => this.SUBRULE(this.commentClause) },
  ];
  private readonly alts_dataClause = [
    {
      ALT: () => {
        this.CONSUME(K.SET);
        this.SUBRULE(this.assignment);
        this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.assignment); });
      },
    },
    { ALT: () => { this.CONSUME(K.UNSET); this.SUBRULE(this.idiomList); } },
    { ALT: () => { this.CONSUME(K.MERGE); this.SUBRULE(this.expr); } },
    { ALT: () => { this.CONSUME(K.CONTENT); this.SUBRULE2(this.expr); } },
    { ALT: () => { this.CONSUME(K.REPLACE); this.SUBRULE3(this.expr); } },
    { ALT: () => { this.CONSUME(K.PATCH); this.SUBRULE4(this.expr); } },
  ];
  private readonly alts_field = [
    { ALT: () => this.CONSUME(T.Star) },
    { ALT: () => { this.SUBRULE(this.expr); this.OPTION(() => { this.CONSUME(K.AS); this.SUBRULE(this.plainIdiom, { LABEL: "alias" }); }); } },
  ];
  private readonly alts_binaryOp = [
    { ALT: () => { this.CONSUME(K.IS); this.OPTION(() => this.CONSUME(K.NOT)); } },
    { ALT: () => { this.CONSUME2(K.NOT); this.CONSUME(K.IN); } },
    { ALT: () => this.CONSUME(T.BinaryOpToken) },
  ];
  private readonly alts_unary = [
    { ALT: () => { this.CONSUME(T.Bang, { LABEL: "prefix" }); this.SUBRULE(this.unary); } },
    { ALT: () => { this.CONSUME(T.Minus, { LABEL: "prefix" }); this.SUBRULE2(this.unary); } },
    { ALT: () => { this.CONSUME(T.Plus, { LABEL: "prefix" }); this.SUBRULE3(this.unary); } },
    { ALT: () => { this.CONSUME(T.Lt); this.SUBRULE(this.type); this.CONSUME(T.Gt); this.SUBRULE4(this.unary); } },
    // the primary's alternatives and its postfix parts inline (no `primary` CST node per operand): the unary
    // node's first child is the primary, then its `postfix` list
    {
      ALT: () => {
        this.OR2(this.alts_primary);
        this.MANY(this.postfixes);
        this.OPTION(this.rangeAfterValue);
      },
    },
    // `..5`, `..=5`, `..`: a range without a begin
    { ALT: () => this.SUBRULE2(this.valueRange) },
  ];
  private readonly rangeAfterValue = (): void => {
    this.SUBRULE(this.valueRange);
  };
  private readonly alts_postfix = [
    {
      ALT: () => {
        this.CONSUME(T.Dot);
        this.OR2(this.alts_dotPart);
      },
    },
    {
      ALT: () => {
        this.CONSUME(T.LBracket);
        this.OR3({
          IGNORE_AMBIGUITIES: true,
          DEF: [
            { ALT: () => this.CONSUME2(T.Star) },
            { ALT: () => this.CONSUME(T.Dollar) },
            { ALT: () => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr, { LABEL: "where" }); } },
            { ALT: () => { this.CONSUME(T.Question); this.SUBRULE2(this.expr, { LABEL: "where" }); } },
            { ALT: () => this.SUBRULE3(this.expr, { LABEL: "index" }) },
          ],
        });
        this.CONSUME(T.RBracket);
      },
    },
    { ALT: () => this.SUBRULE(this.graphStep) },
    { ALT: () => this.CONSUME(T.Ellipsis) },
    { ALT: () => this.CONSUME2(T.Question) },
  ];
  private readonly alts_dotPart = [
    { ALT: () => this.CONSUME(T.Star) },
    { ALT: () => { this.CONSUME(T.IdentName); this.OPTION(this.methodArgs); } },
  ];
  private readonly methodArgs = (): void => {
    this.SUBRULE(this.args);
  };
  private readonly alts_identStart = [
    { ALT: () => { this.CONSUME(T.Colon); this.SUBRULE(this.recordKey); } },
    {
      ALT: () => {
        this.AT_LEAST_ONE(this.pathPart);
        this.OPTION2(this.pathArgs);
      },
    },
    { ALT: () => this.SUBRULE2(this.args) },
  ];
  private readonly pathPart = (): void => {
    this.CONSUME(T.DoubleColon);
    this.CONSUME2(T.IdentName);
  };
  private readonly pathArgs = (): void => {
    this.SUBRULE(this.args);
  };
  private readonly minus = (): void => {
    this.CONSUME(T.Minus);
  };
  private readonly alts_recordKeyValue = [
    { ALT: () => { this.OPTION(this.minus); this.CONSUME(T.NumberLiteral); } },
    { ALT: () => this.CONSUME(T.NumIdent) },
    { ALT: () => this.CONSUME(T.DurationLiteral) },
    { ALT: () => this.CONSUME(T.PrefixedString) },
    { ALT: () => this.CONSUME(T.StringLiteral) },
    { ALT: () => this.SUBRULE(this.array) },
    { ALT: () => this.SUBRULE(this.object) },
    { ALT: () => { this.CONSUME(T.IdentName); this.OPTION2(() => { this.CONSUME(T.LParen); this.CONSUME(T.RParen); }); } },
  ];
  private readonly alts_objectEntry = [
    { ALT: () => this.CONSUME(T.IdentName) },
    { ALT: () => this.CONSUME(T.StringLiteral) },
    { ALT: () => this.CONSUME(T.NumberLiteral) },
  ];
  private readonly alts_typeSingle = [
    {
      ALT: () => {
        this.CONSUME(T.IdentName);
        this.OPTION(() => {
          this.CONSUME(T.Lt);
          this.SUBRULE(this.type);
          this.OPTION2(() => { this.CONSUME(T.Comma); this.CONSUME(T.NumberLiteral, { LABEL: "max" }); });
          this.CONSUME(T.Gt);
        });
      },
    },
    { ALT: () => this.CONSUME(T.StringLiteral) },
    { ALT: () => { this.OPTION3(() => this.CONSUME(T.Minus)); this.CONSUME2(T.NumberLiteral); } },
    { ALT: () => this.CONSUME(T.DurationLiteral) },
    { ALT: () => this.SUBRULE(this.array) },
    { ALT: () => this.SUBRULE(this.object) },
  ];
  private readonly alts_primary = {
    IGNORE_AMBIGUITIES: true,
    MAX_LOOKAHEAD: 1,
    DEF: [
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.PrefixedString) },
      { ALT: () => this.CONSUME(T.NumberLiteral) },
      { ALT: () => this.CONSUME(T.DurationLiteral) },
      { ALT: () => this.CONSUME(K.NONE) },
      { ALT: () => this.CONSUME(K.NULL) },
      { ALT: () => this.CONSUME(K.TRUE) },
      { ALT: () => this.CONSUME(K.FALSE) },
      { ALT: () => this.CONSUME(T.Param) },
      { ALT: () => this.SUBRULE(this.array) },
      { ALT: () => this.SUBRULE(this.braced) },
      { ALT: () => this.SUBRULE(this.subquery) },
      { ALT: () => this.SUBRULE(this.graphStep) },
      { ALT: () => this.SUBRULE(this.selectStmt) },
      { ALT: () => this.SUBRULE(this.createStmt) },
      { ALT: () => this.SUBRULE(this.updateStmt) },
      { ALT: () => this.SUBRULE(this.deleteStmt) },
      { ALT: () => this.SUBRULE(this.insertStmt) },
      { ALT: () => this.SUBRULE(this.relateStmt) },
      { ALT: () => this.SUBRULE(this.defineStmt) },
      { ALT: () => this.SUBRULE(this.removeStmt) },
      { ALT: () => this.SUBRULE(this.ifStmt) },
      { ALT: () => this.SUBRULE(this.piped) },
      { ALT: () => this.SUBRULE(this.identStart) },
    ],
  };

  // ───────────── statements ─────────────

  query = this.RULE("query", () => {
    this.OPTION(this.firstStatement);
    this.MANY(this.nextStatement);
  });
  private readonly firstStatement = (): void => {
    this.SUBRULE(this.statement);
  };
  private readonly laterStatement = (): void => {
    this.SUBRULE2(this.statement);
  };
  private readonly nextStatement = (): void => {
    this.CONSUME(T.Semicolon);
    this.OPTION2(this.laterStatement);
  };

  statement = this.RULE("statement", () => {
    this.OR(this.alts_statement);
  });

  block = this.RULE("block", () => {
    this.CONSUME(T.LBrace);
    this.nested(this.blockStatements);
    this.CONSUME(T.RBrace);
  });
  private readonly blockStatements = (): void => {
    this.OPTION(this.firstStatement);
    this.MANY(this.nextStatement);
  };

  /** `OPTION IMPORT [= true|false]` (SurrealDB returns no result for it). */
  optionStmt = this.RULE("optionStmt", () => {
    this.CONSUME(K.OPTION);
    this.CONSUME(T.IdentName);
    this.OPTION(() => {
      this.CONSUME(T.Eq);
      this.OR([{ ALT: () => this.CONSUME(K.TRUE) }, { ALT: () => this.CONSUME(K.FALSE) }]);
    });
  });

  useStmt = this.RULE("useStmt", () => {
    this.CONSUME(K.USE);
    this.AT_LEAST_ONE(() =>
      this.OR([
        { ALT: () => { this.OR2([{ ALT: () => this.CONSUME(K.NS) }, { ALT: () => this.CONSUME(K.NAMESPACE) }]); this.CONSUME(T.IdentName, { LABEL: "nsName" }); } },
        { ALT: () => { this.OR3([{ ALT: () => this.CONSUME(K.DB) }, { ALT: () => this.CONSUME(K.DATABASE) }]); this.CONSUME2(T.IdentName, { LABEL: "dbName" }); } },
      ]),
    );
  });

  letStmt = this.RULE("letStmt", () => {
    this.CONSUME(K.LET);
    this.CONSUME(T.Param);
    this.OPTION(() => { this.CONSUME(T.Colon); this.SUBRULE(this.type); });
    this.CONSUME(T.Eq);
    this.SUBRULE(this.expr);
  });

  returnStmt = this.RULE("returnStmt", () => {
    this.CONSUME(K.RETURN);
    this.SUBRULE(this.expr);
    this.OPTION(this.returnFetch);
  });
  private readonly returnFetch = (): void => {
    this.CONSUME(K.FETCH);
    this.SUBRULE(this.idiomList);
  };

  ifStmt = this.RULE("ifStmt", () => {
    this.CONSUME(K.IF);
    this.SUBRULE(this.expr, { LABEL: "cond" });
    this.OR([
      {
        ALT: () => {
          this.CONSUME(K.THEN);
          this.SUBRULE2(this.expr, { LABEL: "then" });
          this.MANY(() => {
            this.CONSUME(K.ELSE, { LABEL: "elseIf" });
            this.CONSUME2(K.IF);
            this.SUBRULE3(this.expr, { LABEL: "cond" });
            this.CONSUME2(K.THEN);
            this.SUBRULE4(this.expr, { LABEL: "then" });
          });
          this.OPTION(() => { this.CONSUME2(K.ELSE); this.SUBRULE5(this.expr, { LABEL: "otherwise" }); });
          this.CONSUME(K.END);
        },
      },
      {
        ALT: () => {
          this.SUBRULE(this.block, { LABEL: "thenBlock" });
          this.MANY2(() => {
            this.CONSUME3(K.ELSE, { LABEL: "elseIf" });
            this.CONSUME3(K.IF);
            this.SUBRULE6(this.expr, { LABEL: "cond" });
            this.SUBRULE2(this.block, { LABEL: "thenBlock" });
          });
          this.OPTION2(() => { this.CONSUME4(K.ELSE); this.SUBRULE3(this.block, { LABEL: "otherwiseBlock" }); });
        },
      },
    ]);
  });

  forStmt = this.RULE("forStmt", () => {
    this.CONSUME(K.FOR);
    this.CONSUME(T.Param);
    this.CONSUME(K.IN);
    this.SUBRULE(this.expr);
    this.SUBRULE(this.block);
  });

  throwStmt = this.RULE("throwStmt", () => {
    this.CONSUME(K.THROW);
    this.SUBRULE(this.expr);
  });

  sleepStmt = this.RULE("sleepStmt", () => {
    this.CONSUME(K.SLEEP);
    this.CONSUME(T.DurationLiteral);
  });

  txStmt = this.RULE("txStmt", () => {
    this.OR([{ ALT: () => this.CONSUME(K.BEGIN) }, { ALT: () => this.CONSUME(K.COMMIT) }, { ALT: () => this.CONSUME(K.CANCEL) }]);
    this.OPTION(() => this.CONSUME(K.TRANSACTION));
  });

  base = this.RULE("base", () => {
    this.OR(this.alts_base);
  });

  infoStmt = this.RULE("infoStmt", () => {
    this.CONSUME(K.INFO);
    this.CONSUME(K.FOR);
    this.OR([
      { ALT: () => this.SUBRULE(this.base) },
      { ALT: () => { this.OR2([{ ALT: () => this.CONSUME(K.TABLE) }, { ALT: () => this.CONSUME(K.TB) }]); this.CONSUME(T.IdentName); } },
      { ALT: () => { this.CONSUME(K.USER); this.CONSUME2(T.IdentName); this.OPTION(() => { this.CONSUME(K.ON); this.SUBRULE2(this.base); }); } },
      { ALT: () => { this.CONSUME(K.SCOPE); this.CONSUME3(T.IdentName); } },
      { ALT: () => { this.CONSUME(K.INDEX); this.CONSUME4(T.IdentName); this.CONSUME2(K.ON); this.OPTION2(() => this.CONSUME2(K.TABLE)); this.CONSUME5(T.IdentName, { LABEL: "table" }); } },
    ]);
    this.OPTION3(() => this.CONSUME(K.STRUCTURE));
  });

  // ───────────── DEFINE / REMOVE ─────────────

  defineStmt = this.RULE("defineStmt", () => {
    this.CONSUME(K.DEFINE);
    this.OR(this.alts_defineStmt);
  });

  private readonly alts_defineHead_1 = [
    { ALT: () => { this.CONSUME(K.IF); this.CONSUME(K.NOT); this.CONSUME(K.EXISTS); } },
    { ALT: () => this.CONSUME(K.OVERWRITE) },
  ];

  /** `IF NOT EXISTS` | `OVERWRITE` */
  defineHead = this.RULE("defineHead", () => {
    this.OPTION(() =>
      this.OR(this.alts_defineHead_1),
    );
  });

  private readonly alts_commentClause_1 = [{ ALT: () => this.CONSUME(T.StringLiteral) }, { ALT: () => this.CONSUME(K.NONE) }];

  commentClause = this.RULE("commentClause", () => {
    this.CONSUME(K.COMMENT);
    this.OR(this.alts_commentClause_1);
  });

  defineNamespace = this.RULE("defineNamespace", () => {
    this.OR([{ ALT: () => this.CONSUME(K.NAMESPACE) }, { ALT: () => this.CONSUME(K.NS) }]);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.MANY(() => this.SUBRULE(this.commentClause));
  });

  defineDatabase = this.RULE("defineDatabase", () => {
    this.OR([{ ALT: () => this.CONSUME(K.DATABASE) }, { ALT: () => this.CONSUME(K.DB) }]);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.MANY(() =>
      this.OR2([
        { ALT: () => this.SUBRULE(this.commentClause) },
        { ALT: () => { this.CONSUME(K.CHANGEFEED); this.CONSUME(T.DurationLiteral); } },
      ]),
    );
  });

  defineUser = this.RULE("defineUser", () => {
    this.CONSUME(K.USER);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.CONSUME(K.ON);
    this.SUBRULE(this.base);
    this.MANY(() =>
      this.OR(this.alts_defineUser),
    );
  });

  durationClause = this.RULE("durationClause", () => {
    this.CONSUME(K.DURATION);
    this.SUBRULE(this.durationFor);
    this.MANY(() => {
      this.OPTION(() => this.CONSUME(T.Comma));
      this.SUBRULE2(this.durationFor);
    });
  });

  private readonly alts_durationFor_1 = [{ ALT: () => this.CONSUME(K.GRANT) }, { ALT: () => this.CONSUME(K.TOKEN) }, { ALT: () => this.CONSUME(K.SESSION) }];
  private readonly alts_durationFor_2 = [{ ALT: () => this.CONSUME(T.DurationLiteral) }, { ALT: () => this.CONSUME(K.NONE) }];

  durationFor = this.RULE("durationFor", () => {
    this.CONSUME(K.FOR);
    this.OR(this.alts_durationFor_1);
    this.OR2(this.alts_durationFor_2);
  });

  defineScope = this.RULE("defineScope", () => {
    this.CONSUME(K.SCOPE);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.MANY(() =>
      this.OR([
        { ALT: () => { this.CONSUME(K.SESSION); this.CONSUME(T.DurationLiteral); } },
        { ALT: () => { this.CONSUME(K.SIGNUP); this.SUBRULE(this.expr, { LABEL: "signup" }); } },
        { ALT: () => { this.CONSUME(K.SIGNIN); this.SUBRULE2(this.expr, { LABEL: "signin" }); } },
        { ALT: () => this.SUBRULE(this.commentClause) },
      ]),
    );
  });

  defineToken = this.RULE("defineToken", () => {
    this.CONSUME(K.TOKEN);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.CONSUME(K.ON);
    this.OR([
      { ALT: () => this.SUBRULE(this.base) },
      { ALT: () => { this.CONSUME(K.SCOPE); this.CONSUME2(T.IdentName, { LABEL: "scope" }); } },
    ]);
    this.MANY(() =>
      this.OR2([
        { ALT: () => { this.CONSUME(K.TYPE); this.CONSUME3(T.IdentName, { LABEL: "alg" }); } },
        { ALT: () => { this.CONSUME(K.VALUE); this.CONSUME(T.StringLiteral); } },
        { ALT: () => this.SUBRULE(this.commentClause) },
      ]),
    );
  });

  defineAccess = this.RULE("defineAccess", () => {
    this.CONSUME(K.ACCESS);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.CONSUME(K.ON);
    this.SUBRULE(this.base);
    this.MANY(() =>
      this.OR(this.alts_defineAccess),
    );
  });

  accessType = this.RULE("accessType", () => {
    this.OR([
      { ALT: () => { this.CONSUME(K.JWT); this.SUBRULE(this.jwtConfig); } },
      {
        ALT: () => {
          this.CONSUME(K.RECORD);
          this.MANY(() =>
            this.OR2([
              { ALT: () => { this.CONSUME(K.SIGNUP); this.SUBRULE(this.expr, { LABEL: "signup" }); } },
              { ALT: () => { this.CONSUME(K.SIGNIN); this.SUBRULE2(this.expr, { LABEL: "signin" }); } },
            ]),
          );
          this.MANY2(() => {
            this.OPTION(() => this.CONSUME(T.Comma));
            this.CONSUME(K.WITH);
            this.OR3([
              { ALT: () => { this.CONSUME2(K.JWT); this.SUBRULE2(this.jwtConfig); } },
              { ALT: () => this.CONSUME(K.REFRESH) },
            ]);
          });
        },
      },
      {
        ALT: () => {
          this.CONSUME(K.BEARER);
          this.CONSUME(K.FOR);
          this.OR4([{ ALT: () => this.CONSUME(K.USER, { LABEL: "subject" }) }, { ALT: () => this.CONSUME2(K.RECORD, { LABEL: "subject" }) }]);
          this.OPTION2(() => { this.CONSUME2(K.WITH); this.CONSUME3(K.JWT); this.SUBRULE3(this.jwtConfig); });
        },
      },
    ]);
  });

  jwtConfig = this.RULE("jwtConfig", () => {
    this.AT_LEAST_ONE(() =>
      this.OR([
        { ALT: () => { this.CONSUME(K.ALGORITHM); this.CONSUME(T.IdentName, { LABEL: "alg" }); } },
        { ALT: () => { this.CONSUME(K.KEY); this.CONSUME(T.StringLiteral, { LABEL: "key" }); } },
        { ALT: () => { this.CONSUME(K.URL); this.CONSUME2(T.StringLiteral, { LABEL: "url" }); } },
      ]),
    );
    this.OPTION(() => {
      this.CONSUME(K.WITH);
      this.CONSUME(K.ISSUER);
      this.MANY(() =>
        this.OR2([
          { ALT: () => { this.CONSUME2(K.ALGORITHM); this.CONSUME2(T.IdentName, { LABEL: "issuerAlg" }); } },
          { ALT: () => { this.CONSUME2(K.KEY); this.CONSUME3(T.StringLiteral, { LABEL: "issuerKey" }); } },
        ]),
      );
    });
  });

  private readonly alts_permissions_1 = [
    { ALT: () => this.CONSUME(K.NONE) },
    { ALT: () => this.CONSUME(K.FULL) },
    {
      ALT: () =>
        this.AT_LEAST_ONE(() => {
          this.SUBRULE(this.permissionFor);
          this.OPTION(() => this.CONSUME(T.Comma));
        }),
    },
  ];

  permissions = this.RULE("permissions", () => {
    this.CONSUME(K.PERMISSIONS);
    this.OR(this.alts_permissions_1);
  });

  permissionFor = this.RULE("permissionFor", () => {
    this.CONSUME(K.FOR);
    this.CONSUME(T.IdentName, { LABEL: "action" });
    this.MANY(() => { this.CONSUME(T.Comma); this.CONSUME2(T.IdentName, { LABEL: "action" }); });
    this.SUBRULE(this.permissionValue);
  });

  permissionValue = this.RULE("permissionValue", () => {
    this.OR(this.alts_permissionValue);
  });

  /** PERMISSIONS NONE | FULL | WHERE … (params and functions). */
  permissionSimple = this.RULE("permissionSimple", () => {
    this.CONSUME(K.PERMISSIONS);
    this.SUBRULE(this.permissionValue);
  });

  defineTable = this.RULE("defineTable", () => {
    this.CONSUME(K.TABLE);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.MANY(() =>
      this.OR(this.alts_defineTable),
    );
  });

  tableType = this.RULE("tableType", () => {
    this.OR([
      { ALT: () => this.CONSUME(K.ANY) },
      { ALT: () => this.CONSUME(K.NORMAL) },
      {
        ALT: () => {
          this.CONSUME(K.RELATION);
          this.MANY(() =>
            this.OR2([
              { ALT: () => { this.OR3([{ ALT: () => this.CONSUME(K.IN) }, { ALT: () => this.CONSUME(K.FROM) }]); this.SUBRULE(this.tableList, { LABEL: "from" }); } },
              { ALT: () => { this.OR4([{ ALT: () => this.CONSUME(K.OUT) }, { ALT: () => this.CONSUME(K.TO) }]); this.SUBRULE2(this.tableList, { LABEL: "to" }); } },
              { ALT: () => this.CONSUME(K.ENFORCED) },
            ]),
          );
        },
      },
    ]);
  });

  tableList = this.RULE("tableList", () => {
    this.CONSUME(T.IdentName);
    this.MANY(() => { this.CONSUME(T.Pipe); this.CONSUME2(T.IdentName); });
  });

  private readonly alts_fieldPath_1 = [
    { ALT: () => { this.CONSUME(T.Dot); this.OR2([{ ALT: () => this.CONSUME2(T.IdentName) }, { ALT: () => this.CONSUME(T.Star) }]); } },
    {
      ALT: () => {
        this.CONSUME(T.LBracket);
        this.OR3([{ ALT: () => this.CONSUME2(T.Star) }, { ALT: () => this.CONSUME(T.NumberLiteral) }, { ALT: () => this.CONSUME(T.Dollar) }]);
        this.CONSUME(T.RBracket);
      },
    },
  ];

  /** A field path as DEFINE FIELD names it: `a`, `a.b`, `tags[*]`, `tags.*`. */
  fieldPath = this.RULE("fieldPath", () => {
    this.CONSUME(T.IdentName);
    this.MANY(() =>
      this.OR(this.alts_fieldPath_1),
    );
  });

  onTable = this.RULE("onTable", () => {
    this.CONSUME(K.ON);
    this.OPTION(() => this.CONSUME(K.TABLE));
    this.CONSUME(T.IdentName);
  });

  defineField = this.RULE("defineField", () => {
    this.CONSUME(K.FIELD);
    this.SUBRULE(this.defineHead);
    this.SUBRULE(this.fieldPath);
    this.SUBRULE(this.onTable);
    this.MANY(() =>
      this.OR(this.alts_defineField),
    );
  });

  /** Tokens kept as written and not interpreted (analyzer definitions, SEARCH / MTREE / HNSW index parameters). */
  opaque = this.RULE("opaque", () => {
    this.MANY({
      GATE: () => {
        const t = this.LA(1).tokenType;
        return t !== K.COMMENT && t !== T.Semicolon && t !== T.RBrace && t !== T.RParen && t !== T.RBracket;
      },
      DEF: () =>
        this.OR([
          { ALT: () => { this.CONSUME(T.LParen); this.SUBRULE(this.opaque); this.CONSUME(T.RParen); } },
          { ALT: () => this.CONSUME(T.AnyToken) },
        ]),
    });
  });

  defineIndex = this.RULE("defineIndex", () => {
    this.CONSUME(K.INDEX);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.SUBRULE(this.onTable);
    this.MANY(() =>
      this.OR(this.alts_defineIndex),
    );
  });

  defineParam = this.RULE("defineParam", () => {
    this.CONSUME(K.PARAM);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.Param);
    this.MANY(() =>
      this.OR([
        { ALT: () => { this.CONSUME(K.VALUE); this.SUBRULE(this.expr); } },
        { ALT: () => this.SUBRULE(this.permissionSimple) },
        { ALT: () => this.SUBRULE(this.commentClause) },
      ]),
    );
  });

  defineEvent = this.RULE("defineEvent", () => {
    this.CONSUME(K.EVENT);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.SUBRULE(this.onTable);
    this.MANY(() =>
      this.OR(this.alts_defineEvent),
    );
  });

  functionName = this.RULE("functionName", () => {
    this.CONSUME(T.IdentName);
    this.AT_LEAST_ONE(() => { this.CONSUME(T.DoubleColon); this.CONSUME2(T.IdentName); });
  });

  defineFunction = this.RULE("defineFunction", () => {
    this.CONSUME(K.FUNCTION);
    this.SUBRULE(this.defineHead);
    this.SUBRULE(this.functionName);
    this.CONSUME(T.LParen);
    this.OPTION(() => {
      this.SUBRULE(this.fnArg);
      this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.fnArg); });
      this.OPTION2(() => this.CONSUME2(T.Comma));
    });
    this.CONSUME(T.RParen);
    this.OPTION3(() => {
      this.OR([{ ALT: () => this.CONSUME(T.RightArrow) }, { ALT: () => this.CONSUME(K.RETURNS) }]);
      this.SUBRULE(this.type, { LABEL: "returns" });
    });
    this.SUBRULE(this.block);
    this.MANY2(() =>
      this.OR2([{ ALT: () => this.SUBRULE(this.commentClause) }, { ALT: () => this.SUBRULE(this.permissionSimple) }]),
    );
  });

  fnArg = this.RULE("fnArg", () => {
    this.CONSUME(T.Param);
    this.CONSUME(T.Colon);
    this.SUBRULE(this.type);
  });

  defineAnalyzer = this.RULE("defineAnalyzer", () => {
    this.CONSUME(K.ANALYZER);
    this.SUBRULE(this.defineHead);
    this.CONSUME(T.IdentName);
    this.SUBRULE(this.opaque);
    this.MANY(() => { this.SUBRULE(this.commentClause); this.SUBRULE2(this.opaque); });
  });

  removeStmt = this.RULE("removeStmt", () => {
    this.CONSUME(K.REMOVE);
    this.OR([
      { ALT: () => this.CONSUME(K.NAMESPACE, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.NS, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.DATABASE, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.DB, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.USER, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.ACCESS, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.SCOPE, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.TOKEN, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.TABLE, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.FIELD, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.INDEX, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.PARAM, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.EVENT, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.FUNCTION, { LABEL: "target" }) },
      { ALT: () => this.CONSUME(K.ANALYZER, { LABEL: "target" }) },
    ]);
    this.OPTION(() => { this.CONSUME(K.IF); this.CONSUME(K.EXISTS); });
    this.OR2([
      { ALT: () => this.CONSUME(T.Param) },
      { ALT: () => this.SUBRULE(this.functionName) },
      { ALT: () => this.SUBRULE(this.fieldPath) },
    ]);
    this.OPTION2(() => {
      this.CONSUME(K.ON);
      this.OR3({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => this.SUBRULE(this.base) },
          { ALT: () => { this.CONSUME2(K.SCOPE, { LABEL: "onScope" }); this.CONSUME(T.IdentName, { LABEL: "scope" }); } },
          { ALT: () => { this.OPTION3(() => this.CONSUME2(K.TABLE, { LABEL: "onTable" })); this.CONSUME2(T.IdentName, { LABEL: "table" }); } },
        ],
      });
    });
  });

  // ───────────── data statements ─────────────

  targets = this.RULE("targets", () => {
    this.SUBRULE(this.expr);
    this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.expr); });
  });

  idiomList = this.RULE("idiomList", () => {
    this.SUBRULE(this.plainIdiom);
    this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.plainIdiom); });
  });

  private readonly alts_plainIdiom_1 = [
    { ALT: () => this.CONSUME(T.IdentName) },
    { ALT: () => this.CONSUME(T.Param) },
    { ALT: () => this.SUBRULE(this.graphStep) },
  ];

  /** A path where only a path may stand (SET places, ORDER/GROUP/SPLIT/FETCH/OMIT, aliases): `select`, `a.b[0]`, `$x.y`, `->e->t`. */
  plainIdiom = this.RULE("plainIdiom", () => {
    this.OR(this.alts_plainIdiom_1);
    this.MANY(() => this.SUBRULE(this.postfix));
  });

  private readonly alts_assignment_1 = [
    { ALT: () => this.CONSUME(T.Eq, { LABEL: "op" }) },
    { ALT: () => this.CONSUME(T.PlusEq, { LABEL: "op" }) },
    { ALT: () => this.CONSUME(T.MinusEq, { LABEL: "op" }) },
    { ALT: () => this.CONSUME(T.PlusQEq, { LABEL: "op" }) },
  ];

  assignment = this.RULE("assignment", () => {
    this.SUBRULE(this.plainIdiom);
    this.OR(this.alts_assignment_1);
    this.SUBRULE(this.expr);
  });

  dataClause = this.RULE("dataClause", () => {
    this.OR(this.alts_dataClause);
  });

  outputClause = this.RULE("outputClause", () => {
    this.CONSUME(K.RETURN);
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.CONSUME(K.NONE) },
        { ALT: () => this.CONSUME(K.NULL) },
        { ALT: () => this.CONSUME(K.DIFF) },
        { ALT: () => this.CONSUME(K.BEFORE) },
        { ALT: () => this.CONSUME(K.AFTER) },
        { ALT: () => this.SUBRULE(this.fields) },
      ],
    });
  });

  tail = this.RULE("tail", () => {
    this.OPTION(() => { this.CONSUME(K.TIMEOUT); this.CONSUME(T.DurationLiteral); });
    this.OPTION2(() => this.CONSUME(K.PARALLEL));
  });

  fields = this.RULE("fields", () => {
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => { this.CONSUME(K.VALUE); this.SUBRULE(this.expr, { LABEL: "valueExpr" }); this.OPTION(() => { this.CONSUME(K.AS); this.SUBRULE(this.plainIdiom, { LABEL: "valueAlias" }); }); },
        },
        {
          ALT: () => {
            this.SUBRULE(this.field);
            this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.field); });
          },
        },
      ],
    });
  });

  field = this.RULE("field", () => {
    this.OR(this.alts_field);
  });

  selectStmt = this.RULE("selectStmt", () => {
    this.CONSUME(K.SELECT);
    this.SUBRULE(this.fields);
    this.OPTION(() => { this.CONSUME(K.OMIT); this.SUBRULE(this.idiomList, { LABEL: "omit" }); });
    this.CONSUME(K.FROM);
    this.OPTION2(() => this.CONSUME(K.ONLY));
    this.SUBRULE(this.targets);
    this.OPTION3(() => {
      this.CONSUME(K.WITH);
      this.OR([
        { ALT: () => this.CONSUME(K.NOINDEX) },
        { ALT: () => { this.CONSUME(K.INDEX); this.CONSUME(T.IdentName, { LABEL: "index" }); this.MANY(() => { this.CONSUME(T.Comma); this.CONSUME2(T.IdentName, { LABEL: "index" }); }); } },
      ]);
    });
    this.OPTION4(() => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr, { LABEL: "cond" }); });
    this.OPTION5(() => { this.CONSUME(K.SPLIT); this.OPTION6(() => this.CONSUME(K.ON)); this.SUBRULE2(this.idiomList, { LABEL: "split" }); });
    this.OPTION7(() => {
      this.CONSUME(K.GROUP);
      this.OR2({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => this.CONSUME(K.ALL) },
          { ALT: () => { this.OPTION8(() => this.CONSUME(K.BY)); this.SUBRULE3(this.idiomList, { LABEL: "group" }); } },
        ],
      });
    });
    this.OPTION9(() => {
      this.CONSUME(K.ORDER);
      this.option(10, () => this.CONSUME2(K.BY));
      this.OR3({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => { this.CONSUME(K.RAND); this.CONSUME(T.LParen); this.CONSUME(T.RParen); } },
          { ALT: () => { this.SUBRULE(this.orderItem); this.MANY2(() => { this.CONSUME2(T.Comma); this.SUBRULE2(this.orderItem); }); } },
        ],
      });
    });
    // LIMIT and START in either order (SurrealDB accepts both).
    this.MANY3(() =>
      this.OR4([
        { ALT: () => { this.CONSUME(K.LIMIT); this.option(12, () => this.CONSUME3(K.BY)); this.SUBRULE2(this.expr, { LABEL: "limit" }); } },
        { ALT: () => { this.CONSUME(K.START); this.option(14, () => this.CONSUME(K.AT)); this.SUBRULE3(this.expr, { LABEL: "start" }); } },
      ]),
    );
    this.option(15, () => { this.CONSUME(K.FETCH); this.SUBRULE4(this.idiomList, { LABEL: "fetch" }); });
    this.option(16, () => { this.CONSUME(K.VERSION); this.SUBRULE4(this.expr, { LABEL: "version" }); });
    this.SUBRULE(this.tail);
    this.option(17, () => { this.CONSUME(K.EXPLAIN); this.option(18, () => this.CONSUME(K.FULL)); });
  });

  orderItem = this.RULE("orderItem", () => {
    this.SUBRULE(this.plainIdiom);
    this.OPTION(() => this.CONSUME(K.COLLATE));
    this.OPTION2(() => this.CONSUME(K.NUMERIC));
    this.OPTION3(() => this.OR([{ ALT: () => this.CONSUME(K.ASC) }, { ALT: () => this.CONSUME(K.DESC) }]));
  });

  createStmt = this.RULE("createStmt", () => {
    this.CONSUME(K.CREATE);
    this.OPTION(() => this.CONSUME(K.ONLY));
    this.SUBRULE(this.targets);
    this.OPTION2(() => this.SUBRULE(this.dataClause));
    this.OPTION3(() => this.SUBRULE(this.outputClause));
    this.SUBRULE(this.tail);
  });

  updateStmt = this.RULE("updateStmt", () => {
    this.OR([{ ALT: () => this.CONSUME(K.UPDATE) }, { ALT: () => this.CONSUME(K.UPSERT) }]);
    this.OPTION(() => this.CONSUME(K.ONLY));
    this.SUBRULE(this.targets);
    this.OPTION2(() => this.SUBRULE(this.dataClause));
    this.OPTION3(() => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr, { LABEL: "cond" }); });
    this.OPTION4(() => this.SUBRULE(this.outputClause));
    this.SUBRULE(this.tail);
  });

  deleteStmt = this.RULE("deleteStmt", () => {
    this.CONSUME(K.DELETE);
    this.OPTION(() => this.CONSUME(K.FROM));
    this.OPTION2(() => this.CONSUME(K.ONLY));
    this.SUBRULE(this.targets);
    this.OPTION3(() => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr, { LABEL: "cond" }); });
    this.OPTION4(() => this.SUBRULE(this.outputClause));
    this.SUBRULE(this.tail);
  });

  insertStmt = this.RULE("insertStmt", () => {
    this.CONSUME(K.INSERT);
    this.OPTION(() => this.CONSUME(K.IGNORE));
    this.OPTION2(() => this.CONSUME(K.RELATION));
    this.OPTION3({
      MAX_LOOKAHEAD: 1,
      DEF: () => {
      this.CONSUME(K.INTO);
      this.OR([{ ALT: () => this.CONSUME(T.Param, { LABEL: "intoParam" }) }, { ALT: () => this.CONSUME(T.IdentName, { LABEL: "into" }) }]);
      },
    });
    this.OR2([
      {
        GATE: () => this.parenFollowedBy(K.VALUES),
        ALT: () => {
          this.CONSUME(T.LParen);
          this.SUBRULE(this.idiomList);
          this.CONSUME(T.RParen);
          this.CONSUME(K.VALUES);
          this.SUBRULE(this.valuesRow);
          this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.valuesRow); });
        },
      },
      { ALT: () => this.SUBRULE(this.expr) },
    ]);
    this.OPTION4(() => {
      this.CONSUME(K.ON);
      this.CONSUME(K.DUPLICATE);
      this.CONSUME(K.KEY);
      this.CONSUME(K.UPDATE);
      this.SUBRULE(this.assignment);
      this.MANY2(() => { this.CONSUME2(T.Comma); this.SUBRULE2(this.assignment); });
    });
    this.OPTION5(() => this.SUBRULE(this.outputClause));
    this.SUBRULE(this.tail);
  });

  valuesRow = this.RULE("valuesRow", () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.expr);
    this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.expr); });
    this.CONSUME(T.RParen);
  });

  relateStmt = this.RULE("relateStmt", () => {
    this.CONSUME(K.RELATE);
    this.OPTION(() => this.CONSUME(K.ONLY));
    this.SUBRULE(this.relateValue, { LABEL: "first" });
    this.OR([
      { ALT: () => { this.CONSUME(T.RightArrow); this.SUBRULE2(this.relateValue, { LABEL: "through" }); this.CONSUME2(T.RightArrow); this.SUBRULE3(this.relateValue, { LABEL: "last" }); } },
      { ALT: () => { this.CONSUME(T.LeftArrow); this.SUBRULE4(this.relateValue, { LABEL: "through" }); this.CONSUME2(T.LeftArrow); this.SUBRULE5(this.relateValue, { LABEL: "last" }); } },
    ]);
    this.OPTION2(() => this.CONSUME(K.UNIQUE));
    this.OPTION3(() => this.SUBRULE(this.dataClause));
    this.OPTION4(() => this.SUBRULE(this.outputClause));
    this.SUBRULE(this.tail);
  });

  relateValue = this.RULE("relateValue", () => {
    this.OR([
      { ALT: () => this.CONSUME(T.Param) },
      { ALT: () => this.SUBRULE(this.array) },
      { ALT: () => this.SUBRULE(this.subquery) },
      { ALT: () => { this.CONSUME(T.IdentName); this.OPTION(() => { this.CONSUME(T.Colon); this.SUBRULE(this.recordKey); }); } },
    ]);
  });

  liveStmt = this.RULE("liveStmt", () => {
    this.CONSUME(K.LIVE);
    this.CONSUME(K.SELECT);
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { GATE: () => this.LA(2).tokenType === K.FROM, ALT: () => this.CONSUME(K.DIFF) },
        { ALT: () => this.SUBRULE(this.fields) },
      ],
    });
    this.CONSUME(K.FROM);
    this.SUBRULE(this.expr, { LABEL: "what" });
    this.OPTION(() => { this.CONSUME(K.WHERE); this.SUBRULE2(this.expr, { LABEL: "cond" }); });
    this.OPTION2(() => { this.CONSUME(K.FETCH); this.SUBRULE(this.idiomList); });
  });

  killStmt = this.RULE("killStmt", () => {
    this.CONSUME(K.KILL);
    this.SUBRULE(this.expr);
  });

  // ───────────── expressions ─────────────

  /** Operands and operators in a flat list; to-ast.ts applies SurrealDB's precedence. */
  expr = this.RULE("expr", () => {
    this.SUBRULE(this.unary);
    this.MANY(this.exprTail);
  });
  private readonly exprTail = (): void => {
    this.SUBRULE(this.binaryOp);
    this.SUBRULE2(this.unary);
  };

  binaryOp = this.RULE("binaryOp", () => {
    this.OR(this.alts_binaryOp);
  });

  unary = this.RULE("unary", () => {
    this.OR(this.alts_unary);
  });

  private readonly postfixes = (): void => {
    this.SUBRULE(this.postfix);
  };

  postfix = this.RULE("postfix", () => {
    this.OR(this.alts_postfix);
  });

  graphStep = this.RULE("graphStep", () => {
    this.OR([
      { ALT: () => this.CONSUME(T.RightArrow, { LABEL: "dir" }) },
      { ALT: () => this.CONSUME(T.LeftArrow, { LABEL: "dir" }) },
      { ALT: () => this.CONSUME(T.BothArrow, { LABEL: "dir" }) },
    ]);
    this.OR2([
      { ALT: () => this.CONSUME(T.Question) },
      { ALT: () => this.CONSUME(T.IdentName, { LABEL: "what" }) },
      {
        ALT: () => {
          this.CONSUME(T.LParen);
          this.OR3([{ ALT: () => this.CONSUME2(T.Question) }, { ALT: () => this.CONSUME2(T.IdentName, { LABEL: "what" }) }]);
          this.MANY(() => { this.CONSUME(T.Comma); this.CONSUME3(T.IdentName, { LABEL: "what" }); });
          this.OPTION(() => { this.CONSUME(K.WHERE); this.SUBRULE(this.expr, { LABEL: "cond" }); });
          this.OPTION2(() => { this.CONSUME(K.AS); this.SUBRULE(this.plainIdiom, { LABEL: "alias" }); });
          this.CONSUME(T.RParen);
        },
      },
    ]);
  });

  args = this.RULE("args", () => {
    this.CONSUME(T.LParen);
    this.OPTION(this.exprList);
    this.CONSUME(T.RParen);
  });
  /** `expr (, expr)* ,?` inside args and arrays (bodies built once: chevrotain gets the same closures every time). */
  private readonly exprList = (): void => {
    this.SUBRULE(this.expr);
    this.MANY(this.nextExpr);
    this.OPTION2(this.trailingComma);
  };
  private readonly nextExpr = (): void => {
    this.CONSUME(T.Comma);
    this.SUBRULE2(this.expr);
  };
  private readonly trailingComma = (): void => {
    this.CONSUME2(T.Comma);
  };

  private readonly alts_braced_1 = [
    { GATE: () => this.isObjectStart(), ALT: () => this.SUBRULE(this.object) },
    { ALT: () => this.SUBRULE(this.block) },
  ];

  /** `{` starts an object when followed by `}` or by `key:`, else a block (GATEs kept out of `primary`, which is hot). */
  braced = this.RULE("braced", () => {
    this.OR(this.alts_braced_1);
  });

  /** `|table:1..3|` mock or a closure `|$a| …` / `|| …`. */
  piped = this.RULE("piped", () => {
    this.OR([
      { GATE: () => this.LA(3).tokenType === T.Colon && this.LA(2).tokenType !== T.Param, ALT: () => this.SUBRULE(this.mock) },
      { ALT: () => this.SUBRULE(this.closure) },
    ]);
  });

  /** `..`, `..=`, `>..`, `>..=` after a record key (`user:1 > 5` stays a comparison). */
  private rangeFollows(): boolean {
    const t = this.LA(1).tokenType;
    if (t === T.DotDot || t === T.DotDotEq) return true;
    const t2 = this.LA(2).tokenType;
    return t === T.Gt && (t2 === T.DotDot || t2 === T.DotDotEq);
  }

  private isObjectStart(): boolean {
    const t2 = this.LA(2).tokenType;
    if (t2 === T.RBrace) return true;
    const t3 = this.LA(3).tokenType;
    return t3 === T.Colon && (t2 === T.StringLiteral || t2 === T.NumberLiteral || (t2 !== undefined && t2.CATEGORIES !== undefined && t2.CATEGORIES.includes(T.IdentName)));
  }

  /** `ident`, `table:key`, `fn()`, `ns::fn()`, `math::pi`. */
  identStart = this.RULE("identStart", () => {
    this.CONSUME(T.IdentName);
    this.OPTION(this.identTail);
  });
  private readonly identTail = (): void => {
    this.OR(this.alts_identStart);
  };

  recordKey = this.RULE("recordKey", () => {
    this.OR(this.alts_recordKey);
  });
  // a key's parts sit in the recordKey node itself (a recordKeyValue node per record id cost a rule invocation)
  private readonly alts_recordKey = [
    { ALT: () => { this.OR2(this.alts_recordKeyValue); this.option(5, this.rangeAfterKey); } },
    { ALT: () => this.SUBRULE2(this.rangeTail) },
  ];
  private readonly rangeAfterKey = { GATE: () => this.rangeFollows(), DEF: () => this.SUBRULE(this.rangeTail) };

  rangeTail = this.RULE("rangeTail", () => {
    this.OPTION2(() => this.CONSUME(T.Gt, { LABEL: "exclusive" }));
    this.OR([{ ALT: () => this.CONSUME(T.DotDot, { LABEL: "op" }) }, { ALT: () => this.CONSUME(T.DotDotEq, { LABEL: "op" }) }]);
    this.OPTION(() => this.SUBRULE(this.recordKeyValue, { LABEL: "end" }));
  });

  recordKeyValue = this.RULE("recordKeyValue", () => {
    this.OR(this.alts_recordKeyValue);
  });

  array = this.RULE("array", () => {
    this.CONSUME(T.LBracket);
    this.OPTION(this.exprList);
    this.CONSUME(T.RBracket);
  });

  object = this.RULE("object", () => {
    this.CONSUME(T.LBrace);
    this.OPTION(() => {
      this.SUBRULE(this.objectEntry);
      this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.objectEntry); });
      this.OPTION2(() => this.CONSUME2(T.Comma));
    });
    this.CONSUME(T.RBrace);
  });

  objectEntry = this.RULE("objectEntry", () => {
    this.OR(this.alts_objectEntry);
    this.CONSUME(T.Colon);
    this.SUBRULE(this.expr);
  });

  /** `( … )`; `(x, y)` is a geometry point. */
  subquery = this.RULE("subquery", () => {
    this.CONSUME(T.LParen);
    this.nested(() => this.SUBRULE(this.statement));
    this.OPTION(() => { this.CONSUME(T.Comma); this.SUBRULE(this.expr, { LABEL: "pointY" }); });
    this.CONSUME(T.RParen);
  });

  closure = this.RULE("closure", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Pipe);
          this.OPTION(() => {
            this.SUBRULE(this.closureArg);
            this.MANY(() => { this.CONSUME(T.Comma); this.SUBRULE2(this.closureArg); });
          });
          this.CONSUME2(T.Pipe);
        },
      },
      { ALT: () => this.CONSUME(T.OrOr) },
    ]);
    this.OPTION2(() => { this.CONSUME(T.RightArrow); this.SUBRULE(this.type, { LABEL: "returns" }); });
    this.SUBRULE(this.expr);
  });

  /** A range value's tail (2.x): `..` or `..=`, then its end unless unbounded (`1..5`, `1..=5`, `1..`). */
  valueRange = this.RULE("valueRange", () => {
    this.OR([{ ALT: () => this.CONSUME(T.DotDot, { LABEL: "op" }) }, { ALT: () => this.CONSUME(T.DotDotEq, { LABEL: "op" }) }]);
    this.OPTION(() => this.SUBRULE(this.unary, { LABEL: "end" }));
  });

  /** `|person:1..3|`, `|person:5|`. */
  mock = this.RULE("mock", () => {
    this.CONSUME(T.Pipe);
    this.CONSUME(T.IdentName);
    this.CONSUME(T.Colon);
    this.CONSUME(T.NumberLiteral, { LABEL: "from" });
    this.OPTION(() => { this.CONSUME(T.DotDot); this.CONSUME2(T.NumberLiteral, { LABEL: "to" }); });
    this.CONSUME2(T.Pipe);
  });

  closureArg = this.RULE("closureArg", () => {
    this.CONSUME(T.Param);
    // one kind: a `|` closes the parameter list (SurrealDB has no unions here either)
    this.OPTION(() => { this.CONSUME(T.Colon); this.SUBRULE(this.typeSingle); });
  });

  // ───────────── types ─────────────

  type = this.RULE("type", () => {
    this.SUBRULE(this.typeSingle);
    this.MANY(() => { this.CONSUME(T.Pipe); this.SUBRULE2(this.typeSingle); });
  });

  typeSingle = this.RULE("typeSingle", () => {
    this.OR(this.alts_typeSingle);
  });
}

/** The one parser instance. */
export const parser = new SurqlParser();

export type { CstNode, IToken };
