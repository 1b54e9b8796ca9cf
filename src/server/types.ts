// The two services the network layer drives (engine and IAM) and its configuration; real implementations plug in here.

import type { QueryEngine } from "../exec/contract.js";
import { silentAudit, type Audit } from "../iam/audit.js";
import { unboundedText } from "../exec/query-text.js";
import type { Compat, Session } from "../exec/session.js";
import type { SessionRegistry } from "../iam/sessions.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";

export type { QueryEngine } from "../exec/contract.js";

/** The engine as the server needs it: SurrealQL execution on a session (see exec/contract.ts). */
export type ServerEngine = Pick<QueryEngine, "compat" | "clock" | "execute"> & {
  /** SurrealQL dump of the session's ns/db for GET /export, as the session may have it (the engine decides who may, and throws); without it /export answers 501. */
  exportSql?(session: Session): Promise<string>;
};

/** What signin / signup yield: a bare token, or the v2 pair of access token and optional refresh token. */
export type SigninResult = string | { readonly token?: string | undefined; readonly refresh?: string | null | undefined } | undefined;

/**
 * The auth service (iam/ `Iam`). Every method mutates `session` in place on success and throws a
 * SurrealError (InvalidAuth for the generic failure) leaving it untouched on failure.
 */
export interface AuthService {
  signin(session: Session, vars: ValueObject): Promise<SigninResult>;
  signup(session: Session, vars: ValueObject): Promise<SigninResult>;
  /** `via`: how the token came (rpc, bearer), for the audit event. */
  authenticate(session: Session, token: string, via?: string): Promise<unknown>;
  invalidate(session: Session): unknown;
  reset(session: Session): unknown;
  /** The record user's record (`SELECT * FROM $auth`, first row) or NONE. */
  info(session: Session): Promise<Value>;
  /** HTTP Basic: `ns` / `db` are the `surreal-auth-ns` / `surreal-auth-db` headers (auth level), if given. */
  basicAuth(session: Session, user: string, pass: string, level: { ns: string | undefined; db: string | undefined }): Promise<unknown>;
  /** The session registry (list and kill; GET /sessions); without it the admin routes answer 501. */
  readonly sessions?: Pick<SessionRegistry, "list" | "kill">;
  /** RPC refresh (compat 2): a refresh token for a new pair of access and refresh tokens. */
  refresh?(session: Session, token: string): Promise<SigninResult>;
  /** POST /explain, RPC explain: `session` becomes the record user `rid` of access `ac` (no SIGNIN runs). */
  bindRecord?(session: Session, ns: string, db: string, ac: string, rid: RecordId): Promise<unknown>;
  /** RPC revoke (compat 2): the refresh token's family ends. */
  revoke?(session: Session, token: string): Promise<void>;
  /** The session made a call (registry last-seen). */
  seen?(session: Session): void;
  /** The session's connection closed. */
  closed?(session: Session): Promise<void>;
}

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Size and concurrency limits; every socket and route is bounded. */
export interface ServerLimits {
  /** POST /signin and /signup bodies (SurrealDB: 1 KiB). */
  readonly authBody: number;
  /** POST /sql, /key and /import bodies (SurrealDB 2: 1 MiB). */
  readonly sqlBody: number;
  readonly importBody: number;
  /** POST /rpc body. */
  readonly rpcBody: number;
  /** Largest WebSocket message of a system user; bigger frames get an error response, or the socket is closed if huge. */
  readonly wsMaxPayload: number;
  /**
   * Largest WebSocket message or POST /rpc body of a record / scope user (a session not signed in: preAuthPayload):
   * decoding is not interruptible either (~100–150 ms a MiB here); their query text is bounded further (exec/query-text.ts).
   */
  readonly clientPayload: number;
  /** Most values (scalars, arrays, objects and object keys) a system user's frame or POST /rpc body decodes into. */
  readonly maxValues: number;
  /** Frame / POST /rpc body limits of a session not signed in: what signin, signup, authenticate, use, ping, version need. */
  readonly preAuthPayload: number;
  readonly preAuthValues: number;
  /** Most values a frame or POST /rpc body of a record (v1 scope) user decodes into (its size: clientPayload). */
  readonly recordValues: number;
  /** Requests handled at once per WebSocket connection of a system user; further ones queue. */
  readonly wsMaxInFlight: number;
  /** Requests waiting per connection of a system user beyond the in-flight ones; more are answered with an error. */
  readonly wsMaxQueued: number;
  /** The same two bounds for a connection of a record user, a guest or one not signed in (at most the system ones). */
  readonly clientMaxInFlight: number;
  readonly clientMaxQueued: number;
  /** Interval of server Ping frames; a socket silent for two intervals is dropped. 0 disables. */
  readonly wsPingIntervalMs: number;
  /** Unsent answer bytes of one socket above which its frames are no longer read nor its queued requests started. */
  readonly wsPauseBytes: number;
  /** Unsent answer bytes of one socket at which it is closed (1008) at once. */
  readonly wsMaxBufferedBytes: number;
  /** A socket paused this long (its client reads nothing) is closed (1008). */
  readonly wsStallMs: number;
  /** Unsent answer bytes of all sockets together; past it the socket holding the most is closed (1013). */
  readonly serverMaxBufferedBytes: number;
  /** Open connections (HTTP and WebSocket) from one IP address; further ones are answered 429 and closed. 0: no limit. */
  readonly maxConnectionsPerIp: number;
}

export const defaultLimits: ServerLimits = {
  authBody: 1024,
  sqlBody: 1024 * 1024,
  importBody: 16 * 1024 * 1024,
  rpcBody: 4 * 1024 * 1024,
  wsMaxPayload: 4 * 1024 * 1024,
  clientPayload: 1024 * 1024,
  maxValues: 100_000,
  preAuthPayload: 64 * 1024,
  preAuthValues: 5_000,
  recordValues: 25_000,
  wsMaxInFlight: 32,
  wsMaxQueued: 256,
  clientMaxInFlight: 8,
  clientMaxQueued: 16,
  wsPingIntervalMs: 5000,
  wsPauseBytes: 8 * 1024 * 1024,
  wsMaxBufferedBytes: 64 * 1024 * 1024,
  wsStallMs: 30_000,
  serverMaxBufferedBytes: 256 * 1024 * 1024,
  maxConnectionsPerIp: 128,
};

/** Where a request's client address (`$session.ip`) comes from (`--client-ip`): no address, the socket, or a proxy's header. */
export const CLIENT_IP_SOURCES = ["none", "socket", "X-Forwarded-For", "X-Real-IP", "CF-Connecting-IP", "True-Client-IP", "Fly-Client-IP"] as const;
export type ClientIpSource = (typeof CLIENT_IP_SOURCES)[number];
/** Session groups `--deny-arbitrary-query` names: anonymous, record (scope) users, system users. */
export const QUERY_GROUPS = ["guest", "record", "system"] as const;
export type QueryGroup = (typeof QUERY_GROUPS)[number];

/** Options of the network layer a `surql-auth start` flag sets. */
export interface NetworkOptions {
  /** PEM certificate and key: HTTPS and WSS instead of HTTP and WS (`--web-crt`, `--web-key`). */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Origins a browser may call from (CORS; `--allow-origin`); `*` any (the default). */
  readonly allowOrigin?: readonly string[];
  /** Default "socket". */
  readonly clientIp?: ClientIpSource;
  /** Sessions of these groups may not run queries (`--deny-arbitrary-query`). */
  readonly denyArbitraryQuery?: readonly QueryGroup[];
  /** Omit the `server` / `surreal-version` response headers (v2 `--no-identification-headers`). */
  readonly noIdentificationHeaders?: boolean;
}

export interface ServerOptions extends NetworkOptions {
  readonly engine: ServerEngine;
  readonly iam: AuthService;
  /** Defaults to `engine.compat`. */
  readonly compat?: Compat;
  readonly limits?: Partial<ServerLimits>;
  readonly logger?: Logger;
  /** Audit events (iam/audit.ts): session expiry here; throttling, sessions and refresh report through it too. */
  readonly audit?: Audit;
  /** Whether authentication is enforced (v2 default on, v1 default off); gates POST /import for non-owners. */
  readonly authEnabled?: boolean;
}

/** The resolved configuration every handler reads. */
export interface ServerContext {
  readonly engine: ServerEngine;
  readonly iam: AuthService;
  readonly compat: Compat;
  readonly limits: ServerLimits;
  readonly logger: Logger;
  readonly audit: Audit;
  readonly authEnabled: boolean;
  readonly noIdentificationHeaders: boolean;
  readonly allowOrigin: readonly string[];
  readonly clientIp: ClientIpSource;
  readonly denyArbitraryQuery: readonly QueryGroup[];
}

export function resolveContext(opts: ServerOptions): ServerContext {
  const compat = opts.compat ?? opts.engine.compat;
  return {
    engine: opts.engine,
    iam: opts.iam,
    compat,
    limits: { ...defaultLimits, ...opts.limits },
    logger: opts.logger ?? silentLogger,
    audit: opts.audit ?? silentAudit,
    authEnabled: opts.authEnabled ?? compat === 2,
    noIdentificationHeaders: opts.noIdentificationHeaders ?? false,
    allowOrigin: opts.allowOrigin ?? ["*"],
    clientIp: opts.clientIp ?? "socket",
    denyArbitraryQuery: opts.denyArbitraryQuery ?? [],
  };
}

/** The version this server reports: `surrealdb-1.5.4` or `surrealdb-2.6.0`. */
export function serverVersion(compat: Compat): string {
  return compat === 1 ? "surrealdb-1.5.4" : "surrealdb-2.6.0";
}

/** May this session run queries (`--deny-arbitrary-query`)? Only sign-in and session methods otherwise. */
export function queriesAllowed(ctx: ServerContext, session: Session): boolean {
  if (ctx.denyArbitraryQuery.length === 0) return true;
  const level = session.actor.level;
  const group: QueryGroup = level === "No" ? "guest" : level === "Record" || level === "Scope" ? "record" : "system";
  return !ctx.denyArbitraryQuery.includes(group);
}

/** What one RPC message of this session may be: at most `bytes` long (checked before decoding) and `values` values. */
export function messageLimits(ctx: ServerContext, session: Session, transport: "ws" | "http"): { bytes: number; values: number } {
  const system = transport === "ws" ? ctx.limits.wsMaxPayload : ctx.limits.rpcBody;
  const { limits } = ctx;
  // system users, and anonymous sessions when authentication is off
  if (unboundedText(session, ctx.authEnabled)) return { bytes: system, values: limits.maxValues };
  // not signed in: what signin, signup, authenticate, use, ping, version need
  if (session.actor.level === "No") return { bytes: Math.min(system, limits.preAuthPayload), values: Math.min(limits.maxValues, limits.preAuthValues) };
  return { bytes: Math.min(system, limits.clientPayload), values: Math.min(limits.maxValues, limits.recordValues) };
}

/** Requests one WebSocket connection of this session runs at once (`inFlight`) and holds waiting (`queued`). */
export function connectionLimits(ctx: ServerContext, session: Session): { inFlight: number; queued: number } {
  const { limits } = ctx;
  // system users, and anonymous sessions when authentication is off, as messageLimits
  if (unboundedText(session, ctx.authEnabled)) return { inFlight: limits.wsMaxInFlight, queued: limits.wsMaxQueued };
  return { inFlight: Math.min(limits.wsMaxInFlight, limits.clientMaxInFlight), queued: Math.min(limits.wsMaxQueued, limits.clientMaxQueued) };
}
