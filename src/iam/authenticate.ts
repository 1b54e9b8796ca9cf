// Token authentication (auth.md §3.5): pick the path by the claims present, verify, then write the session.
// Verified tokens are cached (until their exp, or until a definition they depend on changes).

import { LRUCache } from "lru-cache";
import type { Base, Expr, JwtVerify } from "../ast/nodes.js";
import { AuthError, InvalidAuth, ThrownError } from "../errors/index.js";
import type { DefinitionChange, StoredAccess, StoredUser } from "../exec/contract.js";
import { definitionCurrent, type DefinitionRef, type Session } from "../exec/session.js";
import type { RecordId, ValueObject } from "../value/types.js";
import { tokenValue, type Claims } from "./claims.js";
import { definitionRef, getAccess, getUser, levelOf, privilegedSession, type IamContext } from "./context.js";
import { accessMethodMismatch, notFound } from "./errors.js";
import { assertTokenIdentity, identitySince } from "./identity.js";
import { authenticateRecord } from "./record.js";
import { parseRecordIdClaim, recordIdText } from "./recordid.js";
import { rolesFromClaim } from "./roles.js";
import { applyAuth, expiryAfter, type SessionAuth } from "./session.js";
import { codeVerify, decodeToken, precheckTimes, verifySignature } from "./verify.js";

/** A token's path resolved against the catalog: what to verify with and how to build the session. */
interface Resolved {
  /** Definitions this verification depends on; the session stands on them too (definitionEnded). */
  readonly defs: readonly DefinitionRef[];
  readonly verify: JwtVerify;
  /** Tokens of this path are the engine's own (signin / signup): the record they name must exist. */
  readonly issuedHere?: boolean;
  /** Session fields (runs AUTHENTICATE, computes exp); `from` is the session being authenticated. */
  readonly finish: (from: Session, nowMs: number) => SessionAuth | Promise<SessionAuth>;
}

interface CacheEntry {
  readonly claims: Claims;
  readonly resolved: Resolved;
}

export function defKey(d: DefinitionChange): string {
  return [d.kind, d.base, d.base === "ROOT" ? "" : (d.ns ?? ""), d.base === "DATABASE" ? (d.db ?? "") : "", d.name].join("\0");
}

/** What refuses a verified token before it reaches the session: one killed, or its identity's (sessions.ts). */
export interface TokenGuard {
  /** Throws InvalidAuth for a token refused (its claims verified, cached or not). */
  assertUsable(claims: Claims): Promise<void> | void;
  /** Throws InvalidAuth for a token refused for the identity it resolved to (after assertUsable). */
  assertIdentity(claims: Claims, auth: SessionAuth): void;
}

export class Authenticator {
  /** Made at first use (its arrays for 10,000 tokens cost every engine open otherwise). */
  private lru: LRUCache<string, CacheEntry> | undefined;

  /** Entries die at their token's exp, measured on the injected clock. */
  constructor(private readonly ctx: IamContext) {}

  private get cache(): LRUCache<string, CacheEntry> {
    return (this.lru ??= new LRUCache<string, CacheEntry>({ max: 10_000, ttlResolution: 0, perf: { now: () => this.ctx.clock.now() } }));
  }

  /**
   * Verifies `token` and, only if everything passes (`guard` too), replaces the session's auth fields. A cached token
   * whose checks need no read runs without an await (issue #10: cached authenticate in a few µs).
   */
  async authenticate(session: Session, token: string, guard?: TokenGuard): Promise<void> {
    const { ctx } = this;
    const nowMs = ctx.clock.now();
    const entry = this.cached(token, nowMs) ?? (await this.verify(token, nowMs));
    const usable = guard?.assertUsable(entry.claims);
    if (usable) await usable;
    const finished = entry.resolved.finish(session, nowMs);
    const auth = finished instanceof Promise ? await finished : finished;
    // checked on every use, cached or not, so a cached token dies with its record
    const identity = assertTokenIdentity(ctx, auth, entry.claims.iat, entry.resolved.issuedHere ?? false);
    if (identity) await identity;
    guard?.assertIdentity(entry.claims, auth);
    applyAuth(session, auth, identitySince(ctx, auth));
  }

  /** The cached entry of a token still current (its definitions unchanged, its times valid); undefined: verify it. */
  private cached(token: string, nowMs: number): CacheEntry | undefined {
    const { ctx } = this;
    const entry = this.cache.get(token);
    if (entry === undefined) return undefined;
    if (!entry.resolved.defs.every((d) => definitionCurrent(d, ctx.engine.catalog))) {
      this.cache.delete(token);
      return undefined;
    }
    try {
      precheckTimes(entry.claims, Math.floor(nowMs / 1000), ctx.compat);
      return entry;
    } catch (e) {
      this.cache.delete(token);
      throw generic(e);
    }
  }

  /**
   * The token's claims and path once its signature verifies (then cached). Until then every failure (malformed, expired,
   * unknown namespace / database / access / scope / token / user, wrong kind, bad signature) is the one generic
   * InvalidAuth, its detail only in the log: an unsigned token must not tell which names exist (stricter than SurrealDB).
   */
  private async verify(token: string, nowMs: number): Promise<CacheEntry> {
    const { ctx } = this;
    try {
      const decoded = decodeToken(token, ctx.compat);
      precheckTimes(decoded.claims, Math.floor(nowMs / 1000), ctx.compat);
      const resolved = resolvePath(ctx, decoded.claims);
      await verifySignature(token, decoded.header, resolved.verify, ctx);
      const entry = { claims: decoded.claims, resolved };
      // stale exactly when floor(now / 1000) > exp
      this.cache.set(token, entry, { ttl: Math.max(1, (decoded.claims.exp! + 1) * 1000 - nowMs - 1) });
      return entry;
    } catch (e) {
      this.cache.delete(token);
      throw generic(e);
    }
  }

  /** Drops cached tokens that depend on a redefined or removed user / access. */
  definitionChanged(change: DefinitionChange): void {
    const key = defKey(change);
    if (this.lru === undefined) return;
    for (const [token, entry] of this.lru.entries()) if (entry.resolved.defs.some((d) => defKey(d) === key)) this.cache.delete(token);
  }

  get cachedTokens(): number {
    this.cache.purgeStale();
    return this.cache.size;
  }
}

/** Every failure before the signature verifies is the generic InvalidAuth (an expired token says so). */
function generic(e: unknown): unknown {
  return e instanceof InvalidAuth || (e instanceof AuthError && e.code === "ExpiredToken") ? e : new InvalidAuth(e instanceof Error ? e.message : String(e));
}

/** First matching row of the v1 / v2 path table. */
export function resolvePath(ctx: IamContext, c: Claims): Resolved {
  return ctx.compat === 1 ? resolveV1(ctx, c) : resolveV2(ctx, c);
}

function resolveV1(ctx: IamContext, c: Claims): Resolved {
  const { NS: ns, DB: db, SC: sc, TK: tk, ID: id } = c;
  if (ns !== undefined && db !== undefined && sc !== undefined && tk !== undefined) {
    const scope = v1Scope(ctx, ns, db, sc);
    const token = getAccess(ctx, "DATABASE", ns, db, tk);
    const legacy = token?.def.legacy;
    if (!token || legacy?.kind !== "Token" || legacy.on !== "SCOPE" || legacy.scope !== sc) throw notFound.scopeToken(tk);
    const defs = [definitionRef("access", "DATABASE", ns, db, sc, scope), definitionRef("access", "DATABASE", ns, db, tk, token)];
    return {
      defs,
      verify: token.jwt.verify,
      finish: () => {
        const rid = id === undefined ? undefined : parseRecordIdClaim(id);
        return scopeSession(c, ns, db, sc, tk, rid, defs);
      },
    };
  }
  if (ns !== undefined && db !== undefined && sc !== undefined && id !== undefined) {
    const rid = parseRecordIdClaim(id);
    const scope = v1Scope(ctx, ns, db, sc);
    const defs = [definitionRef("access", "DATABASE", ns, db, sc, scope)];
    return {
      defs,
      verify: scope.jwt.verify,
      issuedHere: true,
      finish: () => scopeSession(c, ns, db, sc, recordIdText(rid, ctx.compat), rid, defs),
    };
  }
  if (ns !== undefined && db !== undefined && tk !== undefined) return v1TokenPath(ctx, c, "DATABASE", ns, db, tk);
  if (ns !== undefined && db !== undefined && id !== undefined) return userPath(ctx, c, "DATABASE", ns, db, id);
  if (ns !== undefined && tk !== undefined) return v1TokenPath(ctx, c, "NAMESPACE", ns, undefined, tk);
  if (ns !== undefined && id !== undefined) return userPath(ctx, c, "NAMESPACE", ns, undefined, id);
  if (id !== undefined) return userPath(ctx, c, "ROOT", undefined, undefined, id);
  throw new InvalidAuth("token claims match no authentication path");
}

function resolveV2(ctx: IamContext, c: Claims): Resolved {
  const { NS: ns, DB: db, AC: ac, ID: id } = c;
  if (ns !== undefined && db !== undefined && ac !== undefined) {
    // the ID claim is parsed before the access is looked up (as SurrealDB 2.6.0 does)
    const claimed = id === undefined ? undefined : parseRecordIdClaim(id);
    const access = getAccess(ctx, "DATABASE", ns, db, ac);
    if (!access) throw notFound.dbAccess(ac, db);
    const defs = [definitionRef("access", "DATABASE", ns, db, ac, access)];
    const kind = access.def.access.kind;
    if (id !== undefined || kind === "Record") {
      if (kind !== "Record") throw accessMethodMismatch();
      const authenticate = access.def.authenticate;
      if (id === undefined && !authenticate) throw accessMethodMismatch();
      return {
        defs,
        verify: access.jwt.verify,
        // without a JWT clause the access signs with its own generated key
        issuedHere: !access.def.access.jwt,
        finish: (from, nowMs) => {
          const tkValue = tokenValue(c);
          const record = (rid: RecordId | undefined): SessionAuth => {
            if (!rid) throw new InvalidAuth("no record identity");
            return {
              ns,
              db,
              actor: { level: "Record", ns, db, id: recordIdText(rid, ctx.compat), roles: [] },
              ac,
              rd: rid,
              tk: tkValue,
              exp: v2AccessExp(ctx, access, nowMs),
              definitions: defs,
            };
          };
          return authenticate ? authenticateRecord(ctx, authenticate, from, ns, db, claimed, tkValue).then(record) : record(claimed);
        },
      };
    }
    return v2AccessPath(ctx, c, "DATABASE", ns, db, ac, access);
  }
  if (ns !== undefined && db !== undefined && id !== undefined) return userPath(ctx, c, "DATABASE", ns, db, id);
  if (ns !== undefined && ac !== undefined) {
    const access = getAccess(ctx, "NAMESPACE", ns, undefined, ac);
    if (!access) throw notFound.nsAccess(ac, ns);
    return v2AccessPath(ctx, c, "NAMESPACE", ns, undefined, ac, access);
  }
  if (ns !== undefined && id !== undefined) return userPath(ctx, c, "NAMESPACE", ns, undefined, id);
  if (ac !== undefined) {
    const access = getAccess(ctx, "ROOT", undefined, undefined, ac);
    if (!access) throw notFound.rootAccess(ac);
    return v2AccessPath(ctx, c, "ROOT", undefined, undefined, ac, access);
  }
  if (id !== undefined) return userPath(ctx, c, "ROOT", undefined, undefined, id);
  throw new InvalidAuth("token claims match no authentication path");
}

/** v1 scope named by a token (a DATABASE record access that is a scope, not a scope token). */
function v1Scope(ctx: IamContext, ns: string, db: string, sc: string): StoredAccess {
  const scope = getAccess(ctx, "DATABASE", ns, db, sc);
  const legacy = scope?.def.legacy;
  if (!scope || scope.def.access.kind !== "Record" || (legacy !== undefined && legacy.kind !== "Scope")) throw notFound.scope(sc);
  return scope;
}

function scopeSession(
  c: Claims,
  ns: string,
  db: string,
  sc: string,
  actorId: string,
  rid: RecordId | undefined,
  definitions: readonly DefinitionRef[],
): SessionAuth {
  return {
    ns,
    db,
    actor: { level: "Scope", ns, db, id: actorId, roles: [] },
    ac: sc,
    rd: rid,
    tk: tokenValue(c),
    exp: c.exp,
    definitions,
  };
}

/** v1 DEFINE TOKEN ON NAMESPACE / DATABASE: an actor named after the token, roles from RL. */
function v1TokenPath(ctx: IamContext, c: Claims, base: Base, ns: string, db: string | undefined, tk: string): Resolved {
  const token = getAccess(ctx, base, ns, db, tk);
  const legacy = token?.def.legacy;
  if (!token || token.def.access.kind !== "Jwt" || (legacy !== undefined && (legacy.kind !== "Token" || legacy.on === "SCOPE")))
    throw base === "DATABASE" ? notFound.databaseToken(tk) : notFound.namespaceToken(tk);
  const defs = [definitionRef("access", base, ns, db, tk, token)];
  return {
    defs,
    verify: token.jwt.verify,
    finish: () => ({
      ns,
      db,
      actor: { level: levelOf(base), ns, db, id: tk, roles: rolesFromClaim(c.RL) },
      ac: undefined,
      rd: undefined,
      tk: tokenValue(c),
      exp: c.exp,
      definitions: defs,
    }),
  };
}

/** v2 JWT / BEARER access at any level: a "system" actor named after the access, roles from RL, AUTHENTICATE must be NONE. */
function v2AccessPath(
  ctx: IamContext,
  c: Claims,
  base: Base,
  ns: string | undefined,
  db: string | undefined,
  ac: string,
  access: StoredAccess,
): Resolved {
  if (access.def.access.kind === "Record") throw accessMethodMismatch();
  const defs = [definitionRef("access", base, ns, db, ac, access)];
  return {
    defs,
    verify: access.jwt.verify,
    finish: async (from, nowMs) => {
      const roles = rolesFromClaim(c.RL);
      const tkValue = tokenValue(c);
      if (access.def.authenticate) await authenticateSystem(ctx, access.def.authenticate, from, base, ns, db, tkValue);
      return {
        ns,
        db,
        actor: { level: levelOf(base), ns, db, id: ac, roles },
        ac,
        rd: undefined,
        tk: tkValue,
        exp: v2AccessExp(ctx, access, nowMs),
        definitions: defs,
      };
    },
  };
}

/** v2 AUTHENTICATE of a JWT / BEARER access: must yield NONE; THROW passes through. */
async function authenticateSystem(
  ctx: IamContext,
  expr: Expr,
  from: Session,
  base: Base,
  ns: string | undefined,
  db: string | undefined,
  tk: ValueObject,
): Promise<void> {
  const sess = privilegedSession(ctx, from, base, ns, db);
  sess.tk = tk;
  let out;
  try {
    out = await ctx.engine.evaluate(expr, sess);
  } catch (e) {
    if (e instanceof ThrownError) throw e;
    throw new InvalidAuth(`AUTHENTICATE clause failed: ${(e as Error).message}`);
  }
  if (out !== undefined) throw new InvalidAuth("AUTHENTICATE clause of a JWT access returned a value");
}

/** System user named by the token's ID claim, verified with the user's HS512 code. */
function userPath(ctx: IamContext, c: Claims, base: Base, ns: string | undefined, db: string | undefined, id: string): Resolved {
  const user: StoredUser | undefined = getUser(ctx, base, ns, db, id);
  if (!user) throw new InvalidAuth(`token names an unknown ${base.toLowerCase()} user`);
  const defs = [definitionRef("user", base, ns, db, id, user)];
  return {
    defs,
    verify: codeVerify(user.code),
    finish: (_from, nowMs) => {
      const session = user.def.duration.session;
      return {
        ns,
        db,
        actor: { level: levelOf(base), ns, db, id, roles: [...user.def.roles] },
        ac: undefined,
        rd: undefined,
        tk: tokenValue(c),
        exp: ctx.compat === 1 ? c.exp : session ? expiryAfter(nowMs, session.nanos, ctx.compat) : undefined,
        definitions: defs,
      };
    },
  };
}

function v2AccessExp(ctx: IamContext, access: StoredAccess, nowMs: number): number | undefined {
  const d = access.def.duration.session;
  return d ? expiryAfter(nowMs, d.nanos, ctx.compat) : undefined;
}
