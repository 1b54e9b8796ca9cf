// The embedded API: open a datastore, import .surql schema files, open sessions and call what the RPC offers.
// The server (src/server) is a thin network layer over these same pieces.

import { createReadStream } from "node:fs";
import { SurrealError } from "./errors/index.js";
import { Datastore } from "./exec/datastore.js";
import { newSession, systemClock, type Clock, type Compat, type Session } from "./exec/session.js";
import { ImportError, importChunks, ownerSession, type ImportOptions, type ImportSummary } from "./import.js";
import { Iam, type IamLogger } from "./iam/index.js";
import type { SessionEntry, SessionFilter } from "./iam/sessions.js";
import { Audit, type AuditWriter } from "./iam/audit.js";
import type { ThrottleLimits } from "./iam/throttle-limits.js";
import type { KvStore } from "./store/kv/types.js";
import { createServer, type SurrealServer } from "./server/index.js";
import { invokeMethod, type RpcCall } from "./server/rpc/methods.js";
import { toRpcError } from "./server/rpc/errors.js";
import { resolveContext, silentLogger, type Logger, type NetworkOptions, type ServerContext, type ServerLimits } from "./server/types.js";
import { escapeIdent, toSql } from "./value/index.js";
import type { Value, ValueObject } from "./value/types.js";
import type { Decision } from "./doc/decide.js";

export * from "./value/types.js";
export { parse } from "../grammar/index.js";
export { ParseError, SurrealError, InvalidAuth, NotAllowed, ExpiredSession, ThrownError } from "./errors/index.js";
export { RpcError } from "./server/rpc/errors.js";
export { AuthError, CastError, CodedError, LocalError, QueryError } from "./errors/index.js";
export type { Clock, Compat, Session } from "./exec/session.js";
export type { ClientIpSource, Logger, NetworkOptions, QueryGroup } from "./server/types.js";
export { Datastore } from "./exec/datastore.js";
export { Iam } from "./iam/index.js";
export type { SessionEntry, SessionFilter } from "./iam/sessions.js";
export { Audit, AUDIT_EVENTS, auditFileWriter, type AuditEvent, type AuditEventKind, type AuditInput, type AuditWriter } from "./iam/audit.js";
export { ImportError, type ImportOptions, type ImportSummary } from "./import.js";
export { TooManyAttempts } from "./iam/throttle.js";
export type { ThrottleLimits } from "./iam/throttle-limits.js";
export type { Decision, DecisionReason, DecisionValues } from "./doc/decide.js";

export interface OpenOptions {
  /** 1 = SurrealDB 1.x (DEFINE SCOPE, SC, $scope); 2 = SurrealDB 2.x (DEFINE ACCESS, AC, $access). Default 2. */
  readonly compat?: Compat;
  /** Time source (ms since the epoch); tests inject a fake one. */
  readonly clock?: Clock;
  /** Enforce authentication (default true). False: anonymous sessions may do everything, like the oracle. */
  readonly auth?: boolean;
  /** With auth on, let anonymous sessions run queries (subject to PERMISSIONS). Default false. */
  readonly allowGuests?: boolean;
  /** compat 1: default life of tokens issued by the service, seconds (default 86400, the seed's 24 h). */
  readonly v1TokenDuration?: number;
  /** Time limit of one client query in ms (default 10 s; 0: none). */
  readonly queryTimeoutMs?: number;
  /** Functions no query may call (`--deny-funcs`): `*`, a family (`crypto`; `fn` for custom functions) or a name. */
  readonly deniedFunctions?: readonly string[];
  /** Time limit of one transaction (a statement, a BEGIN … COMMIT block) in ms (default and 0: none). */
  readonly transactionTimeoutMs?: number;
  /** Where records and definitions live (default: a new memory store); see openStore (store/kv/open.ts). */
  readonly storage?: KvStore;
  /** Create this root user (role OWNER) if no root user exists yet, as `surreal start --user --pass`. */
  readonly root?: { readonly user: string; readonly pass: string };
  /**
   * .surql files imported in order after the root user is created. A DEFINE whose definition is stored already exactly
   * as written is skipped, so a schema loaded again on an existing store is no error and keeps its generated keys.
   */
  readonly import?: readonly string[];
  readonly logger?: Logger;
  /** Further destinations of audit events besides the log (at info): an audit file (auditFileWriter), a test's array. */
  readonly audit?: readonly AuditWriter[];
  /** Audit every record, field or write PERMISSIONS refuse (`--log-denials`; default off, and then free). */
  readonly logDenials?: boolean;
  /** This node's name in the session registry (default: a random uuid). */
  readonly node?: string;
  /** How often the session registry syncs with the store (default 1000 ms; 0: only on `sessions.sync()`). */
  readonly sessionSyncMs?: number;
  /** May an access method's JWKS URL be fetched (outbound network capability; `--deny-all` says no)? Default true. */
  readonly allowNet?: boolean;
  /** Throttling and lockout of signin, signup, Basic and authenticate (README "Throttling"); `{ enabled: false }` turns it off. */
  readonly throttle?: Partial<ThrottleLimits>;
}

/** The session registry through the embedded API: as the embedding program (a root OWNER), or as a connection's user. */
export interface SessionAdmin {
  /** This node's name in the entries. */
  readonly node: string;
  /** Registered sessions matching `filter` (every node sharing the store), oldest first. */
  list(filter?: SessionFilter | "all", as?: Connection): Promise<SessionEntry[]>;
  /** Kills the matching sessions; their next call answers "The session has expired" and their tokens are refused. */
  kill(filter: SessionFilter | "all", as?: Connection): Promise<SessionEntry[]>;
  /** Exchange with the store now (heartbeat, other nodes' kills, last-seen times) instead of at the next tick. */
  sync(): Promise<void>;
}

function iamLogger(logger: Logger): IamLogger {
  return { debug: (message, fields) => logger.debug(message, fields) };
}

export class SurqlAuth {
  readonly engine: Datastore;
  readonly iam: Iam;
  readonly compat: Compat;
  readonly logger: Logger;
  readonly authEnabled: boolean;
  /** Where signin, signup, authenticate, invalidate, session and denial events go: the log (info) and `opts.audit`. */
  readonly audit: Audit;

  private constructor(opts: OpenOptions) {
    this.compat = opts.compat ?? 2;
    this.logger = opts.logger ?? silentLogger;
    const clock = opts.clock ?? systemClock;
    const logged: AuditWriter[] = opts.logger ? [(event) => this.logger.info("audit", event)] : [];
    this.audit = new Audit([...logged, ...(opts.audit ?? [])], clock);
    this.authEnabled = opts.auth ?? true;
    this.engine = new Datastore({
      compat: this.compat,
      clock,
      auth: this.authEnabled,
      allowGuests: opts.allowGuests ?? false,
      ...(opts.queryTimeoutMs !== undefined ? { queryTimeoutMs: opts.queryTimeoutMs } : {}),
      ...(opts.deniedFunctions !== undefined ? { deniedFunctions: opts.deniedFunctions } : {}),
      ...(opts.transactionTimeoutMs !== undefined ? { transactionTimeoutMs: opts.transactionTimeoutMs } : {}),
      ...(opts.storage !== undefined ? { storage: opts.storage } : {}),
      onInternalError: (e) => this.logger.error("internal error in a statement", { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      // a PERMISSIONS refusal carries its deciding clause (as INFO prints it)
      ...(opts.logDenials
        ? { onDenied: ({ clause, ...d }, session) => this.audit.emit({ event: "permission_denied", outcome: "failure", reason: d.resource ? "NotAllowed" : "Permissions", session, ...d, ...(clause !== undefined ? { extra: { clause } } : {}) }) }
        : {}),
    });
    this.iam = new Iam(this.engine, {
      compat: this.compat,
      ...(opts.v1TokenDuration !== undefined ? { v1TokenDuration: opts.v1TokenDuration } : {}),
      logger: iamLogger(this.logger),
      ...(opts.node !== undefined ? { node: opts.node } : {}),
      ...(opts.sessionSyncMs !== undefined ? { sessionSyncMs: opts.sessionSyncMs } : {}),
      audit: this.audit,
      ...(opts.allowNet === false ? { allowJwksUrl: () => false } : {}),
      ...(opts.throttle !== undefined ? { throttle: opts.throttle } : {}),
      // a durable or shared store keeps the counts for every node; a memory store's are this process's (Iam's LRU)
      ...(opts.storage !== undefined && opts.storage.kind !== "memory" ? { throttleStore: opts.storage } : {}),
    });
  }

  /** List and kill sessions (src/iam/sessions.ts); without `as`, with the rights of a root OWNER. */
  get sessions(): SessionAdmin {
    const registry = this.iam.sessions;
    const actor = (as?: Connection) => (as ? as.session.actor : ownerSession().actor);
    return {
      node: registry.node,
      list: (filter = "all", as) => registry.list(actor(as), filter),
      kill: (filter, as) => registry.kill(actor(as), filter),
      sync: () => registry.sync(),
    };
  }

  /** Opens an in-memory datastore, creates the root user if asked, then imports the files in order. */
  static async open(opts: OpenOptions = {}): Promise<SurqlAuth> {
    const db = new SurqlAuth(opts);
    if (opts.root) await db.ensureRootUser(opts.root.user, opts.root.pass);
    for (const file of opts.import ?? []) await db.importFile(file, { skipUnchanged: true });
    return db;
  }

  /** Defines `user` as a ROOT OWNER unless some root user exists already. Returns whether it did. */
  async ensureRootUser(user: string, pass: string): Promise<boolean> {
    const session = ownerSession();
    const [info] = await this.engine.execute("INFO FOR ROOT", session);
    const users = info?.status === "OK" ? ((info.result as ValueObject | undefined)?.["users"] as ValueObject | undefined) : undefined;
    if (users && Object.keys(users).length > 0) return false;
    const [res] = await this.engine.execute(`DEFINE USER ${escapeIdent(user)} ON ROOT PASSWORD ${toSql(pass)} ROLES OWNER`, session);
    if (res?.status !== "OK") throw res?.error ?? new SurrealError("Import", "could not create the root user");
    return true;
  }

  /**
   * Runs a .surql file statement by statement as a root owner, reading it chunk by chunk (a large file is never held
   * whole); stops at the first failing statement with an ImportError (file:line:column, reason, caret snippet).
   */
  async importFile(path: string, opts: ImportOptions = {}): Promise<ImportSummary> {
    const chunks = createReadStream(path, { encoding: "utf8", highWaterMark: 256 * 1024 });
    let summary: ImportSummary;
    try {
      summary = await importChunks(this.engine, chunks as AsyncIterable<string>, path, opts);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (e instanceof SurrealError || typeof code !== "string") throw e;
      throw new ImportError(path, 0, 0, `cannot read file: ${code}`);
    } finally {
      chunks.destroy();
    }
    this.logImport(path, summary);
    return summary;
  }

  /** Like importFile for text; `name` appears in errors. `USE` statements in the text select ns / db. */
  async importText(text: string, name = "<text>", opts: ImportOptions = {}): Promise<ImportSummary> {
    const summary = await importChunks(this.engine, [text], name, opts);
    this.logImport(name, summary);
    return summary;
  }

  private logImport(name: string, { statements, unchanged }: ImportSummary): void {
    this.logger.info(`imported ${name} (${statements} statements${unchanged > 0 ? `, ${unchanged} definitions already stored as written` : ""})`);
  }

  /** The configuration the RPC handlers read (shared with the server). */
  serverContext(limits?: Partial<ServerLimits>): ServerContext {
    return resolveContext({ engine: this.engine, iam: this.iam, compat: this.compat, authEnabled: this.authEnabled, logger: this.logger, audit: this.audit, ...(limits ? { limits } : {}) });
  }

  /** A new session, like one WebSocket connection. */
  connect(init: { ns?: string; db?: string } = {}): Connection {
    return new Connection(this.serverContext(), newSession({ ns: init.ns, db: init.db, rt: true }));
  }

  /** Starts the HTTP + WebSocket server (HTTPS + WSS with `network.tls`) on this datastore. Port 0 picks a free port. */
  async listen(host = "127.0.0.1", port = 8000, limits?: Partial<ServerLimits>, network: NetworkOptions = {}): Promise<{ server: SurrealServer; host: string; port: number }> {
    const server = createServer({ ...network, engine: this.engine, iam: this.iam, compat: this.compat, authEnabled: this.authEnabled, logger: this.logger, audit: this.audit, ...(limits ? { limits } : {}) });
    const address = await server.listen(host, port);
    return { server, ...address };
  }
}

/** What signin, signup and the refresh grant give: the access token, and a refresh token from an access WITH REFRESH. */
export interface Tokens {
  readonly access: string;
  readonly refresh?: string;
}

function tokens(v: Value): Tokens {
  if (typeof v === "string") return { access: v };
  const o = v as { access: string; refresh?: string };
  return o.refresh === undefined ? { access: o.access } : { access: o.access, refresh: o.refresh };
}

/** One session and the RPC methods on it; results are SurrealQL values in the compat's shapes. */
/** The RpcError the WebSocket would send for `e`, its `cause` the SurrealError behind it. */
function wireError(e: unknown): Error {
  const wire = toRpcError(e);
  return wire === e ? wire : Object.assign(wire, { cause: e });
}

/** One permission decision of an explained query: `statement` is the index of the answer it belongs to. */
export interface ExplainedDecision extends Decision {
  readonly statement: number;
}

/** What `Connection.explain` answers: the query's answers (as `query` gives them) and every permission decision behind them. */
export interface Explanation {
  readonly results: { result: Value; status: "OK" | "ERR"; time: string }[];
  readonly decisions: ExplainedDecision[];
}

export class Connection {
  private readonly call: RpcCall;
  constructor(
    ctx: ServerContext,
    readonly session: Session,
  ) {
    this.call = { ctx, session, transport: "ws" };
  }

  /**
   * Any RPC method by name (`signin`, `query`, `select` …), exactly as over WebSocket. A failure is an RpcError with the
   * code and message the WebSocket sends (e.g. -32000 `There was a problem with the database: …`); its `cause` is the
   * SurrealError behind it (`code` such as "InvalidAuth", "NotAllowed", "ExpiredSession", message unwrapped).
   */
  async rpc(method: string, params: readonly Value[] = []): Promise<Value> {
    try {
      return await invokeMethod(this.call, method, [...params]);
    } catch (e) {
      throw wireError(e);
    }
  }

  use(ns: string | null | undefined, db?: string | null): Promise<Value> {
    return this.rpc("use", [ns, db]);
  }
  /** Signs in; returns the access token (signinTokens also gives the refresh token of an access WITH REFRESH). */
  async signin(vars: ValueObject): Promise<string> {
    return (await this.signinTokens(vars)).access;
  }
  async signup(vars: ValueObject): Promise<string> {
    return (await this.signupTokens(vars)).access;
  }
  /** Signs in; `refresh` is set for a record access WITH REFRESH (compat 2), as RPC signin answers `{ access, refresh }`. */
  async signinTokens(vars: ValueObject): Promise<Tokens> {
    return tokens(await this.rpc("signin", [vars]));
  }
  async signupTokens(vars: ValueObject): Promise<Tokens> {
    return tokens(await this.rpc("signup", [vars]));
  }
  /** The refresh grant (RPC refresh): a new pair for a refresh token; the session signs in with it. */
  async refresh(refresh: string): Promise<Tokens> {
    return tokens(await this.rpc("refresh", [{ refresh }]));
  }
  /** RPC revoke: the refresh token's family ends, with its access tokens and sessions. */
  async revoke(refresh: string): Promise<void> {
    await this.rpc("revoke", [{ refresh }]);
  }
  authenticate(token: string): Promise<Value> {
    return this.rpc("authenticate", [token]);
  }
  invalidate(): Promise<Value> {
    return this.rpc("invalidate");
  }
  info(): Promise<Value> {
    return this.rpc("info");
  }
  /**
   * Runs `sql` as this connection's identity, exactly as `query` does (writes are kept: send them inside
   * `BEGIN; … CANCEL;` to explain without keeping them), and says which PERMISSIONS clause allowed or denied each record
   * and field, in the order they were judged (README "Explaining permissions").
   */
  async explain(sql: string, vars: ValueObject = {}): Promise<Explanation> {
    const decisions: ExplainedDecision[] = [];
    const merged = { ...vars, ...Object.fromEntries(this.session.params) };
    try {
      const responses = await this.call.ctx.engine.execute(sql, this.session, merged, { explain: (d, statement) => decisions.push({ statement, ...d }) });
      return { results: responses.map((r) => ({ result: r.result, status: r.status, time: r.time })), decisions };
    } catch (e) {
      throw wireError(e);
    }
  }
  /** One `{ result, status, time }` per statement. */
  async query(sql: string, vars: ValueObject = {}): Promise<{ result: Value; status: "OK" | "ERR"; time: string }[]> {
    return (await this.rpc("query", [sql, vars])) as never;
  }
  select(what: Value): Promise<Value> {
    return this.rpc("select", [what]);
  }
  create(what: Value, data?: Value): Promise<Value> {
    return this.rpc("create", data === undefined ? [what] : [what, data]);
  }
  update(what: Value, data?: Value): Promise<Value> {
    return this.rpc("update", data === undefined ? [what] : [what, data]);
  }
  merge(what: Value, data: Value): Promise<Value> {
    return this.rpc("merge", [what, data]);
  }
  delete(what: Value): Promise<Value> {
    return this.rpc("delete", [what]);
  }
  /** Ends the session, as closing a WebSocket does (it leaves the session registry). */
  close(): Promise<void> {
    return this.call.ctx.iam.closed?.(this.session) ?? Promise.resolve();
  }
}
