// Record identity lifetimes (stricter than SurrealDB; SECURITY.md): a record user's token or session is valid only
// while its record exists and is the incarnation it was issued for. The engine's IdentityBook remembers deletions.

import { InvalidAuth } from "../errors/index.js";
import type { IamContext } from "./context.js";
import type { SessionAuth } from "./session.js";

/** Starts watching the identity's table and returns the sequence number the session carries (undefined: no record). */
export function identitySince(ctx: IamContext, auth: SessionAuth): number | undefined {
  const { rd, actor } = auth;
  if (rd === undefined || actor.ns === undefined || actor.db === undefined) return undefined;
  return ctx.engine.identities.watch(actor.ns, actor.db, rd);
}

/**
 * A token's record must not have been deleted since the token was issued, and must exist now if this engine issued the
 * token (an outside issuer may name records that never existed, as SurrealDB allows). `iat` has whole seconds: a
 * deletion in the token's own second refuses it too (a re-registration within that second signs in again).
 */
export function assertTokenIdentity(ctx: IamContext, auth: SessionAuth, iat: number | undefined, issuedHere: boolean): Promise<void> | void {
  const { rd, actor } = auth;
  if (rd === undefined || actor.ns === undefined || actor.db === undefined) return;
  const { ns, db } = actor;
  const ended = () => {
    const end = ctx.engine.identities.endedAt(ns, db, rd);
    if (end !== undefined && (iat === undefined || Math.floor(end.ms / 1000) >= iat))
      throw new InvalidAuth("the token's record was deleted after the token was issued");
  };
  if (!issuedHere) return ended();
  // (a record seen lately is answered without a promise: a cached token's check costs no await)
  const exists = ctx.engine.identities.exists(ns, db, rd);
  if (exists === true) return ended();
  return Promise.resolve(exists).then((found) => {
    if (!found) throw new InvalidAuth("the token's record does not exist");
    ended();
  });
}
