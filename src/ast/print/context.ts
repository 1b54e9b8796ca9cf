// Printer settings shared by every print/* module: the SurrealDB version to imitate and secret redaction.
import type { JwtConfig } from "../nodes.js";

export interface PrintOptions {
  /** 1 = SurrealDB 1.5.x text, 2 = SurrealDB 2.x text (default). */
  readonly compat?: 1 | 2;
  /** Replace secrets by `[REDACTED]` as INFO FOR does (never in export). Default false. */
  readonly redact?: boolean;
  /**
   * The resolved JWT configuration of a DEFINE ACCESS whose AST has none (RECORD / BEARER without
   * `WITH JWT`, 1.x scopes): the engine passes `StoredAccess.jwt` so the generated key is printed.
   */
  readonly jwt?: JwtConfig;
}

/** Resolved options threaded through the printer. */
export interface Ctx {
  readonly compat: 1 | 2;
  readonly redact: boolean;
  readonly jwt: JwtConfig | undefined;
}

export function makeCtx(opts: PrintOptions | undefined): Ctx {
  return { compat: opts?.compat ?? 2, redact: opts?.redact ?? false, jwt: opts?.jwt };
}

/**
 * The context for nested statements (subqueries, blocks): redaction and a resolved JWT concern the
 * outermost definition only (a DEFINE ACCESS inside a function body prints its keys, as SurrealDB does).
 */
export function innerCtx(c: Ctx): Ctx {
  return c.jwt === undefined && !c.redact ? c : { ...c, jwt: undefined, redact: false };
}
