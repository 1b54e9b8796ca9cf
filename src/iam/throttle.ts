// Throttling and lockout of signin, signup, HTTP Basic and authenticate (issue #13 §1): an attempt is refused before any
// lookup or password hash when one of its buckets (throttle-keys.ts) is locked or backing off; otherwise it reserves a
// mark in each, and its outcome keeps or takes them back. A signin also counts against the account it names (attack
// passes 11 and 12, I2 and J6): a system user's stored hash, or a record signin's named record and the hashes stored in
// it (CredentialGate); a hash held back verifies nothing, a record held back is refused. Marks live in a bounded LRU on
// this node and, with a shared store, in the store too (throttle-store.ts), read again at most every CACHE_MS.

import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { AUTH_MESSAGES } from "../errors/catalogue.js";
import { SurrealError } from "../errors/index.js";
import type { AdmitStoredHash } from "../exec/functions/crypto.js";
import type { Clock } from "../exec/session.js";
import type { KvStore } from "../store/kv/types.js";
import type { IamLogger } from "./context.js";
import { credentialBucket, type Bucket } from "./throttle-keys.js";
import { defaultThrottleLimits, type ThrottleLimits } from "./throttle-limits.js";
import { KvThrottleStore, newMark, type ThrottleMark } from "./throttle-store.js";

/** Refused by the throttle: `retryAfterSeconds` for HTTP's Retry-After; the text says it too. */
export class TooManyAttempts extends SurrealError {
  constructor(readonly retryAfterSeconds: number) {
    super("TooManyAttempts", AUTH_MESSAGES.TooManyAttempts(retryAfterSeconds));
  }
}

/** How long this node trusts what it read of a bucket from the shared store (another node's marks show after this). */
export const CACHE_MS = 1000;
/** Buckets remembered on one node; past it the least recently used is forgotten (an attacker cannot grow memory). */
export const MAX_BUCKETS = 50_000;
/** Marks kept per bucket when its rule has no lock count (back-off only). */
const MAX_MARKS = 64;
/** How often a node sweeps marks older than every window out of the shared store. */
const SWEEP_EVERY_MS = 60_000;

const admitAll: AdmitStoredHash = () => Promise.resolve(true);

/** What a signin asks the throttle about the stored credentials it meets (attack passes 11 and 12: I2, J6). */
export interface CredentialGate {
  /** The attempt is counted: a record signin looks up the account its login names. */
  readonly counting: boolean;
  /** A system user's stored hash about to be verified joins the attempt; false while held back (locked, backing off). */
  readonly admit: AdmitStoredHash;
  /** A record signin's compare: false while the hash is held back and not joined by this attempt; joins nothing. */
  readonly check: AdmitStoredHash;
  /** The account a record signin's login names: its record's bucket and its stored hashes' join the attempt, unless held back. */
  claim(record: Bucket, storedHashes: readonly string[]): Promise<void>;
  /** The record a signin clause returned is held back (and not joined by this attempt): it is refused. */
  held(record: Bucket): Promise<boolean>;
}

/** The gate of an attempt nothing counts. */
const openGate: CredentialGate = { counting: false, admit: admitAll, check: admitAll, claim: () => Promise.resolve(), held: () => Promise.resolve(false) };

interface Entry {
  /** Marks inside the window, oldest first. */
  marks: ThrottleMark[];
  /** When the store was last read for this bucket (clock ms); -Infinity: never. */
  readAt: number;
}

interface Rule {
  readonly max: number;
  readonly windowMs: number;
  readonly backoffAfter: number;
  readonly backoffBaseMs: number;
}

export interface ThrottleOptions {
  readonly limits?: Partial<ThrottleLimits>;
  readonly clock: Clock;
  /** The store nodes share (none: this process only). */
  readonly store?: KvStore;
  readonly logger: IamLogger;
  readonly maxBuckets?: number;
}

export class Throttle {
  readonly limits: ThrottleLimits;
  private readonly clock: Clock;
  private readonly store: KvThrottleStore | undefined;
  private readonly logger: IamLogger;
  /** Made at first use: its arrays for maxBuckets cost milliseconds, paid by every engine open while throttling is off. */
  private entriesLru: LRUCache<string, Entry> | undefined;
  private readonly maxBuckets: number;
  /** Marks reserved by attempts still running here (not yet in the store). */
  private readonly pending = new Set<string>();
  private lastSweep = -Infinity;
  /** The key of credential buckets: the shared store's (every node counts a hash alike), else this process's. */
  private secretKey: Promise<Uint8Array> | undefined;

  constructor(opts: ThrottleOptions) {
    this.limits = { ...defaultThrottleLimits, ...opts.limits };
    this.clock = opts.clock;
    this.store = opts.store ? new KvThrottleStore(opts.store) : undefined;
    this.logger = opts.logger;
    this.maxBuckets = opts.maxBuckets ?? MAX_BUCKETS;
  }

  /** Buckets this node holds now (at most maxBuckets). */
  get size(): number {
    return this.entriesLru?.size ?? 0;
  }

  private get entries(): LRUCache<string, Entry> {
    return (this.entriesLru ??= new LRUCache({ max: this.maxBuckets }));
  }

  private rule(bucket: Bucket): Rule {
    const l = this.limits;
    if (bucket.kind === "identity") return { max: l.signinMaxFailures, windowMs: l.signinWindowMs, backoffAfter: l.backoffAfter, backoffBaseMs: l.backoffBaseMs };
    return { max: l.ipMaxAttempts, windowMs: l.ipWindowMs, backoffAfter: 0, backoffBaseMs: 0 };
  }

  /**
   * Runs `attempt` unless a bucket refuses it (TooManyAttempts, before `attempt` does any work); counts its outcome.
   * `attempt` is handed the gate of the stored credentials it meets (a signin clause's, a system user's).
   */
  guard<T>(buckets: readonly Bucket[], attempt: (gate: CredentialGate) => Promise<T>): Promise<T> {
    // (nothing to count, as for an embedded connection's authenticate: the attempt itself, no promise of ours around it)
    if (buckets.length === 0 || !this.limits.enabled) return attempt(openGate);
    const active = buckets.filter((b) => this.counts(b));
    if (active.length === 0) return attempt(openGate);
    return this.guarded(active, attempt);
  }

  private counts(bucket: Bucket): boolean {
    const rule = this.rule(bucket);
    return rule.max > 0 || rule.backoffAfter > 0;
  }

  private async guarded<T>(active: readonly Bucket[], attempt: (gate: CredentialGate) => Promise<T>): Promise<T> {
    // 1. what other nodes counted, unless read lately
    await this.refresh(active);
    // 2. refuse while a bucket is locked or backing off (no await from here to the reservation: concurrent attempts see each other)
    const now = this.clock.now();
    const waitMs = Math.max(...active.map((b) => this.waitMs(b, now)));
    if (waitMs > 0) {
      const refused = new TooManyAttempts(Math.max(1, Math.ceil(waitMs / 1000)));
      if (!active.every((b) => b.kind === "token")) throw refused;
      // a token is checked all the same (a signature, cheap): a valid one is never refused for the bad ones others
      // sent from its address (attack pass 6, D11: 60 bad Bearer tokens shut every user behind one proxy out)
      try {
        return await attempt(openGate);
      } catch (e) {
        throw e instanceof SurrealError && e.code === "ExpiredToken" ? e : refused;
      }
    }
    // 3. reserve a mark in every bucket
    const mark = newMark(now);
    this.pending.add(mark.id);
    for (const b of active) this.entry(b.key).marks.push(mark);
    const joined = [...active];
    // 4. the attempt (joining the buckets of the account it names), then its outcome
    let result: T;
    try {
      result = await attempt(this.gate(joined, mark));
    } catch (e) {
      // an expired token is no guess
      await this.settle(joined, mark, e instanceof SurrealError && e.code === "ExpiredToken");
      throw e;
    }
    await this.settle(joined, mark, true);
    return result;
  }

  /**
   * The gate of an attempt whose buckets are `joined` (it adds those it joins). A held-back credential is no 429: that
   * answer would come after the lookup, only for an account that exists, and tell it apart; it fails as a wrong password.
   */
  private gate(joined: Bucket[], mark: ThrottleMark): CredentialGate {
    const hashBucket = async (storedHash: string) => {
      const secret = await this.secret();
      // the store's secret unreadable: the selector and address buckets still count this attempt
      return secret && credentialBucket(secret, storedHash);
    };
    return {
      counting: true,
      admit: async (hash) => {
        const bucket = await hashBucket(hash);
        return !bucket || this.join(joined, mark, bucket);
      },
      check: async (hash) => {
        const bucket = await hashBucket(hash);
        return !bucket || !(await this.held(joined, bucket));
      },
      claim: async (record, hashes) => {
        for (const bucket of [record, ...(await Promise.all(hashes.map(hashBucket)))]) if (bucket) await this.join(joined, mark, bucket);
      },
      held: (record) => this.held(joined, record),
    };
  }

  /** `bucket` joins the attempt (its mark reserved there too), or false while it is held back (locked, backing off). */
  private async join(joined: Bucket[], mark: ThrottleMark, bucket: Bucket): Promise<boolean> {
    if (!this.counts(bucket) || joined.some((b) => b.key === bucket.key)) return true;
    await this.refresh([bucket]);
    // (no await from the check to the reservation, as in guarded)
    if (this.waitMs(bucket, this.clock.now()) > 0) return false;
    this.entry(bucket.key).marks.push(mark);
    joined.push(bucket);
    return true;
  }

  /** Is `bucket` held back for an attempt that has not joined it? */
  private async held(joined: readonly Bucket[], bucket: Bucket): Promise<boolean> {
    if (!this.counts(bucket) || joined.some((b) => b.key === bucket.key)) return false;
    await this.refresh([bucket]);
    return this.waitMs(bucket, this.clock.now()) > 0;
  }

  private async secret(): Promise<Uint8Array | undefined> {
    try {
      return await (this.secretKey ??= this.store ? this.store.secret() : Promise.resolve(Uint8Array.from(randomBytes(32))));
    } catch (e) {
      this.secretKey = undefined;
      this.logger.debug("throttle: reading the store's secret failed", { error: (e as Error).message });
      return undefined;
    }
  }

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) this.entries.set(key, (e = { marks: [], readAt: -Infinity }));
    return e;
  }

  /** Milliseconds `bucket` refuses attempts from `now` on (0: none). */
  private waitMs(bucket: Bucket, now: number): number {
    const rule = this.rule(bucket);
    const e = this.entry(bucket.key);
    e.marks = e.marks.filter((m) => m.ms > now - rule.windowMs).slice(-(rule.max > 0 ? rule.max : MAX_MARKS));
    const n = e.marks.length;
    // lockout: until the oldest of the last `max` marks leaves the window
    if (rule.max > 0 && n >= rule.max) return e.marks[n - rule.max]!.ms + rule.windowMs - now;
    // back-off: the wait doubles with every mark past `backoffAfter`
    if (rule.backoffAfter > 0 && n >= rule.backoffAfter) {
      const wait = Math.min(rule.backoffBaseMs * 2 ** (n - rule.backoffAfter), rule.windowMs);
      return Math.max(0, e.marks[n - 1]!.ms + wait - now);
    }
    return 0;
  }

  /** Reads the store's marks of the buckets this node has not read for CACHE_MS; keeps this node's unsettled marks. */
  private async refresh(buckets: readonly Bucket[]): Promise<void> {
    if (!this.store) return;
    const now = this.clock.now();
    const stale = buckets.filter((b) => now - this.entry(b.key).readAt >= CACHE_MS);
    if (stale.length === 0) return;
    const since = now - Math.max(...stale.map((b) => this.rule(b).windowMs));
    let read: ThrottleMark[][];
    try {
      read = await this.store.read(
        stale.map((b) => b.key),
        since,
      );
    } catch (e) {
      // the store is unreachable: this node's own counts still hold
      this.logger.debug("throttle: reading the store failed", { error: (e as Error).message });
      return;
    }
    stale.forEach((b, i) => {
      const e = this.entry(b.key);
      const ours = e.marks.filter((m) => this.pending.has(m.id));
      e.marks = [...read[i]!, ...ours].sort((x, y) => x.ms - y.ms);
      e.readAt = now;
    });
  }

  /**
   * Applies an outcome: a success takes back its own failure-only marks, a failure keeps them. A success never clears
   * an identity's other failures: identities are folded (case, spaces), so another account's success on the folded name
   * would reset its victim's count (attack pass 6, D12); failures leave with their window.
   */
  private async settle(buckets: readonly Bucket[], mark: ThrottleMark, ok: boolean): Promise<void> {
    const add: (readonly [string, ThrottleMark])[] = [];
    for (const b of buckets) {
      const e = this.entry(b.key);
      if (ok && !b.countsSuccess) e.marks = e.marks.filter((m) => m.id !== mark.id);
      else add.push([b.key, mark]);
    }
    try {
      await this.store?.write(add);
      this.sweep();
    } catch (e) {
      this.logger.debug("throttle: writing the store failed", { error: (e as Error).message });
    } finally {
      this.pending.delete(mark.id);
    }
  }

  /** Now and then, drops marks older than every window from the shared store (in the background). */
  private sweep(): void {
    const now = this.clock.now();
    if (!this.store || now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const oldest = now - Math.max(this.limits.signinWindowMs, this.limits.ipWindowMs);
    this.store.sweep(oldest).catch((e: Error) => this.logger.debug("throttle: sweeping the store failed", { error: e.message }));
  }
}
