// exec/: the Datastore — the QueryEngine iam/ and server/ call: parse → guard (expiry, guests) → statement loop.
// Queries of all sessions run concurrently; each statement (or BEGIN … COMMIT block) is one store transaction.

import type { Expr, Statement } from "../ast/nodes.js";
import type { Denial } from "../doc/env.js";
import { ExpiredSession, NotAllowed, queryError } from "../errors/index.js";
import { SyncedCatalog } from "../store/catalog-sync.js";
import { KvIndexStore } from "../store/indexes.js";
import type { IndexStore } from "../store/indexes.js";
import { MemoryStore } from "../store/kv/memory.js";
import { KvRecordStore } from "../store/records.js";
import type { RecordStore } from "../store/records.js";
import type { KvStore, TransactionMode } from "../store/kv/types.js";
import { Transaction } from "../store/transaction.js";
import type { Value } from "../value/types.js";
import { Budget, DEFAULT_QUERY_TIMEOUT_MS, type ExecuteOptions } from "./budget.js";
import type { DefinitionChange, QueryEngine, QueryResponse } from "./contract.js";
import type { EngineCore } from "./context.js";
import { Vars, clauseCtx, clientCtx } from "./context.js";
import { executeStatements, transactionBudget, withRetries } from "./executor.js";
import { exportForSession } from "./export.js";
import { evaluate } from "./expressions/evaluate.js";
import { IdentityLifetimes, TrackedRecordStore } from "./lifetimes.js";
import { definitionEnded, identityEnded, isExpired, systemClock } from "./session.js";
import type { Clock, Compat, Session } from "./session.js";
import { parseQuery } from "./parsed.js";
import { RunningQueries } from "./running.js";
import { boundedText } from "./query-text.js";
import { laneOf, scheduler } from "./scheduler.js";
import { ReturnSignal } from "./signals.js";

export interface DatastoreOptions {
  readonly compat?: Compat;
  readonly clock?: Clock;
  /** Authentication enabled (default true): anonymous sessions are guests. False: anonymous may do everything. */
  readonly auth?: boolean;
  /** With auth on, may anonymous sessions run queries at all (`--allow-guests`)? Default false. */
  readonly allowGuests?: boolean;
  readonly records?: RecordStore;
  /** Permission / WHERE pushdown to id and index lookups (default true). */
  readonly pushdown?: boolean;
  readonly indexes?: IndexStore;
  /** The ordered key-value store records, index entries and definitions live in (default: a new memory store). */
  readonly storage?: KvStore;
  /** Time limit of one client query in ms (`--query-timeout`; default 10 s; 0 or Infinity: none). */
  readonly queryTimeoutMs?: number;
  /** Functions no query may call (`--deny-funcs`): `*`, a family (`crypto`, `fn` for custom ones) or a name. */
  readonly deniedFunctions?: readonly string[];
  /** Time limit of one transaction in ms — a statement, or a BEGIN … COMMIT block (`--transaction-timeout`; default and 0: none). */
  readonly transactionTimeoutMs?: number;
  /** Receives unexpected errors inside statements (default: dropped); the client sees "An internal error occurred". */
  readonly onInternalError?: (error: unknown) => void;
  /** Receives each record, field or write PERMISSIONS refuse (default: none, and nothing is spent on them). */
  readonly onDenied?: (denial: Denial, session: Session) => void;
}

export class Datastore implements QueryEngine, EngineCore {
  readonly compat: Compat;
  readonly clock: Clock;
  /** Definitions: this node's snapshot of the store's catalog; another node's user / access changes reach the listeners too. */
  readonly catalog = new SyncedCatalog((change) => this.notify(change));
  readonly records: RecordStore;
  readonly indexes: IndexStore;
  readonly storage: KvStore;
  readonly auth: boolean;
  readonly allowGuests: boolean;
  readonly pushdown: boolean;
  private readonly deniedFunctions: readonly string[];
  readonly queryTimeoutMs: number;
  readonly transactionTimeoutMs: number;
  private readonly onInternalError: (error: unknown) => void;
  readonly onDenied: ((denial: Denial, session: Session) => void) | undefined;
  /** Deletions of records that served as record identities (see lifetimes.ts). */
  readonly identities: IdentityLifetimes;
  private readonly listeners = new Set<(change: DefinitionChange) => void>();
  /** The client queries running now: a session's end cancels them (endQueries). */
  private readonly running = new RunningQueries();
  /** When a transaction last read the catalog version (clock ms). */
  private catalogCheckedAt = -Infinity;
  /** The store's commit count when the catalog version was last read (stores only this process writes). */
  private catalogCheckedCommits: number | undefined;

  constructor(opts: DatastoreOptions = {}) {
    this.compat = opts.compat ?? 2;
    this.clock = opts.clock ?? systemClock;
    this.auth = opts.auth ?? true;
    this.allowGuests = opts.allowGuests ?? false;
    this.pushdown = opts.pushdown ?? true;
    this.deniedFunctions = (opts.deniedFunctions ?? []).map((t) => t.trim().toLowerCase()).filter((t) => t !== "");
    this.queryTimeoutMs = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    this.transactionTimeoutMs = opts.transactionTimeoutMs || Infinity;
    const records = opts.records ?? new KvRecordStore();
    this.identities = new IdentityLifetimes(records, this.clock, undefined, () => this.begin("read", false), () => this.begin("write", false));
    this.records = new TrackedRecordStore(records, this.identities);
    // a committed deletion of a record identity ends its sessions' running queries
    this.identities.onEnded = () => this.endQueries();
    this.indexes = opts.indexes ?? new KvIndexStore();
    this.storage = opts.storage ?? new MemoryStore();
    this.onInternalError = opts.onInternalError ?? (() => {});
    this.onDenied = opts.onDenied;
  }

  /** A transaction over the store; it first brings the catalog up to the store's version (unless it reads no definition). */
  async begin(mode: TransactionMode = "write", definitions = true): Promise<Transaction> {
    const deadline = performance.now() + this.transactionTimeoutMs;
    const commits = this.storage.commits;
    const kv = await this.storage.begin(mode);
    if (!definitions) return new Transaction(kv, deadline);
    const checked = this.clock.now();
    const catalog = await this.catalog.sync(kv);
    this.catalogCheckedAt = Math.max(this.catalogCheckedAt, checked);
    this.catalogCheckedCommits = commits;
    return new Transaction(kv, deadline, catalog);
  }

  /** Nothing to wait for (no promise) when the catalog is known current: authenticate's hot path. */
  syncCatalog(maxAgeMs = 0): Promise<void> | void {
    // a store only this process writes, and no commit since the last look: the catalog is current
    if (this.storage.commits !== undefined && this.storage.commits === this.catalogCheckedCommits && this.catalog.version >= 0) return;
    if (this.clock.now() - this.catalogCheckedAt < maxAgeMs) return;
    return this.begin("read").then((txn) => txn.cancel());
  }

  functionDenied(name: string): boolean {
    if (this.deniedFunctions.length === 0) return false;
    const n = name.toLowerCase();
    return this.deniedFunctions.some((t) => t === "*" || n === t || n.startsWith(`${t}::`));
  }

  reportInternal(error: unknown): void {
    this.onInternalError(error);
  }

  notify(change: DefinitionChange): void {
    // a user or access removed or redefined ends the sessions standing on it, and their running queries
    this.endQueries();
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  onDefinitionChange(listener: (change: DefinitionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Cancels the running queries of sessions that were killed, or whose record identity, user or access ended. */
  endQueries(): void {
    this.running.endWhere((s) => s.killed || identityEnded(s, this.identities) || definitionEnded(s, this.catalog));
  }

  private guard(session: Session, query: boolean): void {
    // 1. the session must not have expired
    if (isExpired(session, this.clock)) throw new ExpiredSession();
    // 2. a record user's record must not have been deleted since the session began (stricter than SurrealDB)
    if (identityEnded(session, this.identities)) throw new ExpiredSession();
    // 2b. the session ends once its user or access method is removed or redefined (stricter than SurrealDB)
    if (definitionEnded(session, this.catalog)) throw new ExpiredSession();
    // 3. guests need --allow-guests when authentication is on
    if (query && this.auth && session.actor.level === "No" && !this.allowGuests) throw new NotAllowed();
  }

  async execute(query: string | readonly Statement[], session: Session, vars: Readonly<Record<string, Value>> = {}, options: ExecuteOptions = {}): Promise<QueryResponse[]> {
    // the guard reads definitions (a removed system user): another node's changes first
    const synced = this.syncCatalog();
    if (synced) await synced;
    this.guard(session, true);
    // the query's first CPU slice, in its identity's and connection's turn (parsing is part of it)
    const lane = laneOf(session);
    const turn = scheduler.slice(lane);
    // (a slice granted at once is used at once: awaiting would let another query take one first)
    if (turn !== undefined) await turn;
    // cancelled when its client goes away or its session ends (endQueries)
    const run = this.running.start(session, options.signal);
    const budget = Budget.of(this.queryTimeoutMs, run.signal, lane);
    // the variables a client sent with the query (up to a frame of them) are held while it runs
    budget.hold(vars);
    try {
      // parsing counts against the time limit (it cannot yield: boundedText keeps a client's text small)
      const stmts = typeof query === "string" ? parseQuery(boundedText(query, session, this.auth), this.compat) : query;
      if (budget.expired) throw queryError("QueryTimedout");
      const scope = Vars.root(this.compat, vars, session.params);
      // no queue: every session's queries run side by side, isolated by their store transactions
      return await executeStatements(stmts, this, session, scope, budget, options.explain);
    } finally {
      // what it was charged no longer counts for the memory guard
      budget.end();
      run.done();
    }
  }

  /** GET /export: the session's database as SurrealQL, as the session may have it (exportForSession). */
  async exportSql(session: Session): Promise<string> {
    // the guard reads definitions (a removed system user): another node's changes first
    await this.syncCatalog();
    this.guard(session, false);
    const txn = await this.begin("read");
    try {
      return await exportForSession(clientCtx(this, session, txn, Vars.root(this.compat)));
    } finally {
      await txn.cancel();
    }
  }

  async evaluate(expr: Expr, session: Session, vars: Readonly<Record<string, Value>> = {}, options: { readonly rollback?: boolean } = {}): Promise<Value> {
    this.guard(session, false);
    const lane = laneOf(session);
    const turn = scheduler.slice(lane);
    if (turn !== undefined) await turn;
    const budget = Budget.of(this.queryTimeoutMs, undefined, lane);
    const work = async (txn: Transaction) => {
      try {
        return await evaluate(expr, clauseCtx(this, session, txn, vars, transactionBudget(budget, txn)));
      } catch (e) {
        if (e instanceof ReturnSignal) return e.value;
        throw e;
      }
    };
    return (options.rollback ? this.begin().then((txn) => rolledBack(txn, work)) : withRetries(this, work)).finally(() => budget.end());
  }
}

/** `work` in `txn`, which is then cancelled whatever happened. */
async function rolledBack<T>(txn: Transaction, work: (txn: Transaction) => Promise<T>): Promise<T> {
  try {
    return await work(txn);
  } finally {
    await txn.cancel();
  }
}
