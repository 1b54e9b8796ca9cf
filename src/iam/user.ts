// System users: credential signin (auth.md §3.3) and HTTP Basic (§3.6).

import type { Base } from "../ast/nodes.js";
import { InvalidAuth } from "../errors/index.js";
import type { StoredUser } from "../exec/contract.js";
import type { AdmitStoredHash } from "../exec/functions/crypto.js";
import type { Actor, Session } from "../exec/session.js";
import { claimsToValue } from "./claims.js";
import { definitionRef, getUser, levelOf, type IamContext } from "./context.js";
import { HOUR_NANOS, issueToken } from "./issue.js";
import { dummyVerify, verifyPassword } from "./password.js";
import { applyAuth, expiryAfter } from "./session.js";
import { equalTimeTimer, padFailure } from "./equal-time-floor.js";

interface FoundUser {
  readonly user: StoredUser;
  readonly base: Base;
}

/** Levels a credential check of `base` searches: v1 legacy (no auth-level) ROOT → NS → DB, first match wins; else `base`. */
export function credentialLevels(ctx: IamContext, base: Base): Base[] {
  if (ctx.compat !== 1 || ctx.authLevelEnabled) return [base];
  return base === "ROOT" ? ["ROOT"] : base === "NAMESPACE" ? ["ROOT", "NAMESPACE"] : ["ROOT", "NAMESPACE", "DATABASE"];
}

/** The level HTTP Basic checks from the ns / db it was given; undefined: a database without a namespace (v2). */
export function basicLevel(ctx: IamContext, where: { ns?: string | undefined; db?: string | undefined }): Base | undefined {
  const { ns, db } = where;
  const legacy = ctx.compat === 1 && !ctx.authLevelEnabled;
  if (legacy) return ns !== undefined && db !== undefined ? "DATABASE" : ns !== undefined ? "NAMESPACE" : "ROOT";
  if (db !== undefined && ns === undefined) return undefined;
  return db !== undefined ? "DATABASE" : ns !== undefined ? "NAMESPACE" : "ROOT";
}

const admitAll: AdmitStoredHash = () => Promise.resolve(true);

/**
 * Finds the user whose password verifies. A known user with a wrong password gets the same InvalidAuth as an
 * unknown one, after the same single verify and the same wait (stricter than SurrealDB's Basic, which tells them apart);
 * so does a user whose hash the throttle holds back (`admit`: locked or backing off), after a dummy verify.
 */
/** One credential check: the level asked for, where, the name and password, and the throttle's word on stored hashes. */
interface CredentialCheck {
  readonly base: Base;
  readonly ns: string | undefined;
  readonly db: string | undefined;
  readonly name: string;
  readonly pass: string;
  readonly admit: AdmitStoredHash;
}

async function checkCredentials(ctx: IamContext, check: CredentialCheck): Promise<FoundUser> {
  const start = equalTimeTimer.now();
  try {
    return await findCredentials(ctx, check);
  } catch (e) {
    // a failure answers no sooner than the engine's floor, whatever the stored hash's cost (E9)
    await padFailure(ctx.engine, ["argon2"], start);
    throw e;
  }
}

async function findCredentials(ctx: IamContext, { base, ns, db, name, pass, admit }: CredentialCheck): Promise<FoundUser> {
  const legacy = ctx.compat === 1 && !ctx.authLevelEnabled;
  const levels = credentialLevels(ctx, base);
  let tried = false;
  let verified = false;
  for (const level of levels) {
    const user = name === "" ? undefined : getUser(ctx, level, ns, db, name);
    if (!user) continue;
    tried = true;
    // a user without a password hash can never verify: nothing to guess, nothing to count
    if (user.def.passhash && !(await admit(user.def.passhash))) {
      if (legacy) continue;
      break;
    }
    verified = true;
    const check = await verifyPassword(user.def.passhash, pass);
    if (check.ok) return { user, base: level };
    if (!legacy) throw new InvalidAuth(`password did not verify for user '${name}' (${check.reason})`);
  }
  if (!verified) await dummyVerify(pass);
  throw new InvalidAuth(tried ? `password did not verify for user '${name}'` : `no ${base.toLowerCase()} user '${name}'`);
}

/** The actor of `user` at `level` (roles are the user's own, whatever level it was found on). */
function actorFor(user: StoredUser, level: Base, ns: string | undefined, db: string | undefined): Actor {
  return {
    level: levelOf(level),
    ns: level === "ROOT" ? undefined : ns,
    db: level === "DATABASE" ? db : undefined,
    id: user.def.name,
    roles: [...user.def.roles],
  };
}

/** v2 session expiry of a system user: `DURATION FOR SESSION` (none by default); v1: never. */
function userSessionExp(ctx: IamContext, user: StoredUser, nowMs: number): number | undefined {
  if (ctx.compat === 1) return undefined;
  const d = user.def.duration.session;
  return d ? expiryAfter(nowMs, d.nanos, ctx.compat) : undefined;
}

/** Credential signin of a ROOT / NS / DB user; writes the session and returns the token. */
export async function userSignin(
  ctx: IamContext,
  session: Session,
  base: Base,
  ns: string | undefined,
  db: string | undefined,
  name: string,
  pass: string,
  admit: AdmitStoredHash = admitAll,
): Promise<{ token: string }> {
  const found = await checkCredentials(ctx, { base, ns, db, name, pass, admit });
  const nowMs = ctx.clock.now();
  const durationNanos = ctx.compat === 1 ? ctx.v1TokenNanos : (found.user.def.duration.token?.nanos ?? HOUR_NANOS);
  const issued = await issueToken(
    {
      alg: "HS512",
      key: found.user.code,
      nowMs,
      durationNanos,
      ...(base !== "ROOT" ? { NS: ns } : {}),
      ...(base === "DATABASE" ? { DB: db } : {}),
      ID: name,
    },
    ctx.keys,
    ctx.compat,
  );
  applyAuth(session, {
    ns: base !== "ROOT" ? ns : undefined,
    db: base === "DATABASE" ? db : undefined,
    // The requested level, not the one the user was found on: v1 legacy signs a ROOT user in with NS+DB
    // as a database-level actor (SurrealDB 1.5.4 `signin::db` sets Level::Database whatever matched).
    actor: actorFor(found.user, base, ns, db),
    ac: undefined,
    rd: undefined,
    tk: claimsToValue(issued.claims),
    exp: userSessionExp(ctx, found.user, nowMs),
    definitions: [definitionRef("user", found.base, ns, db, name, found.user)],
  });
  return { token: issued.token };
}

/** HTTP Basic: level from the ns / db headers; no token, `$token` stays NONE. */
export async function basicAuth(
  ctx: IamContext,
  session: Session,
  name: string,
  pass: string,
  where: { ns?: string | undefined; db?: string | undefined },
  admit: AdmitStoredHash = admitAll,
): Promise<void> {
  const { ns, db } = where;
  const base = basicLevel(ctx, where);
  if (base === undefined) throw new InvalidAuth("Basic auth with a database but no namespace");
  const found = await checkCredentials(ctx, { base, ns, db, name, pass, admit });
  applyAuth(session, {
    ns: undefined,
    db: undefined,
    // Basic keeps the level the user was found on, as before (not checked against 1.5.4: the oracle has no HTTP layer)
    actor: actorFor(found.user, found.base, ns, db),
    ac: undefined,
    rd: undefined,
    tk: undefined,
    exp: userSessionExp(ctx, found.user, ctx.clock.now()),
    definitions: [definitionRef("user", found.base, ns, db, name, found.user)],
  });
}
