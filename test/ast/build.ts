// Test helpers: terse constructors for hand-built AST nodes (defaults as the parser fills them).
import type {
  AccessType,
  BinaryOp,
  BlockExpr,
  DefineAccessStatement,
  DefineFieldStatement,
  DefineTableStatement,
  DefineUserStatement,
  Expr,
  IdiomExpr,
  IdiomPart,
  JwtConfig,
  Permission,
  Permissions,
  SelectStatement,
  Statement,
  TypeKind,
} from "../../src/ast/nodes.js";
import { Duration } from "../../src/value/types.js";

export const NS = 1_000_000_000n;
export const dur = (seconds: number): Duration => new Duration(BigInt(seconds) * NS);

export const lit = (value: import("../../src/value/types.js").Value): Expr => ({ kind: "Literal", value });
export const int = (n: number): Expr => lit(BigInt(n));
export const str = (s: string): Expr => lit(s);
export const param = (name: string): Expr => ({ kind: "Param", name });
export const table = (name: string): Expr => ({ kind: "Table", name });

/** `a.b.c` as an idiom of fields; `$x.a` starts from a param. */
export function idiom(path: string, ...more: IdiomPart[]): IdiomExpr {
  const [first, ...rest] = path.split(".");
  const parts: IdiomPart[] = [];
  if (first!.startsWith("$")) parts.push({ kind: "Start", value: param(first!.slice(1)) });
  else parts.push({ kind: "Field", name: first! });
  for (const r of rest) parts.push({ kind: "Field", name: r });
  return { kind: "Idiom", parts: [...parts, ...more] };
}

export const bin = (left: Expr, op: BinaryOp, right: Expr): Expr => ({ kind: "Binary", op, left, right });
export const call = (name: string, ...args: Expr[]): Expr => ({ kind: "Call", name, args });
export const sub = (inner: Statement | Expr): Expr => ({ kind: "Subquery", inner: isExpr(inner) ? { kind: "Expr", expr: inner } : inner });
export const block = (...statements: (Statement | Expr)[]): BlockExpr => ({
  kind: "Block",
  statements: statements.map((s) => (isExpr(s) ? { kind: "Expr", expr: s } : s)),
});
export const basic = (name: import("../../src/ast/nodes.js").BasicTypeName): TypeKind => ({ kind: "Basic", name });

const EXPR_KINDS = new Set([
  "Literal", "Array", "Object", "RecordId", "Param", "Table", "Idiom", "Binary", "Unary", "Cast", "Call", "Constant",
  "Subquery", "Block", "Mock", "Regex", "Closure",
]);
function isExpr(x: Statement | Expr): x is Expr {
  return EXPR_KINDS.has(x.kind);
}

export function select(what: string, more: Partial<SelectStatement> = {}): SelectStatement {
  return {
    kind: "Select",
    fields: { value: false, items: [{ kind: "All" }] },
    omit: undefined,
    only: false,
    what: [table(what)],
    with: undefined,
    cond: undefined,
    split: undefined,
    group: undefined,
    order: undefined,
    limit: undefined,
    start: undefined,
    fetch: undefined,
    version: undefined,
    timeout: undefined,
    parallel: false,
    explain: undefined,
    ...more,
  };
}

export const NONE_P: Permission = { kind: "None" };
export const FULL_P: Permission = { kind: "Full" };
export const where = (cond: Expr): Permission => ({ kind: "Where", cond });
export const allPerms = (p: Permission): Permissions => ({ select: p, create: p, update: p, delete: p });

const defineBase = { ifNotExists: false, overwrite: false, comment: undefined };

export function defineTable(name: string, more: Partial<DefineTableStatement> = {}): DefineTableStatement {
  return {
    kind: "DefineTable",
    ...defineBase,
    name,
    drop: false,
    schemafull: false,
    tableType: { kind: "Any" },
    view: undefined,
    permissions: allPerms(NONE_P),
    permissionsWritten: false,
    changefeed: undefined,
    ...more,
  };
}

export function defineField(name: IdiomExpr, tableName: string, more: Partial<DefineFieldStatement> = {}): DefineFieldStatement {
  return {
    kind: "DefineField",
    ...defineBase,
    name,
    table: tableName,
    flexible: false,
    type: undefined,
    readonly: false,
    value: undefined,
    assert: undefined,
    default: undefined,
    defaultAlways: false,
    permissions: allPerms(FULL_P),
    permissionsWritten: false,
    ...more,
  };
}

export function defineUser(name: string, more: Partial<DefineUserStatement> = {}): DefineUserStatement {
  return {
    kind: "DefineUser",
    ...defineBase,
    name,
    base: "DATABASE",
    password: undefined,
    passhash: undefined,
    roles: ["VIEWER"],
    duration: {},
    ...more,
  };
}

export function defineAccess(name: string, access: AccessType, more: Partial<DefineAccessStatement> = {}): DefineAccessStatement {
  return {
    kind: "DefineAccess",
    ...defineBase,
    name,
    base: "DATABASE",
    access,
    authenticate: undefined,
    duration: {},
    legacy: undefined,
    ...more,
  };
}

export const hsJwt = (key: string, alg: "HS256" | "HS384" | "HS512" = "HS512"): JwtConfig => ({
  verify: { kind: "Key", alg, key },
  issuer: undefined,
});

export const record = (more: Partial<Extract<AccessType, { kind: "Record" }>> = {}): AccessType => ({
  kind: "Record",
  signup: undefined,
  signin: undefined,
  jwt: undefined,
  refresh: false,
  ...more,
});
