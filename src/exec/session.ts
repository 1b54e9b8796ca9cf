// Session and actor: who is asking, where (ns/db), with which token and until when. Shared by exec/, iam/ and server/.

import type { Base, Role } from "../ast/nodes.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { AuthCatalog, IdentityBook } from "./contract.js";

/** 1 = SurrealDB 1.x behaviour (scopes, SC, $scope); 2 = SurrealDB 2.x (record access, AC, $access). */
export type Compat = 1 | 2;

/** Where an actor is defined. "Record" is a v2 record user, "Scope" a v1 scope user, "No" anonymous. */
export type AuthLevel = "No" | "Root" | "Namespace" | "Database" | "Scope" | "Record";

export interface Actor {
  readonly level: AuthLevel;
  /** Namespace / database of the actor's level (set for Namespace, Database, Scope, Record). */
  readonly ns: string | undefined;
  readonly db: string | undefined;
  /** User name, access/token name, or record id text for record users. Empty for anonymous. */
  readonly id: string;
  /** System-user roles (empty for record/scope users and anonymous). */
  readonly roles: readonly Role[];
}

export const ANONYMOUS: Actor = Object.freeze({ level: "No", ns: undefined, db: undefined, id: "", roles: [] });

/** Injectable time source, in milliseconds since the Unix epoch, so tests never sleep. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A stored definition a session stands on: the system user it signed in as, or the access method / scope / token it
 * signed in, signed up or authenticated with. `entry` is the stored object itself (a redefinition replaces it).
 */
export interface DefinitionRef {
  readonly kind: "user" | "access";
  readonly base: Base;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly name: string;
  readonly entry: object;
}

/** Is `ref`'s definition still the committed one (not removed, not redefined by a transaction that committed)? */
export function definitionCurrent(ref: DefinitionRef, catalog: AuthCatalog): boolean {
  return catalog.committedDefinition(ref.kind, ref.base, ref.ns, ref.db, ref.name) === ref.entry;
}

/**
 * Has a definition the session stands on been removed or redefined since the session began (stricter than SurrealDB)?
 * Sessions made by iam/ (signin, signup, authenticate, HTTP Basic) always name theirs; a session naming none was
 * built by code (the engine's clause sessions, the embedded API's owner session, tests) and depends on no definition.
 */
export function definitionEnded(session: Session, catalog: AuthCatalog): boolean {
  return session.definitions.some((ref) => !definitionCurrent(ref, catalog));
}

/**
 * Mutable per-connection session. One object is shared by the RPC connection (or HTTP request)
 * and every query it runs; iam/ replaces its auth fields on signin / signup / authenticate / invalidate.
 */
export interface Session {
  ns: string | undefined;
  db: string | undefined;
  actor: Actor;
  /** Access method (v2 `ac`) or scope (v1 `sc`) name of a record/scope user. */
  ac: string | undefined;
  /** Record user id (v2 `rd`, v1 `sd`). */
  rd: RecordId | undefined;
  /** Claims of the token that established the session (`$token`), as a SurrealQL object. */
  tk: ValueObject | undefined;
  /** Session expiry, Unix seconds; undefined = never expires. */
  exp: number | undefined;
  /** Record users: the engine's identity sequence number when `rd` was established (IdentityBook.watch). */
  since: number | undefined;
  /** The stored user / access method / scope / token the session stands on; it ends once one is removed or redefined. */
  definitions: readonly DefinitionRef[];
  /** Connection id (`$session.id`), client IP, Origin header. */
  id: string | undefined;
  ip: string | undefined;
  origin: string | undefined;
  /** Realtime connection (WebSocket). */
  rt: boolean;
  /** Connection parameters set by RPC `let` / `set`. */
  params: Map<string, Value>;
  /** Killed through the session registry (iam/sessions.ts): answers "The session has expired" until it signs in again. */
  killed: boolean;
}

export function newSession(init: Partial<Session> = {}): Session {
  return {
    ns: undefined,
    db: undefined,
    actor: ANONYMOUS,
    ac: undefined,
    rd: undefined,
    tk: undefined,
    exp: undefined,
    since: undefined,
    definitions: [],
    id: undefined,
    ip: undefined,
    origin: undefined,
    rt: false,
    params: new Map(),
    killed: false,
    ...init,
  };
}

/** True when the session was killed, or has an expiry and `now` (ms) is past it (SurrealDB compares whole seconds: now > exp). */
export function isExpired(session: Session, clock: Clock): boolean {
  return session.killed || (session.exp !== undefined && Math.floor(clock.now() / 1000) > session.exp);
}

/** A record user's session whose record was deleted (or its table removed) after the session began. */
export function identityEnded(session: Session, book: IdentityBook): boolean {
  const { rd, actor } = session;
  if (rd === undefined || actor.ns === undefined || actor.db === undefined) return false;
  const end = book.endedAt(actor.ns, actor.db, rd);
  return end !== undefined && (session.since === undefined || end.seq > session.since);
}
