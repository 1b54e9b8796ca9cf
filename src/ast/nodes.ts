// AST: readonly, `kind`-tagged data produced by grammar/ and consumed by the printer and the executor.
//
// Conventions:
// - Every node has a string `kind`. Consumers dispatch with `Record<Kind, handler>` maps so that a new
//   node kind breaks the build wherever it must be handled.
// - Keywords are stored in their canonical upper-case spelling (roles, bases, algorithms);
//   identifiers keep the user's spelling.
// - Optional clause absent ⇒ property `undefined`. "NONE" written explicitly for a duration ⇒ `null`.
// - Old syntax (DEFINE SCOPE / DEFINE TOKEN) is desugared into DefineAccess at parse time; what only
//   the old syntax had is kept in `DefineAccess.legacy` so the 1.x printer can reproduce it.

import type { Datetime, Decimal, Duration, Uuid, Value } from "../value/types.js";

/** 1-based line and column of the first character of a node in its source text. */
export interface Pos {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

// ───────────────────────────── Types (`<int>`, `TYPE option<string>`) ─────────────────────────────

export type BasicTypeName =
  | "any"
  | "null"
  | "bool"
  | "bytes"
  | "datetime"
  | "decimal"
  | "duration"
  | "float"
  | "int"
  | "number"
  | "object"
  | "point"
  | "string"
  | "uuid"
  | "regex"
  | "range"
  | "function"
  /** Only in `<future> { … }`, never as a TYPE. */
  | "future";

export type TypeKind =
  | { readonly kind: "Basic"; readonly name: BasicTypeName }
  | { readonly kind: "Option"; readonly inner: TypeKind }
  | { readonly kind: "Array"; readonly inner: TypeKind | undefined; readonly max: number | undefined }
  | { readonly kind: "Set"; readonly inner: TypeKind | undefined; readonly max: number | undefined }
  | { readonly kind: "Record"; readonly tables: readonly string[] }
  | { readonly kind: "Geometry"; readonly types: readonly string[] }
  | { readonly kind: "Either"; readonly types: readonly TypeKind[] }
  | { readonly kind: "Literal"; readonly value: Expr };

// ───────────────────────────── Expressions ─────────────────────────────

export type BinaryOp =
  | "||" // OR, ||
  | "&&" // AND, &&
  | "??" // null coalescing
  | "?:" // truthy coalescing
  | "=" // equal (also IS)
  | "==" // exact
  | "!=" // not equal (also IS NOT)
  | "?=" // any equal
  | "*=" // all equal
  | "~" // fuzzy match
  | "!~"
  | "?~"
  | "*~"
  | "<"
  | "<="
  | ">"
  | ">="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "**"
  | "CONTAINS"
  | "CONTAINSNOT"
  | "CONTAINSALL"
  | "CONTAINSANY"
  | "CONTAINSNONE"
  | "INSIDE" // also IN
  | "NOTINSIDE" // also NOT IN
  | "ALLINSIDE"
  | "ANYINSIDE"
  | "NONEINSIDE"
  | "OUTSIDE"
  | "INTERSECTS"
  | "MATCHES"; // @@

export type UnaryOp = "!" | "-" | "+";

/** A scalar literal: NONE, NULL, true/false, int (bigint), float (number), decimal, string, duration, datetime, uuid. */
export interface LiteralExpr {
  readonly kind: "Literal";
  readonly value: Value;
  readonly pos?: Pos;
}

export interface ArrayExpr {
  readonly kind: "Array";
  readonly items: readonly Expr[];
  readonly pos?: Pos;
}

export interface ObjectExpr {
  readonly kind: "Object";
  readonly entries: readonly { readonly key: string; readonly value: Expr }[];
  readonly pos?: Pos;
}

/** The key of a record-id literal; may contain expressions (`user:[$a, 1]`) or a generator (`user:rand()`). */
export type RecordKeyExpr =
  | { readonly kind: "Number"; readonly value: bigint }
  | { readonly kind: "String"; readonly value: string }
  | { readonly kind: "Uuid"; readonly value: Uuid }
  | { readonly kind: "Array"; readonly items: readonly Expr[] }
  | { readonly kind: "Object"; readonly entries: readonly { readonly key: string; readonly value: Expr }[] }
  | { readonly kind: "Generate"; readonly generator: "rand" | "ulid" | "uuid" }
  | {
      readonly kind: "Range";
      readonly begin: { readonly key: RecordKeyExpr; readonly inclusive: boolean } | undefined;
      readonly end: { readonly key: RecordKeyExpr; readonly inclusive: boolean } | undefined;
    };

/** `user:1`, `user:⟨a b⟩`, `user:[1, $x]`. */
export interface RecordIdExpr {
  readonly kind: "RecordId";
  readonly table: string;
  readonly key: RecordKeyExpr;
  readonly pos?: Pos;
}

/** `$name`. */
export interface ParamExpr {
  readonly kind: "Param";
  readonly name: string;
  readonly pos?: Pos;
}

/**
 * A bare table name where SurrealQL expects a table (SELECT/CREATE/UPDATE/DELETE/INSERT INTO/RELATE targets,
 * `ON table`). In other expression positions a bare identifier is a field `Idiom`.
 */
export interface TableExpr {
  readonly kind: "Table";
  readonly name: string;
  readonly pos?: Pos;
}

/** Graph step `->likes->person`, `<-(likes WHERE x > 1 AS l)`, `<->knows`. */
export interface GraphPart {
  readonly kind: "Graph";
  readonly dir: "->" | "<-" | "<->";
  /** Table names; empty means `?` (any table). */
  readonly what: readonly string[];
  readonly cond: Expr | undefined;
  readonly alias: IdiomExpr | undefined;
}

export type IdiomPart =
  /** First part: a value the path starts from (`$auth`, `(subquery)`, `user:1`, `fn()`). */
  | { readonly kind: "Start"; readonly value: Expr }
  /** `name`, `.name`, `.⟨odd name⟩`. */
  | { readonly kind: "Field"; readonly name: string }
  /** `[0]`, `[$i]`, `["key"]`. */
  | { readonly kind: "Index"; readonly index: Expr }
  /** `[*]`, `.*`. */
  | { readonly kind: "All" }
  /** `[$]`. */
  | { readonly kind: "Last" }
  /** `[WHERE cond]`, `[? cond]`. */
  | { readonly kind: "Where"; readonly cond: Expr }
  /** `.method(args)` (SurrealDB 2 method syntax, e.g. `.len()`). */
  | { readonly kind: "Method"; readonly name: string; readonly args: readonly Expr[] }
  /** `(args)` after a value: calls a closure (`$f(1)`, `[$f][0](2)`, 2.x). */
  | { readonly kind: "Invoke"; readonly args: readonly Expr[] }
  /** `…` / `...` flatten. */
  | { readonly kind: "Flatten" }
  /** `?` optional chaining (`a?.b`). */
  | { readonly kind: "Optional" }
  | GraphPart;

/** A path: `name`, `a.b[0]`, `$auth.id`, `->likes->person.name`, `(SELECT …)[0].id`. */
export interface IdiomExpr {
  readonly kind: "Idiom";
  readonly parts: readonly IdiomPart[];
  readonly pos?: Pos;
}

export interface BinaryExpr {
  readonly kind: "Binary";
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  /** MATCHES' reference number (`@1@`). */
  readonly ref?: number;
  readonly pos?: Pos;
}

export interface UnaryExpr {
  readonly kind: "Unary";
  readonly op: UnaryOp;
  readonly operand: Expr;
  readonly pos?: Pos;
}

/** `<int> expr`, `<record<user>> $x`, `<option<string>> …`. */
export interface CastExpr {
  readonly kind: "Cast";
  readonly type: TypeKind;
  readonly expr: Expr;
  readonly pos?: Pos;
}

/**
 * A function call. `name` is the full path as written, lower-cased for builtins:
 * `crypto::argon2::compare`, `string::is::email`, `count`, and `fn::my_fn` for custom functions.
 */
export interface CallExpr {
  readonly kind: "Call";
  readonly name: string;
  readonly args: readonly Expr[];
  readonly pos?: Pos;
}

/** A named constant such as `math::pi` or `time::EPOCH`. */
export interface ConstantExpr {
  readonly kind: "Constant";
  readonly name: string;
  readonly pos?: Pos;
}

/** A parenthesised expression or statement: `(1 + 2)`, `(SELECT * FROM user)`, `(CREATE …)`. Printed with parentheses. */
export interface SubqueryExpr {
  readonly kind: "Subquery";
  readonly inner: Statement;
  readonly pos?: Pos;
}

/** `{ stmt; stmt; }` used as a value (function bodies, IF bodies, event THEN, SIGNUP/SIGNIN blocks). */
export interface BlockExpr {
  readonly kind: "Block";
  readonly statements: readonly Statement[];
  readonly pos?: Pos;
}

/** `|person:1..3|` mock records. */
export interface MockExpr {
  readonly kind: "Mock";
  readonly table: string;
  readonly from: bigint;
  readonly to: bigint | undefined;
  readonly pos?: Pos;
}

/** A range value (2.x): `1..5`, `1..=5`, `..5`, `1..`; the begin, when given, is included. */
export interface RangeExpr {
  readonly kind: "RangeValue";
  readonly begin: { readonly expr: Expr; readonly inclusive: boolean } | undefined;
  readonly end: { readonly expr: Expr; readonly inclusive: boolean } | undefined;
  readonly pos?: Pos;
}

/** `|$a: int, $b| expr` (SurrealDB 2 closures). */
export interface ClosureExpr {
  readonly kind: "Closure";
  readonly args: readonly { readonly name: string; readonly type: TypeKind | undefined }[];
  readonly returns: TypeKind | undefined;
  readonly body: Expr;
  readonly pos?: Pos;
}

export type Expr =
  | LiteralExpr
  | ArrayExpr
  | ObjectExpr
  | RecordIdExpr
  | ParamExpr
  | TableExpr
  | IdiomExpr
  | BinaryExpr
  | UnaryExpr
  | CastExpr
  | CallExpr
  | ConstantExpr
  | SubqueryExpr
  | BlockExpr
  | MockExpr
  | RangeExpr
  | ClosureExpr;

export type ExprKind = Expr["kind"];

// ───────────────────────────── Clauses shared by statements ─────────────────────────────

export type AssignOp = "=" | "+=" | "-=" | "+?=";

export interface Assignment {
  readonly place: IdiomExpr;
  readonly op: AssignOp;
  readonly value: Expr;
}

/** The data clause of CREATE / UPDATE / UPSERT / RELATE. */
export type DataClause =
  | { readonly kind: "Set"; readonly items: readonly Assignment[] }
  | { readonly kind: "Unset"; readonly fields: readonly IdiomExpr[] }
  | { readonly kind: "Merge"; readonly value: Expr }
  | { readonly kind: "Content"; readonly value: Expr }
  | { readonly kind: "Replace"; readonly value: Expr }
  | { readonly kind: "Patch"; readonly value: Expr };

/** One projection: `*`, `expr`, `expr AS alias`. */
export type Field =
  | { readonly kind: "All" }
  | { readonly kind: "Single"; readonly expr: Expr; readonly alias: IdiomExpr | undefined };

/** A projection list; `value` is true for `SELECT VALUE expr`. */
export interface Fields {
  readonly value: boolean;
  readonly items: readonly Field[];
}

/** RETURN clause of write statements. */
export type Output =
  | { readonly kind: "None" }
  | { readonly kind: "Null" }
  | { readonly kind: "Diff" }
  | { readonly kind: "Before" }
  | { readonly kind: "After" }
  | { readonly kind: "Fields"; readonly fields: Fields };

export interface OrderItem {
  readonly field: IdiomExpr;
  readonly direction: "ASC" | "DESC";
  readonly collate: boolean;
  readonly numeric: boolean;
}

/** `ORDER BY RAND()` or a list of order items. */
export type OrderClause = { readonly kind: "Random" } | { readonly kind: "Fields"; readonly items: readonly OrderItem[] };

/** PERMISSIONS for one action. */
export type Permission =
  | { readonly kind: "None" }
  | { readonly kind: "Full" }
  | { readonly kind: "Where"; readonly cond: Expr };

/** Resolved permissions; the parser fills the defaults (tables: NONE, fields/params/functions: FULL). */
export interface Permissions {
  readonly select: Permission;
  readonly create: Permission;
  readonly update: Permission;
  readonly delete: Permission;
}

export type Base = "ROOT" | "NAMESPACE" | "DATABASE";

export type Role = "OWNER" | "EDITOR" | "VIEWER";

/** `DURATION FOR …` clause values: `undefined` = not written (use the default), `null` = written as NONE. */
export interface DurationClause {
  readonly grant?: Duration | null;
  readonly token?: Duration | null;
  readonly session?: Duration | null;
}

/** JWT algorithm names as SurrealDB prints them. */
export type JwtAlgorithm =
  | "EDDSA"
  | "ES256"
  | "ES384"
  | "ES512"
  | "HS256"
  | "HS384"
  | "HS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "RS256"
  | "RS384"
  | "RS512";

export type JwtVerify =
  | { readonly kind: "Key"; readonly alg: JwtAlgorithm; readonly key: string }
  | { readonly kind: "Jwks"; readonly url: string };

/** A JWT configuration as written; `undefined` in an access type means "default" (HS512 with a random key). */
export interface JwtConfig {
  readonly verify: JwtVerify;
  readonly issuer: { readonly alg: JwtAlgorithm; readonly key: string } | undefined;
}

export type AccessType =
  | {
      readonly kind: "Record";
      readonly signup: Expr | undefined;
      readonly signin: Expr | undefined;
      readonly jwt: JwtConfig | undefined;
      readonly refresh: boolean;
    }
  | { readonly kind: "Jwt"; readonly jwt: JwtConfig }
  | { readonly kind: "Bearer"; readonly subject: "USER" | "RECORD"; readonly jwt: JwtConfig | undefined };

/** What only the 1.x syntax had, kept so the 1.x printer can reproduce `DEFINE SCOPE` / `DEFINE TOKEN` text. */
export type LegacyAccess =
  | { readonly kind: "Scope"; readonly session: Duration | undefined }
  | {
      readonly kind: "Token";
      /**
       * Where the token was defined in 1.x syntax; `scope` names the scope for ON SCOPE.
       * "ROOT": SurrealDB 2 accepts `DEFINE TOKEN … ON ROOT` (a ROOT JWT access); 1.x fails it at run time with `Invalid level 'ROOT'`.
       */
      readonly on: "ROOT" | "NAMESPACE" | "DATABASE" | "SCOPE";
      readonly scope: string | undefined;
      /** 1.x TYPE as written: a JwtAlgorithm or "JWKS". */
      readonly type: JwtAlgorithm | "JWKS";
      readonly value: string;
    };

// ───────────────────────────── Statements ─────────────────────────────

interface StatementBase {
  readonly pos?: Pos;
}

export interface UseStatement extends StatementBase {
  readonly kind: "Use";
  readonly ns: string | undefined;
  readonly db: string | undefined;
}

export interface LetStatement extends StatementBase {
  readonly kind: "Let";
  readonly name: string;
  readonly type: TypeKind | undefined;
  readonly value: Expr;
}

export interface ReturnStatement extends StatementBase {
  readonly kind: "Return";
  readonly value: Expr;
  readonly fetch: readonly IdiomExpr[] | undefined;
}

/** `IF a THEN b ELSE IF c THEN d ELSE e END` (style "Then") or `IF a { b } ELSE IF c { d } ELSE { e }` (style "Block"). */
export interface IfStatement extends StatementBase {
  readonly kind: "If";
  readonly branches: readonly { readonly cond: Expr; readonly then: Expr }[];
  readonly otherwise: Expr | undefined;
  readonly style: "Then" | "Block";
}

export interface ForStatement extends StatementBase {
  readonly kind: "For";
  readonly param: string;
  readonly range: Expr;
  readonly body: BlockExpr;
}

export interface ThrowStatement extends StatementBase {
  readonly kind: "Throw";
  readonly value: Expr;
}

export interface BreakStatement extends StatementBase {
  readonly kind: "Break";
}

export interface ContinueStatement extends StatementBase {
  readonly kind: "Continue";
}

/** `OPTION IMPORT [= true | false]`: gives no result; an EDITOR's or OWNER's (SurrealDB refuses the query below). */
export interface OptionStatement extends StatementBase {
  readonly kind: "Option";
  readonly name: string;
  readonly value: boolean;
}

export interface SleepStatement extends StatementBase {
  readonly kind: "Sleep";
  readonly duration: Duration;
}

export interface BeginStatement extends StatementBase {
  readonly kind: "Begin";
}
export interface CommitStatement extends StatementBase {
  readonly kind: "Commit";
}
export interface CancelStatement extends StatementBase {
  readonly kind: "Cancel";
}

/** INFO FOR ROOT | NS | DB | TABLE t | USER u [ON base] | SCOPE s (1.x) | INDEX i ON t [STRUCTURE]. */
export interface InfoStatement extends StatementBase {
  readonly kind: "Info";
  readonly target: "ROOT" | "NAMESPACE" | "DATABASE" | "TABLE" | "USER" | "SCOPE" | "INDEX";
  readonly name: string | undefined;
  readonly base: Base | undefined;
  readonly table: string | undefined;
  readonly structure: boolean;
}

/** A bare expression used as a statement (`1 + 1;`, `$x;`, `fn::x();`). */
export interface ExprStatement extends StatementBase {
  readonly kind: "Expr";
  readonly expr: Expr;
}

export interface CreateStatement extends StatementBase {
  readonly kind: "Create";
  readonly only: boolean;
  readonly what: readonly Expr[];
  readonly data: DataClause | undefined;
  readonly output: Output | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
}

export interface SelectStatement extends StatementBase {
  readonly kind: "Select";
  readonly fields: Fields;
  readonly omit: readonly IdiomExpr[] | undefined;
  readonly only: boolean;
  readonly what: readonly Expr[];
  readonly with: { readonly kind: "NoIndex" } | { readonly kind: "Index"; readonly names: readonly string[] } | undefined;
  readonly cond: Expr | undefined;
  readonly split: readonly IdiomExpr[] | undefined;
  readonly group: { readonly all: boolean; readonly fields: readonly IdiomExpr[] } | undefined;
  readonly order: OrderClause | undefined;
  readonly limit: Expr | undefined;
  readonly start: Expr | undefined;
  readonly fetch: readonly IdiomExpr[] | undefined;
  readonly version: Expr | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
  readonly explain: { readonly full: boolean } | undefined;
}

/** UPDATE and UPSERT share a shape. */
export interface UpdateStatement extends StatementBase {
  readonly kind: "Update" | "Upsert";
  readonly only: boolean;
  readonly what: readonly Expr[];
  readonly data: DataClause | undefined;
  readonly cond: Expr | undefined;
  readonly output: Output | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
}

export interface DeleteStatement extends StatementBase {
  readonly kind: "Delete";
  readonly only: boolean;
  readonly what: readonly Expr[];
  readonly cond: Expr | undefined;
  readonly output: Output | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
}

export type InsertData =
  /** `(a, b) VALUES (1, 2), (3, 4)`. */
  | { readonly kind: "Values"; readonly fields: readonly IdiomExpr[]; readonly rows: readonly (readonly Expr[])[] }
  /** `{…}`, `[{…}, {…}]`, `$param`. */
  | { readonly kind: "Single"; readonly value: Expr };

export interface InsertStatement extends StatementBase {
  readonly kind: "Insert";
  readonly into: Expr | undefined;
  readonly relation: boolean;
  readonly ignore: boolean;
  readonly data: InsertData;
  readonly update: readonly Assignment[] | undefined;
  readonly output: Output | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
}

export interface RelateStatement extends StatementBase {
  readonly kind: "Relate";
  readonly only: boolean;
  readonly from: Expr;
  /** The edge table (or record id / param). */
  readonly through: Expr;
  readonly to: Expr;
  readonly uniq: boolean;
  readonly data: DataClause | undefined;
  readonly output: Output | undefined;
  readonly timeout: Duration | undefined;
  readonly parallel: boolean;
}

/** `LIVE SELECT [DIFF | fields] FROM table [WHERE …] [FETCH …]`. */
export interface LiveStatement extends StatementBase {
  readonly kind: "Live";
  readonly diff: boolean;
  readonly fields: Fields;
  readonly what: Expr;
  readonly cond: Expr | undefined;
  readonly fetch: readonly IdiomExpr[] | undefined;
}

export interface KillStatement extends StatementBase {
  readonly kind: "Kill";
  readonly id: Expr;
}

// ── DEFINE ──

interface DefineBase extends StatementBase {
  readonly ifNotExists: boolean;
  readonly overwrite: boolean;
  readonly comment: string | undefined;
}

export interface DefineNamespaceStatement extends DefineBase {
  readonly kind: "DefineNamespace";
  readonly name: string;
}

export interface DefineDatabaseStatement extends DefineBase {
  readonly kind: "DefineDatabase";
  readonly name: string;
  readonly changefeed: Duration | undefined;
}

export interface DefineUserStatement extends DefineBase {
  readonly kind: "DefineUser";
  readonly name: string;
  readonly base: Base;
  /** PASSWORD 'plain' (hashed by the executor) or PASSHASH 'stored' — at most one is set. */
  readonly password: string | undefined;
  readonly passhash: string | undefined;
  /** Upper-case; the parser fills the default ["VIEWER"] when ROLES is absent. */
  readonly roles: readonly Role[];
  /**
   * The role names as written (`editor`, `Owner`), `["Viewer"]` without ROLES: INFO … STRUCTURE shows this
   * spelling in both versions. Absent ⇒ `roles` is shown.
   */
  readonly rolesAsWritten?: readonly string[];
  readonly duration: DurationClause;
}

/** DEFINE ACCESS, and DEFINE SCOPE / DEFINE TOKEN desugared into it (see `legacy`). */
export interface DefineAccessStatement extends DefineBase {
  readonly kind: "DefineAccess";
  readonly name: string;
  readonly base: Base;
  readonly access: AccessType;
  readonly authenticate: Expr | undefined;
  readonly duration: DurationClause;
  readonly legacy: LegacyAccess | undefined;
}

export interface DefineTableStatement extends DefineBase {
  readonly kind: "DefineTable";
  readonly name: string;
  readonly drop: boolean;
  /** SCHEMAFULL (true) or SCHEMALESS (false, the default). */
  readonly schemafull: boolean;
  readonly tableType:
    | { readonly kind: "Any" }
    | { readonly kind: "Normal" }
    | { readonly kind: "Relation"; readonly from: readonly string[]; readonly to: readonly string[]; readonly enforced: boolean };
  /**
   * `false` when the text had no TYPE clause: 2.x then makes a SCHEMAFULL table NORMAL, 1.x keeps ANY
   * (see `tableTypeOf` in print.ts). Absent ⇒ `tableType` is taken as written.
   */
  readonly tableTypeWritten?: boolean;
  readonly view: SelectStatement | undefined;
  readonly permissions: Permissions;
  /** True when the text had a PERMISSIONS clause (1.x prints it only then). */
  readonly permissionsWritten: boolean;
  readonly changefeed: { readonly expiry: Duration; readonly includeOriginal: boolean } | undefined;
}

export interface DefineFieldStatement extends DefineBase {
  readonly kind: "DefineField";
  readonly name: IdiomExpr;
  readonly table: string;
  readonly flexible: boolean;
  readonly type: TypeKind | undefined;
  readonly readonly: boolean;
  readonly value: Expr | undefined;
  readonly assert: Expr | undefined;
  readonly default: Expr | undefined;
  /** `DEFAULT ALWAYS expr` (SurrealDB 2.2+). */
  readonly defaultAlways: boolean;
  readonly permissions: Permissions;
  readonly permissionsWritten: boolean;
}

export interface DefineIndexStatement extends DefineBase {
  readonly kind: "DefineIndex";
  readonly name: string;
  readonly table: string;
  readonly fields: readonly IdiomExpr[];
  readonly unique: boolean;
}

export interface DefineParamStatement extends DefineBase {
  readonly kind: "DefineParam";
  /** Without the `$`. */
  readonly name: string;
  readonly value: Expr;
  readonly permissions: Permission;
}

export interface DefineEventStatement extends DefineBase {
  readonly kind: "DefineEvent";
  readonly name: string;
  readonly table: string;
  /** Defaults to `true` when WHEN is absent. */
  readonly when: Expr;
  readonly then: readonly Expr[];
}

export interface DefineFunctionStatement extends DefineBase {
  readonly kind: "DefineFunction";
  /** Without the `fn::` prefix, e.g. `greet` or `auth::check`. */
  readonly name: string;
  readonly args: readonly { readonly name: string; readonly type: TypeKind }[];
  readonly body: BlockExpr;
  readonly returns: TypeKind | undefined;
  readonly permissions: Permission;
}

export interface DefineAnalyzerStatement extends DefineBase {
  readonly kind: "DefineAnalyzer";
  readonly name: string;
  /** The rest of the definition as written (tokenizers, filters); analyzers are parsed but not used. */
  readonly text: string;
}

export type DefineStatement =
  | DefineNamespaceStatement
  | DefineDatabaseStatement
  | DefineUserStatement
  | DefineAccessStatement
  | DefineTableStatement
  | DefineFieldStatement
  | DefineIndexStatement
  | DefineParamStatement
  | DefineEventStatement
  | DefineFunctionStatement
  | DefineAnalyzerStatement;

/**
 * ALTER TABLE [IF EXISTS] name …clauses (2.x): each clause written replaces that part of the stored definition
 * (absent ⇒ kept); `comment` / `changefeed` null for `COMMENT NONE` / `CHANGEFEED NONE`.
 */
export interface AlterTableStatement extends StatementBase {
  readonly kind: "AlterTable";
  readonly name: string;
  readonly ifExists: boolean;
  readonly drop: boolean | undefined;
  readonly schemafull: boolean | undefined;
  readonly tableType: DefineTableStatement["tableType"] | undefined;
  readonly permissions: Permissions | undefined;
  readonly comment: string | null | undefined;
  readonly changefeed: DefineTableStatement["changefeed"] | null;
}

/** REMOVE NAMESPACE|DATABASE|USER|ACCESS|SCOPE|TOKEN|TABLE|FIELD|INDEX|PARAM|EVENT|FUNCTION|ANALYZER [IF EXISTS] name [ON …]. */
export interface RemoveStatement extends StatementBase {
  readonly kind: "Remove";
  readonly target:
    | "NAMESPACE"
    | "DATABASE"
    | "USER"
    | "ACCESS"
    | "SCOPE"
    | "TOKEN"
    | "TABLE"
    | "FIELD"
    | "INDEX"
    | "PARAM"
    | "EVENT"
    | "FUNCTION"
    | "ANALYZER";
  /** For FIELD the field path as text (`a.b`); for PARAM without `$`; for FUNCTION without `fn::`. */
  readonly name: string;
  readonly ifExists: boolean;
  /** USER / ACCESS / TOKEN: `ON ROOT|NAMESPACE|DATABASE` (TOKEN ON SCOPE: base "DATABASE" and `scope` set). */
  readonly base: Base | undefined;
  readonly scope: string | undefined;
  /** FIELD / INDEX / EVENT: `ON table`. */
  readonly table: string | undefined;
}

export type Statement =
  | UseStatement
  | LetStatement
  | ReturnStatement
  | IfStatement
  | ForStatement
  | ThrowStatement
  | BreakStatement
  | ContinueStatement
  | SleepStatement
  | OptionStatement
  | BeginStatement
  | CommitStatement
  | CancelStatement
  | InfoStatement
  | ExprStatement
  | CreateStatement
  | SelectStatement
  | UpdateStatement
  | DeleteStatement
  | InsertStatement
  | RelateStatement
  | AlterTableStatement
  | LiveStatement
  | KillStatement
  | DefineStatement
  | RemoveStatement;

export type StatementKind = Statement["kind"];

/** Everything `parse` returns for one text. */
export interface Query {
  readonly statements: readonly Statement[];
}

export type { Datetime, Decimal, Duration, Uuid };
