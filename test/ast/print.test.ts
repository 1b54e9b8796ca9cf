// Printer tests on hand-built AST nodes; every expected text was copied from INFO FOR of SurrealDB 1.5.4 / 2.6.0.
import { describe, expect, it } from "vitest";
import type { DefineAccessStatement, Expr, Statement, TypeKind } from "../../src/ast/nodes.js";
import { printAccess, printExpr, printStatement, printType } from "../../src/ast/print.js";
import { Decimal, Duration, Regex } from "../../src/value/types.js";
import {
  FULL_P,
  NONE_P,
  allPerms,
  basic,
  bin,
  block,
  call,
  defineAccess,
  defineField,
  defineTable,
  defineUser,
  dur,
  hsJwt,
  idiom,
  int,
  lit,
  param,
  record,
  select,
  str,
  sub,
  table,
  where,
} from "./build.js";

type Case = readonly [name: string, node: Statement, compat: 1 | 2, redact: boolean, expected: string];

const authIsOwner = where(bin(idiom("id"), "=", idiom("$auth.id")));
const createUserEmail: Statement = {
  kind: "Create",
  only: false,
  what: [table("user")],
  data: { kind: "Set", items: [{ place: idiom("email"), op: "=", value: param("email") }] },
  output: undefined,
  timeout: undefined,
  parallel: false,
};
const selectUserEmail = select("user", { cond: bin(idiom("email"), "=", param("email")) });

const tables: Case[] = [
  [
    "table with grouped permissions",
    defineTable("user", {
      schemafull: true,
      tableType: { kind: "Normal" },
      permissions: { select: authIsOwner, create: NONE_P, update: authIsOwner, delete: authIsOwner },
    }),
    2,
    false,
    "DEFINE TABLE user TYPE NORMAL SCHEMAFULL PERMISSIONS FOR select, update, delete WHERE id = $auth.id, FOR create NONE",
  ],
  [
    "table v1 permissions groups",
    defineTable("t5", {
      permissions: { select: FULL_P, create: where(bin(idiom("$auth.admin"), "=", lit(true))), update: where(bin(idiom("$auth.admin"), "=", lit(true))), delete: NONE_P },
    }),
    1,
    false,
    "DEFINE TABLE t5 TYPE ANY SCHEMALESS PERMISSIONS FOR select FULL, FOR create, update WHERE $auth.admin = true, FOR delete NONE",
  ],
  ["table drop", defineTable("t1", { drop: true }), 2, false, "DEFINE TABLE t1 TYPE ANY DROP SCHEMALESS PERMISSIONS NONE"],
  [
    "table select only",
    defineTable("t7", { permissions: { ...allPerms(NONE_P), select: FULL_P } }),
    2,
    false,
    "DEFINE TABLE t7 TYPE ANY SCHEMALESS PERMISSIONS FOR select FULL, FOR create, update, delete NONE",
  ],
  [
    "relation table, changefeed, comment",
    defineTable("t3", {
      schemafull: true,
      tableType: { kind: "Relation", from: ["user"], to: ["post", "comment"], enforced: true },
      changefeed: { expiry: dur(86400), includeOriginal: true },
      permissions: allPerms(FULL_P),
      comment: "rel",
    }),
    2,
    false,
    "DEFINE TABLE t3 TYPE RELATION IN user OUT post | comment ENFORCED SCHEMAFULL COMMENT 'rel' CHANGEFEED 1d INCLUDE ORIGINAL PERMISSIONS FULL",
  ],
  [
    "view table (1.x)",
    defineTable("t4", {
      view: select("user", {
        fields: {
          value: false,
          items: [
            { kind: "Single", expr: call("count"), alias: idiom("n") },
            { kind: "Single", expr: idiom("email"), alias: undefined },
          ],
        },
        group: { all: false, fields: [idiom("email")] },
      }),
    }),
    1,
    false,
    "DEFINE TABLE t4 TYPE ANY SCHEMALESS AS SELECT count() AS n, email FROM user GROUP BY email PERMISSIONS NONE",
  ],
  ["no TYPE clause, SCHEMAFULL (2.x: NORMAL)", defineTable("t2", { schemafull: true, tableTypeWritten: false }), 2, false, "DEFINE TABLE t2 TYPE NORMAL SCHEMAFULL PERMISSIONS NONE"],
  ["no TYPE clause, SCHEMAFULL (1.x: ANY)", defineTable("t2", { schemafull: true, tableTypeWritten: false }), 1, false, "DEFINE TABLE t2 TYPE ANY SCHEMAFULL PERMISSIONS NONE"],
  ["TYPE ANY written, SCHEMAFULL", defineTable("t2", { schemafull: true, tableTypeWritten: true }), 2, false, "DEFINE TABLE t2 TYPE ANY SCHEMAFULL PERMISSIONS NONE"],
  ["IF NOT EXISTS", defineTable("x", { ifNotExists: true }), 2, false, "DEFINE TABLE IF NOT EXISTS x TYPE ANY SCHEMALESS PERMISSIONS NONE"],
  ["OVERWRITE", defineTable("x", { overwrite: true }), 2, false, "DEFINE TABLE OVERWRITE x TYPE ANY SCHEMALESS PERMISSIONS NONE"],
];

const emptyObject: Expr = { kind: "Object", entries: [] };
const f1 = defineField(idiom("f1"), "t5", {
  flexible: true,
  type: { kind: "Option", inner: basic("object") },
  readonly: true,
  value: bin(param("value"), "||", emptyObject),
  assert: bin(param("value"), "!=", lit(undefined)),
  default: emptyObject,
  permissions: { ...allPerms(FULL_P), select: NONE_P },
  comment: "c",
});
const updateWhereOwner = where(bin(idiom("$auth.id"), "=", idiom("id")));
const f3 = defineField(idiom("f3", { kind: "All" }), "t5", {
  type: { kind: "Set", inner: basic("int"), max: undefined },
  permissions: { ...allPerms(FULL_P), update: updateWhereOwner },
});

const fields: Case[] = [
  [
    "field, every clause (2.x has no delete permission)",
    f1,
    2,
    false,
    "DEFINE FIELD f1 ON t5 FLEXIBLE TYPE option<object> DEFAULT {  } READONLY VALUE $value OR {  } ASSERT $value != NONE COMMENT 'c' PERMISSIONS FOR select NONE, FOR create, update FULL",
  ],
  [
    "field, every clause (1.x)",
    f1,
    1,
    false,
    "DEFINE FIELD f1 ON t5 FLEXIBLE TYPE option<object> DEFAULT {  } READONLY VALUE $value OR {  } ASSERT $value != NONE COMMENT 'c' PERMISSIONS FOR select NONE, FOR create, update, delete FULL",
  ],
  [
    "DEFAULT ALWAYS, nested types",
    defineField(idiom("f2"), "t5", {
      type: { kind: "Array", inner: { kind: "Record", tables: ["user", "post"] }, max: 5 },
      default: { kind: "Array", items: [] },
      defaultAlways: true,
    }),
    2,
    false,
    "DEFINE FIELD f2 ON t5 TYPE array<record<user | post>, 5> DEFAULT ALWAYS [] PERMISSIONS FULL",
  ],
  ["field path with [*] (2.x)", f3, 2, false, "DEFINE FIELD f3[*] ON t5 TYPE set<int> PERMISSIONS FOR select, create FULL, FOR update WHERE $auth.id = id"],
  ["field path with [*] (1.x)", f3, 1, false, "DEFINE FIELD f3[*] ON t5 TYPE set<int> PERMISSIONS FOR select, create, delete FULL, FOR update WHERE $auth.id = id"],
  [
    "either and literal types",
    defineField(idiom("f4"), "t5", {
      type: {
        kind: "Either",
        types: [basic("int"), basic("string"), { kind: "Literal", value: str("lit") }, { kind: "Literal", value: int(1) }, { kind: "Geometry", types: ["point", "polygon"] }],
      },
    }),
    2,
    false,
    "DEFINE FIELD f4 ON t5 TYPE int | string | 'lit' | 1 | geometry<point | polygon> PERMISSIONS FULL",
  ],
  [
    "ASSERT with a function",
    defineField(idiom("email"), "user", { type: basic("string"), assert: call("string::is::email", param("value")) }),
    2,
    false,
    "DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value) PERMISSIONS FULL",
  ],
  ["field path a[*].x", defineField(idiom("f5", { kind: "All" }, { kind: "Field", name: "x" }), "t5"), 2, false, "DEFINE FIELD f5[*].x ON t5 PERMISSIONS FULL"],
  ["field PERMISSIONS NONE", defineField(idiom("f"), "t", { type: basic("int"), permissions: allPerms(NONE_P) }), 2, false, "DEFINE FIELD f ON t TYPE int PERMISSIONS NONE"],
  [
    "field select WHERE (1.x)",
    defineField(idiom("g"), "t", { permissions: { ...allPerms(FULL_P), select: where(lit(true)) } }),
    1,
    false,
    "DEFINE FIELD g ON t PERMISSIONS FOR select WHERE true, FOR create, update, delete FULL",
  ],
];

const base = { ifNotExists: false, overwrite: false, comment: undefined } as const;
const others: Case[] = [
  ["index", { kind: "DefineIndex", ...base, name: "i1", table: "t5", fields: [idiom("a"), idiom("b.c")], unique: false }, 2, false, "DEFINE INDEX i1 ON t5 FIELDS a, b.c"],
  [
    "unique index with comment",
    { kind: "DefineIndex", ...base, name: "i2", table: "t5", fields: [idiom("a")], unique: true, comment: "u" },
    1,
    false,
    "DEFINE INDEX i2 ON t5 FIELDS a UNIQUE COMMENT 'u'",
  ],
  [
    "param: object keys sorted and quoted, floats with f",
    {
      kind: "DefineParam",
      ...base,
      name: "p1",
      value: {
        kind: "Object",
        entries: [
          { key: "d", value: lit(undefined) },
          { key: "a", value: int(1) },
          { key: "b-c", value: { kind: "Array", items: [int(1), lit(2.5), str("x")] } },
        ],
      },
      permissions: where(bin(param("auth"), "!=", lit(undefined))),
      comment: "pc",
    },
    2,
    false,
    `DEFINE PARAM $p1 VALUE { a: 1, "b-c": [1, 2.5f, 'x'], d: NONE } COMMENT 'pc' PERMISSIONS WHERE $auth != NONE`,
  ],
  ["param decimal", { kind: "DefineParam", ...base, name: "p2", value: lit(new Decimal("5")), permissions: FULL_P }, 1, false, "DEFINE PARAM $p2 VALUE 5dec PERMISSIONS FULL"],
  [
    "event with subquery and multi-statement block",
    {
      kind: "DefineEvent",
      ...base,
      name: "e1",
      table: "t5",
      when: bin(param("event"), "=", str("CREATE")),
      then: [
        sub({ ...createUserEmail, what: [table("log")], data: { kind: "Set", items: [{ place: idiom("at"), op: "=", value: call("time::now") }] } }),
        block({ kind: "Let", name: "x", type: undefined, value: int(1) }, { kind: "Return", value: param("x"), fetch: undefined }),
      ],
      comment: "ev",
    },
    2,
    false,
    "DEFINE EVENT e1 ON t5 WHEN $event = 'CREATE' THEN (CREATE log SET at = time::now()), {\nLET $x = 1;\nRETURN $x;\n} COMMENT 'ev'",
  ],
  [
    "event defaults WHEN true, one-statement block",
    { kind: "DefineEvent", ...base, name: "e2", table: "t5", when: lit(true), then: [block({ ...createUserEmail, what: [table("log")], data: undefined })] },
    1,
    false,
    "DEFINE EVENT e2 ON t5 WHEN true THEN { CREATE log; }",
  ],
  [
    "function (2.x, returns)",
    {
      kind: "DefineFunction",
      ...base,
      name: "greet",
      args: [
        { name: "name", type: basic("string") },
        { name: "n", type: { kind: "Option", inner: basic("int") } },
      ],
      body: block({ kind: "Return", value: bin(str("Hello "), "+", param("name")), fetch: undefined }),
      returns: basic("string"),
      permissions: where(lit(true)),
      comment: "f",
    },
    2,
    false,
    "DEFINE FUNCTION fn::greet($name: string, $n: option<int>) -> string { RETURN 'Hello ' + $name; } COMMENT 'f' PERMISSIONS WHERE true",
  ],
  [
    "function (1.x), body of one value",
    { kind: "DefineFunction", ...base, name: "a::b", args: [], body: block(int(1)), returns: undefined, permissions: FULL_P },
    1,
    false,
    "DEFINE FUNCTION fn::a::b() { 1 } PERMISSIONS FULL",
  ],
  [
    "analyzer",
    { kind: "DefineAnalyzer", ...base, name: "an1", text: "TOKENIZERS blank, class FILTERS lowercase, snowball(english)", comment: "a" },
    2,
    false,
    "DEFINE ANALYZER an1 TOKENIZERS BLANK,CLASS FILTERS LOWERCASE,SNOWBALL(ENGLISH) COMMENT 'a'",
  ],
  [
    "analyzer clauses in canonical order",
    { kind: "DefineAnalyzer", ...base, name: "an4", text: "FILTERS lowercase FUNCTION fn::an TOKENIZERS blank", comment: "x" },
    1,
    false,
    "DEFINE ANALYZER an4 FUNCTION fn::an TOKENIZERS BLANK FILTERS LOWERCASE COMMENT 'x'",
  ],
  ["namespace", { kind: "DefineNamespace", ...base, name: "ns2", comment: "nsc" }, 2, false, "DEFINE NAMESPACE ns2 COMMENT 'nsc'"],
  ["database with changefeed", { kind: "DefineDatabase", ...base, name: "db2", changefeed: dur(3600), comment: "x" }, 1, false, "DEFINE DATABASE db2 COMMENT 'x' CHANGEFEED 1h"],
];

const u1 = defineUser("u1", { base: "ROOT", passhash: "h1", roles: ["OWNER", "EDITOR"], comment: "hi" });
const users: Case[] = [
  ["user 2.x: durations always printed", u1, 2, true, "DEFINE USER u1 ON ROOT PASSHASH 'h1' ROLES OWNER, EDITOR DURATION FOR TOKEN 1h, FOR SESSION NONE COMMENT 'hi'"],
  ["user 1.x", u1, 1, true, "DEFINE USER u1 ON ROOT PASSHASH 'h1' ROLES OWNER, EDITOR COMMENT 'hi'"],
  [
    "user session duration",
    defineUser("u2", { base: "NAMESPACE", passhash: "h2", duration: { session: dur(7200) } }),
    2,
    false,
    "DEFINE USER u2 ON NAMESPACE PASSHASH 'h2' ROLES VIEWER DURATION FOR TOKEN 1h, FOR SESSION 2h",
  ],
  [
    "user token duration normalised, session NONE written",
    defineUser("u3", { passhash: "h3", duration: { token: dur(5400), session: null } }),
    2,
    false,
    "DEFINE USER u3 ON DATABASE PASSHASH 'h3' ROLES VIEWER DURATION FOR TOKEN 1h30m, FOR SESSION NONE",
  ],
  ["user without password", defineUser("u4"), 2, false, "DEFINE USER u4 ON DATABASE PASSHASH '' ROLES VIEWER DURATION FOR TOKEN 1h, FOR SESSION NONE"],
  ["user without password (1.x)", defineUser("u4"), 1, false, "DEFINE USER u4 ON DATABASE PASSHASH '' ROLES VIEWER"],
  [
    "user IF NOT EXISTS",
    defineUser("u", { base: "ROOT", passhash: "p", ifNotExists: true }),
    2,
    false,
    "DEFINE USER IF NOT EXISTS u ON ROOT PASSHASH 'p' ROLES VIEWER DURATION FOR TOKEN 1h, FOR SESSION NONE",
  ],
];

const signupExpr = sub({
  ...createUserEmail,
  data: {
    kind: "Set",
    items: [
      { place: idiom("email"), op: "=", value: param("email") },
      { place: idiom("pass"), op: "=", value: call("crypto::argon2::generate", param("pass")) },
    ],
  },
});
const signinExpr = sub(
  select("user", { cond: bin(bin(idiom("email"), "=", param("email")), "&&", call("crypto::argon2::compare", idiom("pass"), param("pass"))) }),
);
const account = defineAccess("account", record({ signup: signupExpr, signin: signinExpr, jwt: hsJwt("k1") }), {
  duration: { token: dur(900), session: dur(86400) },
});
const accountText = (key: string, issuer: string): string =>
  "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email, pass = crypto::argon2::generate($pass)) " +
  `SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass)) WITH JWT ALGORITHM HS512 KEY ${key} WITH ISSUER KEY ${issuer} ` +
  "DURATION FOR TOKEN 15m, FOR SESSION 1d";

const a5: DefineAccessStatement = defineAccess("a5", record({ signin: block(select("user")) }), {
  authenticate: block({
    kind: "If",
    branches: [{ cond: idiom("$auth.enabled"), then: block({ kind: "Return", value: param("auth"), fetch: undefined }) }],
    otherwise: block({ kind: "Throw", value: str("no") }),
    style: "Block",
  }),
  duration: { session: dur(86400) },
});

const scopeSc = defineAccess("sc", record({ signup: sub(createUserEmail), signin: sub(selectUserEmail) }), {
  duration: { session: dur(86400) },
  legacy: { kind: "Scope", session: dur(86400) },
  comment: "scc",
});
const scopeS3 = defineAccess("s3", record(), { duration: { session: dur(1209600) }, legacy: { kind: "Scope", session: dur(1209600) }, comment: "old" });
const scopeBare = defineAccess("sc2", record(), { legacy: { kind: "Scope", session: undefined } });
const tokenDb = defineAccess(
  "tk",
  { kind: "Jwt", jwt: hsJwt("secret", "HS256") },
  { legacy: { kind: "Token", on: "DATABASE", scope: undefined, type: "HS256", value: "secret" }, comment: "tc" },
);
const tokenScope = defineAccess(
  "t1",
  record({ jwt: { verify: { kind: "Key", alg: "RS512", key: "pubk" }, issuer: undefined } }),
  { legacy: { kind: "Token", on: "SCOPE", scope: "sx", type: "RS512", value: "pubk" } },
);
const tokenJwks = defineAccess(
  "t2",
  { kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "https://j" }, issuer: undefined } },
  { base: "NAMESPACE", legacy: { kind: "Token", on: "NAMESPACE", scope: undefined, type: "JWKS", value: "https://j" } },
);

const R = "'[REDACTED]'";
const accesses: Case[] = [
  ["record access, redacted", account, 2, true, accountText(R, R)],
  ["record access, not redacted (HS issuer = verify key)", account, 2, false, accountText("'k1'", "'k1'")],
  [
    "JWT HS on ROOT issues tokens",
    defineAccess("a1", { kind: "Jwt", jwt: hsJwt("k1", "HS256") }, { base: "ROOT" }),
    2,
    true,
    `DEFINE ACCESS a1 ON ROOT TYPE JWT ALGORITHM HS256 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION NONE`,
  ],
  [
    "JWT with asymmetric key: public key shown, issuer redacted",
    defineAccess(
      "a2",
      { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "RS256", key: "pub" }, issuer: { alg: "RS256", key: "priv" } } },
      { base: "NAMESPACE", duration: { token: dur(7200), session: dur(10800) }, comment: "c" },
    ),
    2,
    true,
    `DEFINE ACCESS a2 ON NAMESPACE TYPE JWT ALGORITHM RS256 KEY 'pub' WITH ISSUER KEY ${R} DURATION FOR TOKEN 2h, FOR SESSION 3h COMMENT 'c'`,
  ],
  [
    "JWT URL: no issuer, no FOR TOKEN",
    defineAccess("a3", { kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "https://example.com/jwks.json" }, issuer: undefined } }),
    2,
    true,
    "DEFINE ACCESS a3 ON DATABASE TYPE JWT URL 'https://example.com/jwks.json' DURATION FOR SESSION NONE",
  ],
  [
    "record with the default JWT, redacted",
    defineAccess("a4", record()),
    2,
    true,
    `DEFINE ACCESS a4 ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION NONE`,
  ],
  [
    "record with block SIGNIN and AUTHENTICATE",
    a5,
    2,
    true,
    `DEFINE ACCESS a5 ON DATABASE TYPE RECORD SIGNIN { SELECT * FROM user; } WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} ` +
      "AUTHENTICATE { IF $auth.enabled { RETURN $auth; } ELSE { THROW 'no'; }; } DURATION FOR TOKEN 1h, FOR SESSION 1d",
  ],
  [
    "record with JWKS",
    defineAccess("a7", record({ jwt: { verify: { kind: "Jwks", url: "http://x/j" }, issuer: undefined } })),
    2,
    true,
    "DEFINE ACCESS a7 ON DATABASE TYPE RECORD WITH JWT URL 'http://x/j' DURATION FOR TOKEN 1h, FOR SESSION NONE",
  ],
  [
    "JWT with AUTHENTICATE",
    defineAccess("a8", { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "HS512", key: "k" }, issuer: { alg: "HS512", key: "k" } } }, {
      authenticate: bin(idiom("$token.x"), "=", int(1)),
      duration: { session: null },
    }),
    2,
    true,
    `DEFINE ACCESS a8 ON DATABASE TYPE JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} AUTHENTICATE $token.x = 1 DURATION FOR TOKEN 1h, FOR SESSION NONE`,
  ],
  [
    "JWT EDDSA verify-only",
    defineAccess("a9", { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "EDDSA", key: "p" }, issuer: undefined } }, { duration: { token: dur(300) } }),
    2,
    true,
    "DEFINE ACCESS a9 ON DATABASE TYPE JWT ALGORITHM EDDSA KEY 'p' DURATION FOR SESSION NONE",
  ],
  [
    "record WITH REFRESH prints FOR GRANT (30d = 4w2d)",
    defineAccess("r", record({ refresh: true })),
    2,
    true,
    `DEFINE ACCESS r ON DATABASE TYPE RECORD WITH REFRESH WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR GRANT 4w2d, FOR TOKEN 1h, FOR SESSION NONE`,
  ],
  [
    "bearer",
    defineAccess("b", { kind: "Bearer", subject: "USER", jwt: undefined }, { duration: { grant: null } }),
    2,
    true,
    "DEFINE ACCESS b ON DATABASE TYPE BEARER FOR USER DURATION FOR GRANT NONE, FOR TOKEN 1h, FOR SESSION NONE",
  ],
  // DEFINE SCOPE / DEFINE TOKEN, desugared
  ["scope in 1.x", scopeSc, 1, true, "DEFINE SCOPE sc SESSION 1d SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) COMMENT 'scc'"],
  [
    "scope in 2.x: record access, SESSION only sets the session",
    scopeSc,
    2,
    true,
    `DEFINE ACCESS sc ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION 1d COMMENT 'scc'`,
  ],
  ["bare scope in 1.x", scopeBare, 1, false, "DEFINE SCOPE sc2"],
  [
    "bare scope in 2.x",
    scopeBare,
    2,
    true,
    `DEFINE ACCESS sc2 ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION NONE`,
  ],
  ["scope 2w in 1.x", scopeS3, 1, false, "DEFINE SCOPE s3 SESSION 2w COMMENT 'old'"],
  [
    "scope 2w in 2.x",
    scopeS3,
    2,
    true,
    `DEFINE ACCESS s3 ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION 2w COMMENT 'old'`,
  ],
  ["token in 1.x is never redacted", tokenDb, 1, true, "DEFINE TOKEN tk ON DATABASE TYPE HS256 VALUE 'secret' COMMENT 'tc'"],
  ["token in 2.x: JWT access without issuer", tokenDb, 2, true, `DEFINE ACCESS tk ON DATABASE TYPE JWT ALGORITHM HS256 KEY ${R} DURATION FOR SESSION NONE COMMENT 'tc'`],
  ["token in 2.x, not redacted", tokenDb, 2, false, "DEFINE ACCESS tk ON DATABASE TYPE JWT ALGORITHM HS256 KEY 'secret' DURATION FOR SESSION NONE COMMENT 'tc'"],
  ["token ON SCOPE in 1.x", tokenScope, 1, false, "DEFINE TOKEN t1 ON SCOPE sx TYPE RS512 VALUE 'pubk'"],
  ["token ON SCOPE in 2.x", tokenScope, 2, true, "DEFINE ACCESS t1 ON DATABASE TYPE RECORD WITH JWT ALGORITHM RS512 KEY 'pubk' DURATION FOR TOKEN 1h, FOR SESSION NONE"],
  ["JWKS token in 1.x", tokenJwks, 1, false, "DEFINE TOKEN t2 ON NAMESPACE TYPE JWKS VALUE 'https://j'"],
  ["JWKS token in 2.x", tokenJwks, 2, true, "DEFINE ACCESS t2 ON NAMESPACE TYPE JWT URL 'https://j' DURATION FOR SESSION NONE"],
];

describe("printStatement: DEFINE forms as INFO FOR shows them", () => {
  for (const [group, cases] of Object.entries({ tables, fields, others, users, accesses })) {
    describe(group, () => {
      it.each(cases)("%s (v%i, redact %s)", (_name, node, compat, redact, expected) => {
        expect(printStatement(node, { compat, redact })).toBe(expected);
      });
    });
  }
});

describe("redaction concerns the outermost definition only", () => {
  it("a DEFINE ACCESS inside a function body keeps its keys", () => {
    const inner = defineAccess("a", { kind: "Jwt", jwt: hsJwt("k") });
    const fn: Statement = { kind: "DefineFunction", ...base, name: "p", args: [], body: block(inner), returns: undefined, permissions: FULL_P };
    expect(printStatement(fn, { redact: true })).toBe(
      "DEFINE FUNCTION fn::p() { DEFINE ACCESS a ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'k' WITH ISSUER KEY 'k' DURATION FOR TOKEN 1h, FOR SESSION NONE; } PERMISSIONS FULL",
    );
  });
});

describe("printAccess: the engine's resolved JWT", () => {
  const generated = { verify: { kind: "Key", alg: "HS512", key: "gen" }, issuer: { alg: "HS512", key: "gen" } } as const;
  it("prints the generated key for export and redacts it for INFO", () => {
    const def = defineAccess("a4", record());
    expect(printAccess(def, generated, { compat: 2 })).toBe(
      "DEFINE ACCESS a4 ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY 'gen' WITH ISSUER KEY 'gen' DURATION FOR TOKEN 1h, FOR SESSION NONE",
    );
    expect(printAccess(def, generated, { compat: 2, redact: true })).toBe(
      `DEFINE ACCESS a4 ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS512 KEY ${R} WITH ISSUER KEY ${R} DURATION FOR TOKEN 1h, FOR SESSION NONE`,
    );
    expect(printStatement(def, { compat: 2, jwt: generated })).toBe(printAccess(def, generated, { compat: 2 }));
  });
  it("a written JWT wins over the resolved one", () => {
    expect(printAccess(account, generated, { compat: 2 })).toBe(accountText("'k1'", "'k1'"));
  });
  it("a scope never shows its key in 1.x", () => {
    expect(printAccess(scopeSc, generated, { compat: 1 })).toBe(
      "DEFINE SCOPE sc SESSION 1d SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) COMMENT 'scc'",
    );
  });
  it("without JWT and without redaction the WITH JWT clause is left out (it parses back to the default)", () => {
    expect(printStatement(defineAccess("a4", record()), { compat: 2 })).toBe("DEFINE ACCESS a4 ON DATABASE TYPE RECORD DURATION FOR TOKEN 1h, FOR SESSION NONE");
  });
});

type ExprCase = readonly [expected: string, node: Expr];
const v2Exprs: ExprCase[] = [
  ["1 + 2 * 3", bin(int(1), "+", bin(int(2), "*", int(3)))],
  ["(1 + 2) * 3", bin(sub(bin(int(1), "+", int(2))), "*", int(3))],
  ["a AND b OR !c", bin(bin(idiom("a"), "&&", idiom("b")), "||", { kind: "Unary", op: "!", operand: idiom("c") })],
  ["a INSIDE b", bin(idiom("a"), "INSIDE", idiom("b"))],
  ["a NOTINSIDE b", bin(idiom("a"), "NOTINSIDE", idiom("b"))],
  ["a @@ b", bin(idiom("a"), "MATCHES", idiom("b"))],
  ["<int> '5'", { kind: "Cast", type: basic("int"), expr: str("5") }],
  ["<array<int>> []", { kind: "Cast", type: { kind: "Array", inner: basic("int"), max: undefined }, expr: { kind: "Array", items: [] } }],
  ["1.5f", lit(1.5)],
  ["1f", lit(1)],
  ["\"it's\"", str("it's")],
  ["'new\\nline'", str("new\nline")],
  ["{  }", { kind: "Object", entries: [] }],
  [`{ "": 3, "1a": 1, SELECT: 5, "a-b": 4, a_b: 2 }`, {
    kind: "Object",
    entries: [["1a", 1], ["a_b", 2], ["", 3], ["a-b", 4], ["SELECT", 5]].map(([key, v]) => ({ key: key as string, value: int(v as number) })),
  }],
  ["user:1", { kind: "RecordId", table: "user", key: { kind: "Number", value: 1n } }],
  ["user:`a b`", { kind: "RecordId", table: "user", key: { kind: "String", value: "a b" } }],
  ["user:[1, 'a']", { kind: "RecordId", table: "user", key: { kind: "Array", items: [int(1), str("a")] } }],
  ["user:{ a: 1 }", { kind: "RecordId", table: "user", key: { kind: "Object", entries: [{ key: "a", value: int(1) }] } }],
  ["user:rand()", { kind: "RecordId", table: "user", key: { kind: "Generate", generator: "rand" } }],
  ["user:1..5", { kind: "RecordId", table: "user", key: { kind: "Range", begin: { key: { kind: "Number", value: 1n }, inclusive: true }, end: { key: { kind: "Number", value: 5n }, inclusive: false } } }],
  ["`my table`:1", { kind: "RecordId", table: "my table", key: { kind: "Number", value: 1n } }],
  ["$auth.id", idiom("$auth.id")],
  ["a[*].b[0][$][WHERE b = 1]", idiom("a", { kind: "All" }, { kind: "Field", name: "b" }, { kind: "Index", index: int(0) }, { kind: "Last" }, { kind: "Where", cond: bin(idiom("b"), "=", int(1)) })],
  ["$x…", idiom("$x", { kind: "Flatten" })],
  ["$x?.a", idiom("$x", { kind: "Optional" }, { kind: "Field", name: "a" })],
  ["$a.len()", idiom("$a", { kind: "Method", name: "len", args: [] })],
  ["a.`b c`", idiom("a", { kind: "Field", name: "b c" })],
  ["`select`", idiom("select")],
  ["->likes->person", { kind: "Idiom", parts: [{ kind: "Graph", dir: "->", what: ["likes"], cond: undefined, alias: undefined }, { kind: "Graph", dir: "->", what: ["person"], cond: undefined, alias: undefined }] }],
  ["->(likes, follows)->?", { kind: "Idiom", parts: [{ kind: "Graph", dir: "->", what: ["likes", "follows"], cond: undefined, alias: undefined }, { kind: "Graph", dir: "->", what: [], cond: undefined, alias: undefined }] }],
  ["<-(likes WHERE x = 1 AS l)", { kind: "Idiom", parts: [{ kind: "Graph", dir: "<-", what: ["likes"], cond: bin(idiom("x"), "=", int(1)), alias: idiom("l") }] }],
  ["math::PI", { kind: "Constant", name: "math::pi" }],
  ["fn::my_fn(1, 2)", call("fn::my_fn", int(1), int(2))],
  ["count((SELECT * FROM user))", call("count", sub(select("user")))],
  ["|$a: int| $a + 1", { kind: "Closure", args: [{ name: "a", type: basic("int") }], returns: undefined, body: bin(param("a"), "+", int(1)) }],
  ["|$a: any| $a", { kind: "Closure", args: [{ name: "a", type: undefined }], returns: undefined, body: param("a") }],
  ["/ab+c\\/d/", lit(new Regex("ab+c/d"))],
  ["|user:1..10|", { kind: "Mock", table: "user", from: 1n, to: 10n }],
  ["{}", block()],
  ["{ 1 }", block(int(1))],
  ["{ RETURN 1; }", block({ kind: "Return", value: int(1), fetch: undefined })],
  ["1h30m", lit(new Duration(5400n * 1_000_000_000n))],
  ["NONE", lit(undefined)],
  ["NULL", lit(null)],
];

const v1Exprs: ExprCase[] = [
  ["'new\nline'", str("new\nline")],
  ["user:⟨a b⟩", { kind: "RecordId", table: "user", key: { kind: "String", value: "a b" } }],
  ["⟨my table⟩:1", { kind: "RecordId", table: "my table", key: { kind: "Number", value: 1n } }],
  ["select", idiom("select")],
];

describe("printExpr", () => {
  it.each(v2Exprs)("2.x %s", (expected, node) => expect(printExpr(node)).toBe(expected));
  it.each(v1Exprs)("1.x %s", (expected, node) => expect(printExpr(node, { compat: 1 })).toBe(expected));
});

describe("printType", () => {
  const cases: [string, TypeKind][] = [
    ["array", { kind: "Array", inner: undefined, max: undefined }],
    ["array", { kind: "Array", inner: basic("any"), max: undefined }],
    ["array<any, 5>", { kind: "Array", inner: basic("any"), max: 5 }],
    ["set<string, 2>", { kind: "Set", inner: basic("string"), max: 2 }],
    ["record", { kind: "Record", tables: [] }],
    ["option<int | string>", { kind: "Option", inner: { kind: "Either", types: [basic("int"), basic("string")] } }],
    ["geometry", { kind: "Geometry", types: [] }],
  ];
  it.each(cases)("%s", (expected, t) => expect(printType(t)).toBe(expected));
});

const ifThen: Statement = { kind: "If", branches: [{ cond: idiom("a"), then: int(1) }, { cond: idiom("b"), then: int(2) }], otherwise: undefined, style: "Then" };
const statements: [string, Statement, 1 | 2][] = [
  ["IF a THEN 1 ELSE IF b THEN 2 END", ifThen, 2],
  ["IF a { 1 } ELSE IF b { 2 } ELSE { 3 }", { kind: "If", branches: [{ cond: idiom("a"), then: block(int(1)) }, { cond: idiom("b"), then: block(int(2)) }], otherwise: block(int(3)), style: "Block" }, 2],
  ["IF a THEN 1 ELSE { 2 } END", { kind: "If", branches: [{ cond: idiom("a"), then: int(1) }], otherwise: block(int(2)), style: "Then" }, 2],
  [
    "SELECT * FROM user WHERE a = 1 SPLIT ON tags GROUP BY a, b ORDER BY RAND() FETCH friends TIMEOUT 5s PARALLEL",
    select("user", {
      cond: bin(idiom("a"), "=", int(1)),
      split: [idiom("tags")],
      group: { all: false, fields: [idiom("a"), idiom("b")] },
      order: { kind: "Random" },
      fetch: [idiom("friends")],
      timeout: dur(5),
      parallel: true,
    }),
    2,
  ],
  [
    "SELECT VALUE name FROM user WHERE age > 18 ORDER BY name COLLATE, n NUMERIC DESC\n LIMIT 10 START 5",
    select("user", {
      fields: { value: true, items: [{ kind: "Single", expr: idiom("name"), alias: undefined }] },
      cond: bin(idiom("age"), ">", int(18)),
      order: { kind: "Fields", items: [{ field: idiom("name"), direction: "ASC", collate: true, numeric: false }, { field: idiom("n"), direction: "DESC", collate: false, numeric: true }] },
      limit: int(10),
      start: int(5),
    }),
    2,
  ],
  ["SELECT * FROM user ORDER BY name DESC", select("user", { order: { kind: "Fields", items: [{ field: idiom("name"), direction: "DESC", collate: false, numeric: false }] } }), 1],
  ["SELECT * OMIT password FROM ONLY user:1 WITH INDEX i1,i2 EXPLAIN FULL", select("user", { omit: [idiom("password")], only: true, what: [{ kind: "RecordId", table: "user", key: { kind: "Number", value: 1n } }], with: { kind: "Index", names: ["i1", "i2"] }, explain: { full: true } }), 2],
  [
    "UPDATE user SET a += 1, b = 2 WHERE id = $auth.id RETURN DIFF",
    { kind: "Update", only: false, what: [table("user")], data: { kind: "Set", items: [{ place: idiom("a"), op: "+=", value: int(1) }, { place: idiom("b"), op: "=", value: int(2) }] }, cond: bin(idiom("id"), "=", idiom("$auth.id")), output: { kind: "Diff" }, timeout: undefined, parallel: false },
    2,
  ],
  ["UPSERT user:1 MERGE { a: 1 }", { kind: "Upsert", only: false, what: [{ kind: "RecordId", table: "user", key: { kind: "Number", value: 1n } }], data: { kind: "Merge", value: { kind: "Object", entries: [{ key: "a", value: int(1) }] } }, cond: undefined, output: undefined, timeout: undefined, parallel: false }, 2],
  ["DELETE ONLY user:1 RETURN BEFORE", { kind: "Delete", only: true, what: [{ kind: "RecordId", table: "user", key: { kind: "Number", value: 1n } }], cond: undefined, output: { kind: "Before" }, timeout: undefined, parallel: false }, 2],
  [
    "INSERT IGNORE INTO user (a, b) VALUES (1, 2), (3, 4)",
    { kind: "Insert", into: table("user"), relation: false, ignore: true, data: { kind: "Values", fields: [idiom("a"), idiom("b")], rows: [[int(1), int(2)], [int(3), int(4)]] }, update: undefined, output: undefined, timeout: undefined, parallel: false },
    2,
  ],
  [
    "INSERT INTO user { a: 1 } ON DUPLICATE KEY UPDATE a += 1",
    { kind: "Insert", into: table("user"), relation: false, ignore: false, data: { kind: "Single", value: { kind: "Object", entries: [{ key: "a", value: int(1) }] } }, update: [{ place: idiom("a"), op: "+=", value: int(1) }], output: undefined, timeout: undefined, parallel: false },
    2,
  ],
  [
    "RELATE user:1 -> likes -> post:1 SET at = time::now()",
    { kind: "Relate", only: false, from: { kind: "RecordId", table: "user", key: { kind: "Number", value: 1n } }, through: table("likes"), to: { kind: "RecordId", table: "post", key: { kind: "Number", value: 1n } }, uniq: false, data: { kind: "Set", items: [{ place: idiom("at"), op: "=", value: call("time::now") }] }, output: undefined, timeout: undefined, parallel: false },
    2,
  ],
  ["LET $x: int = 1", { kind: "Let", name: "x", type: basic("int"), value: int(1) }, 2],
  ["FOR $x IN [1, 2] { CREATE user SET email = $email; }", { kind: "For", param: "x", range: { kind: "Array", items: [int(1), int(2)] }, body: block(createUserEmail) }, 2],
  ["CREATE user RETURN VALUE id", { ...createUserEmail, data: undefined, output: { kind: "Fields", fields: { value: true, items: [{ kind: "Single", expr: idiom("id"), alias: undefined }] } } } as Statement, 2],
  ["REMOVE EVENT e ON user", { kind: "Remove", target: "EVENT", name: "e", ifExists: false, base: undefined, scope: undefined, table: "user" }, 2],
  ["REMOVE FUNCTION fn::a::b", { kind: "Remove", target: "FUNCTION", name: "a::b", ifExists: false, base: undefined, scope: undefined, table: undefined }, 2],
  ["REMOVE TABLE IF EXISTS user", { kind: "Remove", target: "TABLE", name: "user", ifExists: true, base: undefined, scope: undefined, table: undefined }, 2],
  ["REMOVE ACCESS a ON DATABASE", { kind: "Remove", target: "ACCESS", name: "a", ifExists: false, base: "DATABASE", scope: undefined, table: undefined }, 2],
];

describe("printStatement: other statements", () => {
  it.each(statements)("%s", (expected, node, compat) => expect(printStatement(node, { compat })).toBe(expected));
});
