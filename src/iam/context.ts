// What every iam/ operation needs: the engine, the compat version, the clock, settings, caches and the log.

import type { Base } from "../ast/nodes.js";
import type { QueryEngine, StoredAccess, StoredUser } from "../exec/contract.js";
import { newSession, type Actor, type Clock, type Compat, type DefinitionRef, type Session } from "../exec/session.js";
import type { Audit } from "./audit.js";
import type { JwksCache } from "./jwks.js";
import type { KeyStore } from "./keys.js";

/** Server-side log of authentication failures; never receives secrets. */
export interface IamLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: IamLogger = { debug: () => {} };

export interface IamContext {
  readonly engine: QueryEngine;
  readonly compat: Compat;
  readonly clock: Clock;
  /** v1 default token life (the seed: 24 h; SurrealDB 1.5.4 itself uses 1 h). */
  readonly v1TokenNanos: bigint;
  /** v1 `--auth-level-enabled`; false = legacy ROOT → NS → DB credential search. */
  readonly authLevelEnabled: boolean;
  /** SURREAL_INSECURE_FORWARD_*_ERRORS: show the real SIGNIN/SIGNUP clause error. */
  readonly forwardClauseErrors: boolean;
  readonly logger: IamLogger;
  readonly audit: Audit;
  readonly keys: KeyStore;
  readonly jwks: JwksCache;
}

/** A session's reference to a stored user or access, with only the ns / db its level has. */
export function definitionRef(kind: DefinitionRef["kind"], base: Base, ns: string | undefined, db: string | undefined, name: string, entry: object): DefinitionRef {
  return { kind, base, ns: base === "ROOT" ? undefined : ns, db: base === "DATABASE" ? db : undefined, name, entry };
}

export function getUser(ctx: IamContext, base: Base, ns: string | undefined, db: string | undefined, name: string): StoredUser | undefined {
  return ctx.engine.catalog.getUser(base, base === "ROOT" ? undefined : ns, base === "DATABASE" ? db : undefined, name);
}

export function getAccess(ctx: IamContext, base: Base, ns: string | undefined, db: string | undefined, name: string): StoredAccess | undefined {
  return ctx.engine.catalog.getAccess(base, base === "ROOT" ? undefined : ns, base === "DATABASE" ? db : undefined, name);
}

export function levelOf(base: Base): "Root" | "Namespace" | "Database" {
  return base === "ROOT" ? "Root" : base === "NAMESPACE" ? "Namespace" : "Database";
}

/**
 * The session SIGNUP / SIGNIN / AUTHENTICATE clauses run on: v1 ROOT Editor with ns/db selected,
 * v2 an Editor at the definition's level. Client ip / origin / id are copied.
 */
export function privilegedSession(ctx: IamContext, from: Session, base: Base, ns: string | undefined, db: string | undefined): Session {
  const actor: Actor =
    ctx.compat === 1
      ? { level: "Root", ns: undefined, db: undefined, id: "system_auth", roles: ["EDITOR"] }
      : {
          level: levelOf(base),
          ns: base === "ROOT" ? undefined : ns,
          db: base === "DATABASE" ? db : undefined,
          id: "system_auth",
          roles: ["EDITOR"],
        };
  return newSession({ ns, db, actor, id: from.id, ip: from.ip, origin: from.origin });
}
