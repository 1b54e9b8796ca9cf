// iam/: the session registry — every authenticated realtime session (a WebSocket, an embedded Connection) with its
// identity, access method, IP and times, kept in the shared store so that an OWNER on any node lists and kills it.
// A node applies kills of its own sessions at once, and other nodes' kills at its next sync (every second).
// Registering writes nothing (authenticate's hot path, issue #10): new entries, and the removal of closed ones, reach
// the store at the next sync; this node's list and kill see them at once, other nodes' after that sync.

import { randomUUID } from "node:crypto";
import { InvalidAuth, NotAllowed } from "../errors/index.js";
import type { QueryEngine } from "../exec/contract.js";
import { withRetries } from "../exec/executor.js";
import { definitionEnded, identityEnded, isExpired, type Actor, type AuthLevel, type Clock, type Session } from "../exec/session.js";
import type { KvStore, KvTransaction } from "../store/kv/types.js";
import { Transaction } from "../store/transaction.js";
import type { Audit } from "./audit.js";
import type { Claims } from "./claims.js";
import type { SessionAuth } from "./session.js";
import { CutIndex, cutKey, matches, namesIdentity, reaches, readCuts, type Cut, type Identity, type SessionFilter } from "./sessions-cuts.js";
import { decodeJson, encodeJson, stateId, stateKey, stateRange } from "./sessions-keys.js";

export { reaches, type Identity, type SessionFilter } from "./sessions-cuts.js";

/** One registered session as listed: who (level, user, ns, db, access), from where, since and until when. Times ISO 8601. */
export interface SessionEntry {
  readonly id: string;
  readonly node: string;
  readonly level: AuthLevel;
  /** System user name, or the record user's record id. */
  readonly user: string;
  readonly ns: string | null;
  readonly db: string | null;
  /** Access method (2.x) or scope (1.x) it signed in with; null for system users signed in with a password. */
  readonly access: string | null;
  readonly ip: string | null;
  readonly started: string;
  readonly expires: string | null;
  readonly lastSeen: string;
}

/** As stored: the token the session stands on (refused once the session is killed) and its refresh family. */
interface StoredEntry extends SessionEntry {
  readonly jti?: string;
  /** The token's exp, Unix seconds. */
  readonly tokenExp?: number;
  readonly family?: string;
}


/** The refresh-token families (refresh.ts): a kill ends those of the identities it names, and those its sessions stood on. */
export interface FamilyBook {
  /** Ends the live families `match` accepts (their access tokens refused, their sessions killed); how many ended. */
  endWhere(match: (family: { readonly id: string; readonly identity: Identity }) => boolean, reason: string): Promise<number>;
}


export interface RegistryLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
}

export interface RegistryOptions {
  /** This node's name in entries (default: a random uuid). */
  readonly node?: string;
  /** How often the node syncs with the store while it has sessions (default 1000 ms; 0: only when `sync()` is called). */
  readonly syncMs?: number;
  readonly logger?: RegistryLogger;
  /** Where "session_killed" events go (audit.ts). */
  readonly audit?: Pick<Audit, "emit">;
}

/** How old this node's list of revoked token ids may be when a token is checked. */
export const REVOKED_STALENESS_MS = 1000;

/** A node whose heartbeat is older than this is gone: its entries are swept. Kill marks live twice as long. */
export const NODE_SILENCE_MS = 60_000;


const iso = (ms: number): string => new Date(ms).toISOString();
const present = (v: string | undefined): string | null => v ?? null;

/**
 * A session registered on this node. Its id and entry are made when first needed (a list, a kill, a sync): registering,
 * which every authenticate does, stays one allocation (issue #10).
 */
class Local {
  private readonly actor: Actor;
  private readonly ac: string | undefined;
  private readonly exp: number | undefined;
  private readonly tk: Session["tk"];
  private built: StoredEntry | undefined;
  private madeId: string | undefined;
  /** Last call (clock ms) and the last one written to the store. */
  seen: number;
  written: number;
  /** Has a sync written its entry (until then only this node knows it)? */
  stored = false;

  constructor(
    private readonly node: string,
    readonly session: Session,
    private readonly started: number,
    private readonly family: string | undefined,
  ) {
    // what the session stands for as registered (a later authentication registers it again)
    this.actor = session.actor;
    this.ac = session.ac;
    this.exp = session.exp;
    this.tk = session.tk;
    this.seen = this.written = started;
  }

  get id(): string {
    return (this.madeId ??= randomUUID());
  }

  /** When it was registered (ms) and its token issued (iat, seconds), as a kill by identity compares them. */
  get issued(): { readonly ms: number; readonly iat: number | undefined } {
    const iat = this.tk?.["iat"];
    return { ms: this.started, iat: typeof iat === "bigint" || typeof iat === "number" ? Number(iat) : undefined };
  }

  get entry(): StoredEntry {
    if (this.built !== undefined) return this.built;
    const { actor, tk } = this;
    const jti = tk?.["jti"];
    const exp = tk?.["exp"];
    return (this.built = {
      id: this.id,
      node: this.node,
      level: actor.level,
      user: actor.id,
      ns: present(actor.ns),
      db: present(actor.db),
      access: present(this.ac),
      ip: present(this.session.ip),
      started: iso(this.started),
      expires: this.exp === undefined ? null : iso(this.exp * 1000),
      lastSeen: iso(this.started),
      ...(typeof jti === "string" ? { jti } : {}),
      ...(typeof exp === "bigint" || typeof exp === "number" ? { tokenExp: Number(exp) } : {}),
      ...(this.family !== undefined ? { family: this.family } : {}),
    });
  }
}

function publicEntry(e: StoredEntry): SessionEntry {
  const { jti: _jti, tokenExp: _exp, family: _family, ...shown } = e;
  return shown;
}

export class SessionRegistry {
  readonly node: string;
  private readonly clock: Clock;
  private readonly local = new Set<Local>();
  private readonly ids = new WeakMap<Session, Local>();
  /** Stored entries of sessions that ended here (closed, invalidated, signed in again): deleted at the next sync. */
  private readonly gone = new Set<string>();
  /** Token ids refused until their expiry (ms), as of the last sync, plus this node's own kills. */
  private readonly revoked = new Map<string, number>();
  /** When `revoked` was last read from the store (clock ms). */
  private revokedAt = -Infinity;
  /** Kills by identity (sessions-cuts.ts), read with `revoked`, plus this node's own. */
  private cuts = new CutIndex();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastSweep = -Infinity;
  private readonly syncMs: number;
  private readonly logger: RegistryLogger;
  private readonly audit: Pick<Audit, "emit"> | undefined;
  private families: FamilyBook | undefined;

  constructor(
    private readonly engine: Pick<QueryEngine, "clock" | "catalog" | "identities" | "endQueries">,
    private readonly store: KvStore,
    opts: RegistryOptions = {},
  ) {
    this.clock = engine.clock;
    this.node = opts.node ?? randomUUID();
    this.syncMs = opts.syncMs ?? 1000;
    this.logger = opts.logger ?? { debug: () => {} };
    this.audit = opts.audit;
  }

  /** The refresh families a kill ends too (set once by iam/index.ts; the book needs this registry first). */
  attachFamilies(book: FamilyBook): void {
    this.families = book;
  }

  /**
   * Registers `session` as just authenticated (a new authentication replaces the connection's earlier one). Nothing is
   * written: the entry reaches the store at the next sync, and is never written if the session ends before it.
   */
  register(session: Session, extra: { family?: string } = {}): void {
    const earlier = this.ids.get(session);
    if (earlier !== undefined) this.drop(earlier);
    if (session.actor.level === "No") {
      if (earlier !== undefined) this.ids.delete(session);
      return;
    }
    const l = new Local(this.node, session, this.clock.now(), extra.family);
    this.local.add(l);
    this.ids.set(session, l);
    this.startTimer();
  }

  /**
   * The session made a call (its last-seen time reaches the store at the next sync). A session standing on a refused
   * token (another session on the same token was killed, here or elsewhere) is killed: that call answers expired (D1).
   */
  seen(session: Session): void {
    if (this.standsOnRevoked(session)) session.killed = true;
    const l = this.ids.get(session);
    if (l !== undefined && this.local.has(l)) l.seen = this.clock.now();
  }

  /** The session ended (invalidate, reset, connection closed): it leaves the registry (its entry the store at the next sync). */
  deregister(session: Session): void {
    const l = this.ids.get(session);
    if (l === undefined) return;
    this.ids.delete(session);
    this.drop(l);
  }

  /** `l` leaves this node's list; its stored entry the store at the next sync. */
  private drop(l: Local): void {
    if (!this.local.delete(l) || !l.stored) return;
    this.gone.add(l.id);
    this.startTimer();
  }

  /** This node's sessions by id (their ids made now). */
  private byId(): Map<string, Local> {
    const out = new Map<string, Local>();
    for (const l of this.local) out.set(l.id, l);
    return out;
  }

  /**
   * The sessions `actor` may manage that match `filter` (default all), oldest first: the store's entries, with this
   * node's own as it knows them now (registered since the last sync, or ended). Other nodes' lag up to one sync.
   */
  async list(actor: Actor, filter: SessionFilter | "all" = "all"): Promise<SessionEntry[]> {
    authorize(actor);
    const now = this.clock.now();
    const stored = await this.read(async (kv) => {
      const out = new Map<string, StoredEntry>();
      for await (const batch of kv.scan(stateRange("ss")))
        for (const [key, v] of batch) if (!this.gone.has(stateId(key))) out.set(stateId(key), decodeJson<StoredEntry>(v));
      return out;
    });
    // this node's: the unwritten ones join, the written ones show their last call (one killed elsewhere stays out)
    for (const l of this.local) if (!l.stored || stored.has(l.id)) stored.set(l.id, { ...l.entry, lastSeen: iso(l.seen) });
    return [...stored.values()]
      .filter((e) => reaches(actor, e) && matches(e, filter) && (e.expires === null || now < Date.parse(e.expires) + 1000))
      .sort((a, b) => a.started.localeCompare(b.started))
      .map(publicEntry);
  }

  /**
   * Kills the sessions `actor` may manage that match `filter`: their next call answers "The session has expired".
   * The refresh families of the identities the filter names (any field but `id`), and those the killed sessions were
   * signed in by, end too, even with no session live (attack pass 6, D6).
   */
  async kill(actor: Actor, filter: SessionFilter | "all"): Promise<SessionEntry[]> {
    authorize(actor);
    // a kill naming an identity refuses its tokens issued before it too, on every node (D1), kept as a cut
    const cut: Cut | undefined = namesIdentity(filter) ? { filter, by: actor, at: this.clock.now() } : undefined;
    const killed = await this.killWhere((e) => reaches(actor, e) && matches(e, filter), "killed", actor.id, cut);
    if (cut !== undefined) this.cuts.add(cut);
    const stoodOn = new Set(killed.flatMap((e) => (e.family === undefined ? [] : [e.family])));
    const byIdentity = filter === "all" || (["user", "access", "ns", "db"] as const).some((k) => filter[k] !== undefined);
    await this.families?.endWhere((f) => stoodOn.has(f.id) || (byIdentity && reaches(actor, f.identity) && matches(f.identity, filter)), "killed");
    return killed.map(publicEntry);
  }

  /**
   * Kills every session of a refresh-token family (theft or revoke; no actor: the engine's own decision): those its
   * grants signed in, and those that authenticated with one of its access tokens (`jtis`).
   */
  async killFamily(family: string, jtis: ReadonlySet<string>, reason: string): Promise<number> {
    return (await this.killWhere((e) => e.family === family || (e.jti !== undefined && jtis.has(e.jti)), reason)).length;
  }

  /**
   * Refuses a verified token whose `jti` was revoked by a kill or a refresh family's end (TokenGuard). The list is read
   * from the store again once it is REVOKED_STALENESS_MS old, so a node serving only HTTP requests sees another node's
   * kill within a second too; between reads the check is a map lookup.
   */
  assertUsable(claims: Claims): Promise<void> | void {
    const now = this.clock.now();
    if (now - this.revokedAt >= REVOKED_STALENESS_MS) return this.refreshRevoked(now).then(() => this.assertUsable(claims));
    const until = typeof claims.jti === "string" ? this.revoked.get(claims.jti) : undefined;
    if (until !== undefined && until >= now) throw new InvalidAuth("the token's session was killed");
  }

  /**
   * Refuses a token of an identity killed after the token was issued (TokenGuard; attack pass 6, D1): a kill by
   * identity on any node is read with the revoked ids, so it reaches a token never used in a registered session too.
   */
  assertIdentity(claims: Claims, auth: SessionAuth): void {
    const { actor } = auth;
    const e = { id: null, user: actor.id, access: auth.ac ?? null, ns: actor.ns ?? null, db: actor.db ?? null };
    if (this.cuts.find(e, { iat: claims.iat }) !== undefined) throw new InvalidAuth("the token was issued before a kill of its identity");
  }

  private async refreshRevoked(now: number): Promise<void> {
    const { live, cuts } = await this.read(async (kv) => ({ live: await revokedIds(kv, now), cuts: await readCuts(kv) }));
    this.setRevoked(live, now);
    this.cuts = cuts;
  }

  private standsOnRevoked(session: Session): boolean {
    const jti = session.tk?.["jti"];
    const until = typeof jti === "string" ? this.revoked.get(jti) : undefined;
    return until !== undefined && until >= this.clock.now();
  }

  private setRevoked(live: ReadonlyMap<string, number>, at: number): void {
    this.revoked.clear();
    for (const [jti, until] of live) this.revoked.set(jti, until);
    this.revokedAt = at;
  }

  /** Revokes token ids until their expiry (ms) on every node (a refresh family's access tokens). */
  async revokeTokens(tokens: readonly { readonly jti: string; readonly untilMs: number }[]): Promise<void> {
    if (tokens.length === 0) return;
    await this.write(async (kv) => {
      for (const t of tokens) kv.set(stateKey("sr", t.jti), encodeJson(t.untilMs));
    });
    for (const t of tokens) this.revoked.set(t.jti, t.untilMs);
  }

  private async killWhere(match: (e: StoredEntry) => boolean, reason: string, by?: string, cut?: Cut): Promise<StoredEntry[]> {
    const now = this.clock.now();
    const killed = await this.write(async (kv) => {
      const out: StoredEntry[] = [];
      // a kill by identity also reaches the tokens issued before it, and sessions other nodes have not written yet
      if (cut !== undefined) kv.set(cutKey(cut), encodeJson(cut));
      const revoke = (e: StoredEntry) => {
        if (e.jti !== undefined && e.tokenExp !== undefined) kv.set(stateKey("sr", e.jti), encodeJson(e.tokenExp * 1000 + 999));
        out.push(e);
      };
      for await (const batch of kv.scan(stateRange("ss")))
        for (const [key, v] of batch) {
          const e = decodeJson<StoredEntry>(v);
          if (this.gone.has(e.id) || !match(e)) continue;
          // 1. the entry goes; 2. its node learns of the kill at its next sync; 3. its token is refused everywhere
          kv.delete(key);
          kv.set(stateKey("sk", e.id), encodeJson(now));
          revoke(e);
        }
      // this node's sessions not written yet: killed here below, their tokens refused everywhere
      for (const l of this.local) if (!l.stored && match(l.entry)) revoke(l.entry);
      return out;
    });
    const mine = this.byId();
    for (const e of killed) {
      this.audited(e, reason, by);
      this.killLocal(mine.get(e.id));
      if (e.jti !== undefined && e.tokenExp !== undefined) this.revoked.set(e.jti, e.tokenExp * 1000 + 999);
    }
    return killed;
  }

  private audited(e: StoredEntry, reason: string, by: string | undefined): void {
    const record = e.level === "Record" || e.level === "Scope";
    this.audit?.emit({
      event: "session_killed",
      outcome: "success",
      reason,
      attempt: { identity: e.level.toLowerCase(), user: record ? null : e.user, record: record ? e.user : null, access: e.access, ns: e.ns, db: e.db },
      extra: { ip: e.ip, killed: e.id, node: e.node, ...(by !== undefined ? { by } : {}) },
    });
  }

  private killLocal(l: Local | undefined): void {
    if (l === undefined || !this.local.delete(l)) return;
    if (this.ids.get(l.session) === l) {
      this.ids.delete(l.session);
      l.session.killed = true;
      // its running queries end at their next checkpoint (attack pass 11, I7)
      this.engine.endQueries();
    }
  }

  /** Has the session ended by itself (expired, invalidated, signed in again, its user or access or record gone)? */
  private ended(l: Local): boolean {
    const s = l.session;
    return this.ids.get(s) !== l || isExpired(s, this.clock) || this.standsOnRevoked(s) || definitionEnded(s, this.engine.catalog) || identityEnded(s, this.engine.identities);
  }

  /**
   * One round with the store: the heartbeat, kills made on other nodes, last-seen times, ended sessions leave,
   * the revoked token ids, and (now and then) the entries of nodes gone silent.
   */
  async sync(): Promise<void> {
    const now = this.clock.now();
    const mine = this.byId();
    const ids = [...mine.keys()];
    // (one that left since, closed or replaced, is skipped: its entry goes with `gone`)
    const current = (id: string): Local | undefined => {
      const l = mine.get(id);
      return l !== undefined && this.local.has(l) ? l : undefined;
    };
    const sweep = now - this.lastSweep >= NODE_SILENCE_MS / 2;
    const dropping = [...this.gone];
    const { killed, written, cutOff } = await this.write(async (kv) => {
      const wrote: [Local, number][] = [];
      // 1. this node is alive; entries of sessions ended here go
      kv.set(stateKey("sn", this.node), encodeJson(now));
      for (const id of dropping) kv.delete(stateKey("ss", id));
      // 2. kills of this node's sessions made elsewhere
      const marks = await kv.getMany(ids.map((id) => stateKey("sk", id)));
      const killedHere = ids.filter((_id, i) => marks[i] !== undefined);
      for (const id of killedHere) kv.delete(stateKey("sk", id));
      // 3. the revoked token ids still in force (a session standing on one has ended), and kills by identity: a session
      // one reaches (registered before it, here or not yet written; or standing on a token issued before it) ends here,
      // its token refused everywhere
      const live = await revokedIds(kv, now, true);
      const cuts = await readCuts(kv);
      const cutOff = new Map<string, Cut>();
      for (const id of ids) {
        const l = current(id);
        const cut = l === undefined ? undefined : cuts.find(l.entry, l.issued);
        if (cut === undefined) continue;
        cutOff.set(id, cut);
        if (l!.entry.jti !== undefined && l!.entry.tokenExp !== undefined) {
          live.set(l!.entry.jti, l!.entry.tokenExp * 1000 + 999);
          kv.set(stateKey("sr", l!.entry.jti), encodeJson(l!.entry.tokenExp * 1000 + 999));
        }
      }
      this.setRevoked(live, now);
      this.cuts = cuts;
      // 4. the others: ended ones leave; the rest are written when new, their last-seen time moved, or a sweep took them
      const stored = await kv.getMany(ids.map((id) => stateKey("ss", id)));
      ids.forEach((id, i) => {
        const l = current(id);
        if (l === undefined || marks[i] !== undefined) return;
        if (cutOff.has(id) || this.ended(l)) {
          if (stored[i] !== undefined) kv.delete(stateKey("ss", id));
        } else if (l.seen !== l.written || stored[i] === undefined) {
          kv.set(stateKey("ss", id), encodeJson({ ...l.entry, lastSeen: iso(l.seen) }));
          wrote.push([l, l.seen]);
        }
      });
      if (sweep) await sweepSilent(kv, now);
      return { killed: killedHere, written: wrote, cutOff };
    });
    // applied once committed
    if (sweep) this.lastSweep = now;
    for (const id of dropping) this.gone.delete(id);
    for (const id of killed) this.killLocal(current(id));
    for (const [id, cut] of cutOff) {
      const l = current(id);
      if (l !== undefined) this.audited(l.entry, "killed", cut.by.id);
      this.killLocal(l);
    }
    for (const [l, seen] of written) {
      // a session that ended while the sync ran leaves the store at the next one
      if (!this.local.has(l)) this.gone.add(l.id);
      l.stored = true;
      l.written = seen;
    }
    for (const l of this.local) {
      if (this.ended(l)) {
        // an expired session leaves the registry; its later calls find no entry
        this.local.delete(l);
        if (this.ids.get(l.session) === l) this.ids.delete(l.session);
        if (l.stored) this.gone.add(l.id);
      }
    }
    if (this.local.size === 0 && this.gone.size === 0) this.stopTimer();
  }

  /** Stops the background sync (the store is about to close). */
  close(): void {
    this.stopTimer();
  }

  private startTimer(): void {
    if (this.timer !== undefined || this.syncMs <= 0) return;
    // the timer holds the registry weakly: an engine its owner dropped without close() is collected, timer and all
    // (a strong hold kept every engine a test or fuzz run opened alive: the noninterference run ran out of memory)
    const self = new WeakRef(this);
    const timer = setInterval(() => {
      const registry = self.deref();
      if (registry === undefined) return clearInterval(timer);
      registry.sync().catch((e) => registry.logger.debug("session registry sync failed", { error: (e as Error).message }));
    }, this.syncMs);
    timer.unref();
    this.timer = timer;
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private write<T>(work: (kv: KvTransaction) => Promise<T>): Promise<T> {
    return withRetries({ begin: async () => new Transaction(await this.store.begin("write")) }, (txn) => work(txn.kv!));
  }

  private async read<T>(work: (kv: KvTransaction) => Promise<T>): Promise<T> {
    const kv = await this.store.begin("read");
    try {
      return await work(kv);
    } finally {
      await kv.cancel();
    }
  }
}

/** The revoked token ids still in force (ms until which each is refused); `prune` deletes the others. */
async function revokedIds(kv: KvTransaction, now: number, prune = false): Promise<Map<string, number>> {
  const live = new Map<string, number>();
  for await (const batch of kv.scan(stateRange("sr")))
    for (const [key, v] of batch) {
      const until = decodeJson<number>(v);
      if (until >= now) live.set(stateId(key), until);
      else if (prune) kv.delete(key);
    }
  return live;
}

function authorize(actor: Actor): void {
  const system = actor.level === "Root" || actor.level === "Namespace" || actor.level === "Database";
  if (!system || !actor.roles.includes("OWNER")) throw new NotAllowed();
}

/** Entries of nodes silent for NODE_SILENCE_MS (crashed: their sockets are gone), their heartbeats, and old kill marks. */
async function sweepSilent(kv: KvTransaction, now: number): Promise<void> {
  const silent = new Set<string>();
  for await (const batch of kv.scan(stateRange("sn")))
    for (const [key, v] of batch)
      if (now - decodeJson<number>(v) > NODE_SILENCE_MS) {
        silent.add(stateId(key));
        kv.delete(key);
      }
  if (silent.size > 0)
    for await (const batch of kv.scan(stateRange("ss"))) for (const [key, v] of batch) if (silent.has(decodeJson<StoredEntry>(v).node)) kv.delete(key);
  for await (const batch of kv.scan(stateRange("sk"))) for (const [key, v] of batch) if (now - decodeJson<number>(v) > 2 * NODE_SILENCE_MS) kv.delete(key);
}
