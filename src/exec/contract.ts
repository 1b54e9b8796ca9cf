// The engine as the layers above it (iam/, server/, the embedded API) see it. exec/ implements it.

import type { Base, DefineAccessStatement, DefineUserStatement, Expr, JwtConfig, Statement } from "../ast/nodes.js";
import type { SurrealError } from "../errors/index.js";
import type { KvStore } from "../store/kv/types.js";
import type { RecordId, Value } from "../value/types.js";
import type { ExecuteOptions } from "./budget.js";
import type { Clock, Compat, Session } from "./session.js";

/** A system user as stored by DEFINE USER (PASSWORD already hashed into `def.passhash`). */
export interface StoredUser {
  readonly def: DefineUserStatement;
  /** Random 128-char alphanumeric secret: the HS512 key of this user's tokens; regenerated on every DEFINE. */
  readonly code: string;
}

/**
 * An access method as stored by DEFINE ACCESS, or by DEFINE SCOPE / DEFINE TOKEN (desugared; see `def.legacy`).
 * `jwt` is the resolved configuration: for RECORD / BEARER without an explicit JWT clause, and for 1.x scopes,
 * HS512 with a random 128-char key used both to verify and to issue (regenerated on every DEFINE).
 */
export interface StoredAccess {
  readonly def: DefineAccessStatement;
  readonly jwt: JwtConfig;
}

/** What a DEFINE / REMOVE of a user or access changed; iam/ drops cached tokens and keys for it. */
export interface DefinitionChange {
  readonly kind: "user" | "access";
  readonly base: Base;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly name: string;
}

/** Read access to auth definitions. `ns` / `db` are required for the levels that need them. */
export interface AuthCatalog {
  getUser(base: Base, ns: string | undefined, db: string | undefined, name: string): StoredUser | undefined;
  getAccess(base: Base, ns: string | undefined, db: string | undefined, name: string): StoredAccess | undefined;
  /** The user / access as committed, which sessions stand on: an open transaction's change counts once it commits. */
  committedDefinition(kind: "user" | "access", base: Base, ns: string | undefined, db: string | undefined, name: string): object | undefined;
}

/** When a record identity ended: the engine's deletion sequence number and the wall-clock instant (ms). */
export interface IdentityEnd {
  readonly seq: number;
  readonly ms: number;
}

/**
 * Lifetimes of record identities (stricter than SurrealDB): a record user is valid only while its record exists
 * and is the incarnation the token / session was issued for.
 */
export interface IdentityBook {
  /** Track deletions in `rid`'s table from now on; returns the sequence number a session established now carries. */
  watch(ns: string, db: string, rid: RecordId): number;
  /** Does the record exist (a boolean when known without a read)? */
  exists(ns: string, db: string, rid: RecordId): boolean | Promise<boolean>;
  /** The latest end of `rid` (its deletion, or the removal of its table / database / namespace), if any. */
  endedAt(ns: string, db: string, rid: RecordId): IdentityEnd | undefined;
}

/** One statement's outcome, as SurrealDB's `query` returns it. */
export type QueryResponse =
  | { readonly status: "OK"; readonly result: Value; readonly time: string }
  | { readonly status: "ERR"; readonly result: string; readonly time: string; readonly error: SurrealError };

export interface QueryEngine {
  readonly compat: Compat;
  readonly clock: Clock;
  readonly catalog: AuthCatalog;
  readonly identities: IdentityBook;
  /** The key-value store the engine keeps everything in; iam/ keeps sessions and refresh tokens there too (shared by nodes). */
  readonly storage?: KvStore;
  /** Run SurrealQL text (or parsed statements) on a session; one response per statement, as SurrealDB; `signal` cancels it. */
  execute(query: string | readonly Statement[], session: Session, vars?: Readonly<Record<string, Value>>, options?: ExecuteOptions): Promise<QueryResponse[]>;
  /**
   * Evaluate one expression (a SIGNUP / SIGNIN / AUTHENTICATE clause) on `session` with the credentials `vars`
   * bound; a credential never shadows a DEFINE PARAM, and the clause sees no connection params.
   * Throws the SurrealError the evaluation raised (THROW ⇒ ThrownError). `rollback`: its transaction is always
   * cancelled, so nothing it wrote (events included) survives.
   */
  evaluate(expr: Expr, session: Session, vars?: Readonly<Record<string, Value>>, options?: { readonly rollback?: boolean }): Promise<Value>;
  /**
   * Bring this node's definitions up to the store's catalog version (another node may have changed them), unless
   * they were checked less than `maxAgeMs` ago. Every transaction does this too; iam/ calls it before reading users
   * and access methods outside one.
   */
  syncCatalog(maxAgeMs?: number): Promise<void> | void;
  /** Cancel the running queries of sessions that were killed or whose identity, user or access ended (iam/sessions.ts kills). */
  endQueries(): void;
  /** Subscribe to DEFINE / REMOVE of users and accesses; returns an unsubscribe function. */
  onDefinitionChange(listener: (change: DefinitionChange) => void): () => void;
}
