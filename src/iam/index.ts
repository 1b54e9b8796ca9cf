// The public face of iam/: one `Iam` per datastore, called by server/ (RPC, HTTP) and the embedded API.

import { CodedError, InvalidAuth } from "../errors/index.js";
import { MemoryStore } from "../store/kv/memory.js";
import type { KvStore } from "../store/kv/types.js";
import type { QueryEngine } from "../exec/contract.js";
import type { Clock, Compat, Session } from "../exec/session.js";
import { Duration, type RecordId, type Value, type ValueObject } from "../value/types.js";
import { Audit, attemptedIdentity, claimedIdentity, credentialSecrets, silentAudit, type AuditEventKind, type AuditIdentity } from "./audit.js";
import { Authenticator } from "./authenticate.js";
import { silentLogger, type IamContext, type IamLogger } from "./context.js";
import { DAY_NANOS } from "./issue.js";
import { JwksCache } from "./jwks.js";
import { KeyStore } from "./keys.js";
import * as sessionOps from "./session.js";
import { RefreshBook, refreshGrant } from "./refresh.js";
import { SessionRegistry } from "./sessions.js";
import { signin } from "./signin.js";
import { issueRecordToken, loadRecordAccess } from "./record.js";
import { signup } from "./signup.js";
import { Throttle, TooManyAttempts } from "./throttle.js";
import { basicBuckets, signinBuckets, signupBuckets, tokenBuckets } from "./throttle-keys.js";
import type { ThrottleLimits } from "./throttle-limits.js";
import { basicAuth } from "./user.js";

export interface IamOptions {
  /** Defaults to the engine's compat. */
  readonly compat?: Compat;
  /** Defaults to the engine's clock. */
  readonly clock?: Clock;
  /** v1 default token life: a Duration or seconds; default 24 h (the seed; SurrealDB 1.5.4 uses 1 h). */
  readonly v1TokenDuration?: Duration | number;
  /** v1 `--auth-level-enabled` (default false: ROOT → NS → DB credential search). */
  readonly authLevelEnabled?: boolean;
  /** SURREAL_INSECURE_FORWARD_SCOPE_ERRORS / _ACCESS_ERRORS (default false). */
  readonly forwardClauseErrors?: boolean;
  readonly logger?: IamLogger;
  /** Where signin / signup / authenticate / invalidate events go (audit.ts); default nowhere. */
  readonly audit?: Audit;
  /** For JWKS; tests pass their own. */
  readonly fetch?: typeof fetch;
  /** Outbound-network capability for JWKS URLs (default: any http(s) URL). */
  readonly allowJwksUrl?: (url: URL) => boolean;
  /** Where sessions and refresh tokens are registered (default: the engine's store, so nodes sharing it see each other). */
  readonly storage?: KvStore;
  /** This node's name in the session registry (default: a random uuid). */
  readonly node?: string;
  /** How often the session registry syncs with the store (default 1000 ms; 0: only when asked). */
  readonly sessionSyncMs?: number;
  /** How long a rotated refresh token still answers with the pair its rotation issued (default 5000 ms). */
  readonly refreshGraceMs?: number;
  /** Throttling and lockout of signin, signup, Basic and authenticate (defaults on; `{ enabled: false }` turns it off). */
  readonly throttle?: Partial<ThrottleLimits>;
  /** The store nodes share, where the throttle's counts live so every node sees them (none: this process only). */
  readonly throttleStore?: KvStore;
}

export interface SigninResult {
  readonly token: string;
  readonly refresh?: string;
}

/** How old this node's view of users and access methods may be when a token is authenticated. */
const CATALOG_STALENESS_MS = 1000;

export class Iam {
  private readonly ctx: IamContext;
  private readonly authenticator: Authenticator;
  private readonly unsubscribe: () => void;
  /** Every authenticated realtime session (WebSocket, embedded connection): list and kill (sessions.ts). */
  readonly sessions: SessionRegistry;
  /** Refresh-token families of record accesses WITH REFRESH (refresh.ts). */
  private readonly refreshBook: RefreshBook;
  readonly throttle: Throttle;

  constructor(readonly engine: QueryEngine, opts: IamOptions = {}) {
    const clock = opts.clock ?? engine.clock;
    const v1 = opts.v1TokenDuration;
    this.ctx = {
      engine,
      compat: opts.compat ?? engine.compat,
      clock,
      v1TokenNanos: v1 === undefined ? DAY_NANOS : v1 instanceof Duration ? v1.nanos : BigInt(Math.floor(v1)) * 1_000_000_000n,
      authLevelEnabled: opts.authLevelEnabled ?? false,
      forwardClauseErrors: opts.forwardClauseErrors ?? false,
      logger: opts.logger ?? silentLogger,
      audit: opts.audit ?? silentAudit,
      keys: new KeyStore(),
      jwks: new JwksCache({
        clock,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        ...(opts.allowJwksUrl ? { allowUrl: opts.allowJwksUrl } : {}),
      }),
    };
    this.authenticator = new Authenticator(this.ctx);
    const store = opts.storage ?? engine.storage ?? new MemoryStore();
    this.sessions = new SessionRegistry(engine, store, {
      ...(opts.node !== undefined ? { node: opts.node } : {}),
      ...(opts.sessionSyncMs !== undefined ? { syncMs: opts.sessionSyncMs } : {}),
      logger: this.ctx.logger,
      audit: this.ctx.audit,
    });
    this.refreshBook = new RefreshBook(this.ctx, store, this.sessions, (session, token) => this.authenticator.authenticate(session, token), opts.refreshGraceMs);
    this.sessions.attachFamilies(this.refreshBook);
    this.throttle = new Throttle({ limits: opts.throttle, clock, store: opts.throttleStore, logger: this.ctx.logger });
    this.unsubscribe = engine.onDefinitionChange((change) => {
      this.authenticator.definitionChanged(change);
      if (change.kind === "access") this.ctx.jwks.clear();
    });
  }

  get compat(): Compat {
    return this.ctx.compat;
  }

  /** RPC / HTTP signin (auth.md §3.2); returns the token, and writes the session. */
  async signin(session: Session, vars: ValueObject): Promise<SigninResult> {
    const audited = { attempt: attemptedIdentity(vars, this.compat), secrets: credentialSecrets(vars) };
    // NS, DB, AC of an access WITH REFRESH and a `refresh` variable: the refresh grant (refresh.ts)
    await this.engine.syncCatalog();
    const grant = refreshGrant(this.ctx, vars);
    if (grant) return this.paired(session, this.logged("refresh", session, () => this.throttle.guard(tokenBuckets(session), () => this.refreshBook.exchange(session, grant.token, grant)), audited));
    return this.paired(session, this.logged("signin", session, () => this.throttle.guard(signinBuckets(this.ctx, session, vars), async (gate) => this.refreshBook.started(session, await signin(this.ctx, session, vars, gate))), audited));
  }

  /** RPC / HTTP signup of a scope (v1) or record (v2) user. */
  signup(session: Session, vars: ValueObject): Promise<SigninResult> {
    const audited = { attempt: attemptedIdentity(vars, this.compat), secrets: credentialSecrets(vars) };
    return this.paired(session, this.logged("signup", session, () => this.throttle.guard(signupBuckets(session), async () => this.refreshBook.started(session, await signup(this.ctx, session, vars))), audited));
  }

  /**
   * A record user's session for `rid` through the record access (v1 scope) `ac`, as a token of that access naming the
   * record gives (AUTHENTICATE runs; no SIGNIN): the rule test runner's `record ACCESS as ID` identity.
   */
  async bindRecord(session: Session, ns: string, db: string, ac: string, rid: RecordId): Promise<string> {
    await this.engine.syncCatalog();
    const stored = loadRecordAccess(this.ctx, ns, db, ac, "signin", {});
    return (await this.registered(session, issueRecordToken(this.ctx, session, stored, ns, db, ac, rid))).token;
  }

  /** RPC refresh (compat 2): a refresh token for a new pair, written into the session (refresh.ts). */
  refresh(session: Session, token: string): Promise<SigninResult> {
    return this.paired(session, this.logged("refresh", session, () => this.throttle.guard(tokenBuckets(session), () => this.refreshBook.exchange(session, token)), { secrets: [token] }));
  }

  /** RPC revoke (compat 2): the refresh token's family ends, with its access tokens and sessions. */
  revoke(session: Session, token: string): Promise<void> {
    return this.logged("revoke", session, () => this.refreshBook.revoke(token), { secrets: [token] });
  }

  /** RPC authenticate / HTTP Bearer; a failure leaves the session as it was. A token whose session was killed is refused. */
  authenticate(session: Session, token: string, via = "rpc"): Promise<void> {
    // a token may be checked against definitions up to a second old (issue #10: bounded staleness, no notifications)
    const run = () => this.authenticator.authenticate(session, token, this.sessions);
    // the claimed identity is decoded only for a failure's event
    const audited = { maxAgeMs: CATALOG_STALENESS_MS, attempt: () => claimedIdentity(token, this.compat), secrets: [token], via };
    return this.registered(session, this.logged("authenticate", session, () => this.throttle.guard(tokenBuckets(session), run), audited));
  }

  /** HTTP Basic (§3.6); `ns` / `db` from surreal-auth-ns / surreal-auth-db (v1 legacy: surreal-ns / surreal-db). */
  basicAuth(session: Session, user: string, pass: string, where: { ns?: string; db?: string } = {}): Promise<void> {
    const level = where.db !== undefined ? "database" : where.ns !== undefined ? "namespace" : "root";
    const attempt = { identity: level, user, record: null, access: null, ns: where.ns ?? null, db: where.db ?? null };
    return this.registered(session, this.logged("signin", session, () => this.throttle.guard(basicBuckets(this.ctx, session, user, where), (gate) => basicAuth(this.ctx, session, user, pass, where, gate.admit)), { attempt, secrets: [pass], via: "basic" }));
  }

  /** RPC invalidate: anonymous; ns, db, exp and params kept. */
  async invalidate(session: Session): Promise<void> {
    this.ctx.audit.emit({ event: "invalidate", outcome: "success", reason: "ok", session });
    sessionOps.invalidate(session);
    this.sessions.deregister(session);
  }

  /** RPC reset (v2): invalidate and forget ns, db and params (live queries are the server's to kill). */
  async reset(session: Session): Promise<void> {
    this.ctx.audit.emit({ event: "invalidate", outcome: "success", reason: "ok", session, via: "reset" });
    sessionOps.reset(session);
    this.sessions.deregister(session);
  }

  /** The session made a call (its last-seen time in the registry). */
  seen(session: Session): void {
    this.sessions.seen(session);
  }

  /** The session's connection closed: it leaves the registry. */
  closed(session: Session): Promise<void> {
    this.sessions.deregister(session);
    return Promise.resolve();
  }

  /** RPC info: `SELECT * FROM $auth`, first row (NONE for system users). */
  async info(session: Session): Promise<Value> {
    sessionOps.assertNotExpired(session, this.ctx.clock);
    const [res] = await this.engine.execute("SELECT * FROM $auth", session);
    if (!res) return undefined;
    if (res.status === "ERR") throw res.error;
    return Array.isArray(res.result) ? res.result[0] : res.result;
  }

  /** Stops listening to definition changes and syncing the session registry. */
  close(): void {
    this.unsubscribe();
    this.sessions.close();
  }

  /** How many verified tokens are cached (for tests and metrics). */
  get cachedTokens(): number {
    return this.authenticator.cachedTokens;
  }

  /** As `registered`, for results that may carry a refresh family (the registry links the session to it). */
  private async paired(session: Session, auth: Promise<{ token: string; refresh?: string; family?: string }>): Promise<SigninResult> {
    const { token, refresh, family } = await auth;
    if (session.rt) this.sessions.register(session, family === undefined ? {} : { family });
    return refresh === undefined ? { token } : { token, refresh };
  }

  /** Realtime sessions (WebSocket, embedded) are registered once authenticated; HTTP requests are one-shot and are not. */
  private async registered<T>(session: Session, auth: Promise<T>): Promise<T> {
    const result = await auth;
    if (session.rt) this.sessions.register(session);
    return result;
  }

  /**
   * Runs `op` on users and access methods at most `maxAgeMs` behind the store, and audits it: on success the session's
   * new identity; on failure the identity attempted, the error's code and (InvalidAuth) its log-only reason.
   */
  private async logged<T>(event: AuditEventKind, session: Session, run: () => Promise<T>, opts: LoggedOptions = {}): Promise<T> {
    const { audit } = this.ctx;
    try {
      const synced = this.engine.syncCatalog(opts.maxAgeMs ?? 0);
      if (synced) await synced;
      const out = await run();
      audit.emit({ event, outcome: "success", reason: "ok", session, via: opts.via });
      return out;
    } catch (e) {
      const reason = e instanceof CodedError ? e.code : "Internal";
      const detail = e instanceof InvalidAuth ? e.reason : e instanceof Error ? e.message : String(e);
      // a throttled attempt is its own event, naming the operation refused and the wait
      const extra = e instanceof TooManyAttempts ? { operation: event, retry_after: e.retryAfterSeconds } : undefined;
      const attempt = typeof opts.attempt === "function" ? opts.attempt() : opts.attempt;
      audit.emit({ event: extra ? "throttled" : event, outcome: "failure", reason, detail, session, attempt, secrets: opts.secrets, via: opts.via, extra });
      throw e;
    }
  }
}

interface LoggedOptions {
  readonly maxAgeMs?: number;
  /** Who the credentials or token name; used for a failure (the session keeps its former identity then). */
  readonly attempt?: Partial<AuditIdentity> | (() => Partial<AuditIdentity>);
  /** Values to keep out of the logged reason. */
  readonly secrets?: readonly string[];
  readonly via?: string;
}

export const assertNotExpired = sessionOps.assertNotExpired;
export { applyAuth, expiryAfter, type SessionAuth } from "./session.js";
export type { IamLogger } from "./context.js";
export { hashPassword, verifyPassword } from "./password.js";
export { CLAIM_ALIASES, readClaims, claimsToValue, type Claims } from "./claims.js";
