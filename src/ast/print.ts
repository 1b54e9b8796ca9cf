// AST → canonical SurrealQL text, exactly as SurrealDB's INFO FOR shows each definition (per version).
import type { DefineAccessStatement, DefineTableStatement, Expr, JwtConfig, Statement, TypeKind } from "./nodes.js";
import { makeCtx, type PrintOptions } from "./print/context.js";
import { defineAccess } from "./print/access.js";
import { expr, type } from "./print/expr.js";
import { printStmt } from "./print/statements.js";
import { tableKind } from "./print/define.js";

export type { PrintOptions } from "./print/context.js";
export { REDACTED, effectiveJwt, redactJwt } from "./print/access.js";
export { tableTypeOf } from "./print/define.js";

/**
 * One statement without a trailing `;`. DEFINE statements print as INFO FOR shows them; pass
 * `{ redact: true }` for INFO FOR and `{ jwt }` (the resolved `StoredAccess.jwt`) for access methods
 * whose AST carries no JWT clause. `IF NOT EXISTS` / `OVERWRITE` are printed when set: clear them
 * before printing a stored definition, as SurrealDB does.
 */
export function printStatement(stmt: Statement, opts?: PrintOptions): string {
  return printStmt(stmt, makeCtx(opts));
}

export function printExpr(e: Expr, opts?: PrintOptions): string {
  return expr(e, makeCtx(opts));
}

export function printType(t: TypeKind, opts?: PrintOptions): string {
  return type(t, makeCtx(opts));
}

/** A table's TYPE as SurrealDB prints it (`NORMAL`, `RELATION IN a OUT b ENFORCED`). */
export function printTableKind(t: DefineTableStatement["tableType"], opts?: PrintOptions): string {
  return tableKind(t, makeCtx(opts));
}

/** A stored access method with its resolved JWT (`StoredAccess.def`, `StoredAccess.jwt`). */
export function printAccess(def: DefineAccessStatement, jwt: JwtConfig | undefined, opts?: PrintOptions): string {
  return defineAccess(def, makeCtx({ ...opts, jwt }));
}
