// iam/: refresh tokens of record accesses `WITH REFRESH` (compat 2). SurrealDB's shape: signin / signup answer
// { access, refresh } and the refresh grant exchanges a refresh token for a new pair. Better than its strict one-time
// use: a token used again within REFRESH_GRACE_MS of its rotation (two tabs at once) gets the same new pair, and a use
// after that revokes the whole family (theft detection): its refresh token, its access tokens and its sessions.
// State lives in the shared store (`\x01rf` families, `\x01ra` their live access token ids), so every node sees every
// rotation. A token names its family and generation, and its secret is a MAC of both under the family's key: a used
// token is recognised (a reuse) from the family's generation alone, with nothing kept per token (attack pass 6, D10).

import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { accessDurations } from "../ast/print/access.js";
import { InvalidAuth } from "../errors/index.js";
import type { StoredAccess } from "../exec/contract.js";
import { withRetries } from "../exec/executor.js";
import { newSession, type Session } from "../exec/session.js";
import { randomCode } from "../exec/random.js";
import type { KvStore, KvTransaction } from "../store/kv/types.js";
import { Transaction } from "../store/transaction.js";
import type { Value, ValueObject } from "../value/types.js";
import { getAccess, type IamContext } from "./context.js";
import { readCredentials } from "./credentials.js";
import { issueRecordToken } from "./record.js";
import { parseRecordIdClaim, recordIdText } from "./recordid.js";
import { applyAuth } from "./session.js";
import type { FamilyBook, Identity, SessionRegistry } from "./sessions.js";
import { decodeJson, encodeJson, stateId, stateKey, statePrefixRange, stateRange } from "./sessions-keys.js";

/** How long after a rotation the rotated token still answers, with the pair the rotation issued. */
export const REFRESH_GRACE_MS = 5000;

/** How often a node sweeps ended families (expired; revoked with every access token expired) and their token ids. */
export const REFRESH_SWEEP_MS = 10 * 60_000;

/** SurrealDB's shape: a 12-character id (here the family's 8 and the generation's 4) and a 24-character secret. */
const FORMAT = /^surreal-refresh-([A-Za-z0-9]{8})([A-Za-z0-9]{4})-([A-Za-z0-9]{24})$/;

const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Generations a family may rotate through (4 base-62 digits); the next refresh needs a signin. */
const GENERATIONS = 62 ** 4;

/** A pair as signin, signup and the grant answer it; `family` stays in iam/ (the session registry's link). */
export interface RefreshPair {
  readonly token: string;
  readonly refresh: string;
  readonly family: string;
}

/** One family: every refresh token descending from one signin or signup. Times in clock ms. */
interface Family {
  readonly id: string;
  readonly ns: string;
  readonly db: string;
  readonly ac: string;
  readonly rid: string;
  /** A fingerprint of the access method's signing key: a redefinition (a new key) ends the family. */
  readonly key: string;
  readonly started: number;
  readonly expires: number | null;
  /** The MAC key of its tokens' secrets (hex); the secrets themselves are never stored. */
  readonly mac: string;
  /** The generation of the current token: an earlier one is a used token. */
  readonly gen: number;
  /** The token rotated last (its generation), and the pair that rotation issued, sealed with that token's secret. */
  readonly previous?: { readonly gen: number; readonly at: number; readonly sealed: string };
  readonly revoked?: number;
  /**
   * When the last access token the family issued expires (ms); the tokens themselves are `\x01ra` keys, one each,
   * so a rotation writes a constant amount (attack pass 6, D10: a list in the family grew with every refresh).
   */
  readonly tokensUntil: number;
}

/** What a signin names when it is the refresh grant: a WITH REFRESH access and a `refresh` variable. */
export interface RefreshGrant {
  readonly ns: string;
  readonly db: string;
  readonly ac: string;
  /** Checked to be a refresh token by the grant, which is audited. */
  readonly token: Value;
}

/** `\x01ra` key of an access token a family issued. */
const issuedKey = (family: string, jti: string) => stateKey("ra", `${family}\u0000${jti}`);

const sha256 = (s: string): Buffer => createHash("sha256").update(s).digest();
const fingerprint = (stored: StoredAccess): string => sha256(`surql-auth refresh\0${stored.jwt.issuer?.key ?? ""}`).toString("hex").slice(0, 32);

function sealPair(pair: { token: string; refresh: string }, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sha256(`surql-auth grace\0${secret}`), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(pair), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

function unsealPair(sealed: string, secret: string): { token: string; refresh: string } {
  const raw = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", sha256(`surql-auth grace\0${secret}`), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as { token: string; refresh: string };
}

/** The secret of generation `gen` of family `f`: 24 base-62 characters of an HMAC-SHA-256 (≈ 142 bits). */
function tokenSecret(f: Pick<Family, "id" | "mac">, gen: number): string {
  const mac = createHmac("sha256", Buffer.from(f.mac, "hex")).update(`${f.id}\0${gen}`).digest();
  let s = "";
  for (let i = 0; i < 24; i++) s += ALNUM[mac[i]! % 62];
  return s;
}

/** The refresh token of generation `gen` of family `f`. */
function tokenText(f: Pick<Family, "id" | "mac">, gen: number): string {
  let digits = "";
  for (let g = gen, i = 0; i < 4; i++, g = Math.floor(g / 62)) digits = ALNUM[g % 62] + digits;
  return `surreal-refresh-${f.id}${digits}-${tokenSecret(f, gen)}`;
}

function parseToken(text: Value): { family: string; gen: number; secret: string } {
  const m = typeof text === "string" ? FORMAT.exec(text) : null;
  if (!m) throw new InvalidAuth("refresh token malformed");
  const gen = [...m[2]!].reduce((n, c) => n * 62 + ALNUM.indexOf(c), 0);
  return { family: m[1]!, gen, secret: m[3]! };
}

/** The access method of a grant, if it is a database record access WITH REFRESH (compat 2 only). */
function refreshAccess(ctx: IamContext, ns: string, db: string, ac: string): StoredAccess | undefined {
  const stored = getAccess(ctx, "DATABASE", ns, db, ac);
  return ctx.compat === 2 && stored?.def.access.kind === "Record" && stored.def.access.refresh ? stored : undefined;
}

/** A signin that is the refresh grant (NS, DB, AC of a WITH REFRESH access and `refresh`); else a signin as any other. */
export function refreshGrant(ctx: IamContext, vars: ValueObject): RefreshGrant | undefined {
  if (ctx.compat !== 2 || vars["refresh"] === undefined) return undefined;
  const { ns, db, ac } = readCredentials(vars, ctx.compat);
  if (ns === undefined || db === undefined || ac === undefined || !refreshAccess(ctx, ns, db, ac)) return undefined;
  return { ns, db, ac, token: vars["refresh"] };
}

const accessToken = (session: Session): { jti: string; untilMs: number } | undefined => {
  const jti = session.tk?.["jti"];
  const exp = session.tk?.["exp"];
  return typeof jti === "string" && (typeof exp === "bigint" || typeof exp === "number") ? { jti, untilMs: Number(exp) * 1000 + 999 } : undefined;
};

export class RefreshBook implements FamilyBook {
  private lastSweep = -Infinity;

  constructor(
    private readonly ctx: IamContext,
    private readonly store: KvStore,
    private readonly sessions: SessionRegistry,
    /** Verifies an access token and writes the session (Iam.authenticate): the grace path's second answer. */
    private readonly authenticate: (session: Session, token: string) => Promise<void>,
    private readonly graceMs = REFRESH_GRACE_MS,
  ) {}

  /** After a record signin / signup through a WITH REFRESH access: a new family and its first refresh token. */
  async started(session: Session, result: { token: string }): Promise<{ token: string; refresh?: string; family?: string }> {
    const { ns, db } = session.actor;
    const stored = ns === undefined || db === undefined || session.ac === undefined ? undefined : refreshAccess(this.ctx, ns, db, session.ac);
    if (stored === undefined || session.rd === undefined || session.actor.level !== "Record") return result;
    const now = this.ctx.clock.now();
    const grant = accessDurations(stored.def).grant;
    const issued = accessToken(session);
    const fields = {
      ns: ns!,
      db: db!,
      ac: session.ac!,
      rid: recordIdText(session.rd, this.ctx.compat),
      key: fingerprint(stored),
      started: now,
      expires: grant === null ? null : now + Number(grant.nanos / 1_000_000n),
      mac: randomBytes(32).toString("hex"),
      gen: 0,
      tokensUntil: issued?.untilMs ?? now,
    };
    const family = await this.write(async (kv) => {
      // a new family id (8 characters, as the token carries it): drawn again in the rare case it is taken
      let id = randomCode(8);
      while ((await kv.get(stateKey("rf", id))) !== undefined) id = randomCode(8);
      const f: Family = { id, ...fields };
      kv.set(stateKey("rf", id), encodeJson(f));
      if (issued) kv.set(issuedKey(id, issued.jti), encodeJson(issued.untilMs));
      return f;
    });
    if (now - this.lastSweep >= REFRESH_SWEEP_MS) await this.sweep();
    return { token: result.token, refresh: tokenText(family, 0), family: family.id };
  }

  /**
   * Deletes the families that can no longer answer anything (past their grant duration; revoked, once every access
   * token they issued has expired) and the access token ids of families gone (and the per-token index entries an
   * earlier version kept, `\x01rt`). Run by a signin now and then; returns how many families went.
   */
  async sweep(): Promise<number> {
    const now = this.ctx.clock.now();
    this.lastSweep = now;
    return this.write(async (kv) => {
      const live = new Set<string>();
      let gone = 0;
      for await (const batch of kv.scan(stateRange("rf")))
        for (const [key, v] of batch) {
          const f = decodeJson<Family>(v);
          const spent = f.revoked !== undefined && f.tokensUntil < now;
          if ((f.expires !== null && now > f.expires) || spent) {
            kv.delete(key);
            gone++;
          } else live.add(f.id);
        }
      kv.deleteRange(stateRange("rt"));
      for await (const batch of kv.scan(stateRange("ra"))) for (const [key] of batch) if (!live.has(stateId(key).split("\u0000")[0]!)) kv.delete(key);
      return gone;
    });
  }

  /**
   * The refresh grant: `text` for a new pair, written into `session`. The current token rotates; the one rotated last
   * answers the same pair within the grace window; any other use of a token of the family revokes the family.
   * `expect` (a signin naming NS / DB / AC) must be the family's access method.
   */
  async exchange(session: Session, text: Value, expect?: Omit<RefreshGrant, "token">): Promise<RefreshPair> {
    const token = parseToken(text);
    const { gen } = token;
    const outcome = await this.write(async (kv) => {
      // 1. the token is one we issued, and its secret matches
      const family = await this.verified(kv, token);
      if (expect && (expect.ns !== family.ns || expect.db !== family.db || expect.ac !== family.ac)) throw new InvalidAuth("refresh token of another access method");
      const now = this.ctx.clock.now();
      // 2. a live family of a live access method
      const stored = refreshAccess(this.ctx, family.ns, family.db, family.ac);
      if (family.revoked !== undefined || (family.expires !== null && now > family.expires) || !stored || fingerprint(stored) !== family.key)
        throw new InvalidAuth("refresh family revoked, expired, or its access method changed");
      // 3. the token rotated last, within the grace window: the same pair again
      if (gen !== family.gen && family.previous?.gen === gen && now - family.previous.at <= this.graceMs)
        return { kind: "again" as const, family, pair: unsealPair(family.previous.sealed, token.secret) };
      // 4. an older token, or the last one after the window: theft; the family ends
      if (gen !== family.gen) {
        kv.set(stateKey("rf", family.id), encodeJson({ ...family, revoked: now }));
        return { kind: "theft" as const, family };
      }
      // 5. the current token rotates: a new access token for the family's record, the next generation's refresh token
      if (gen + 1 >= GENERATIONS) throw new InvalidAuth("refresh family used up its generations");
      const scratch = await this.issue(session, stored, family);
      const access = accessToken(scratch);
      const pair = { token: scratch.issuedToken, refresh: tokenText(family, gen + 1) };
      const rotated: Family = {
        ...family,
        gen: gen + 1,
        previous: { gen, at: now, sealed: sealPair(pair, token.secret) },
        tokensUntil: Math.max(family.tokensUntil, access?.untilMs ?? now),
      };
      kv.set(stateKey("rf", family.id), encodeJson(rotated));
      // the family's access token ids: the new one; those expired leave (only live ones need refusing at its end)
      for await (const batch of kv.scan(statePrefixRange("ra", `${family.id}\u0000`)))
        for (const [key, v] of batch) if (decodeJson<number>(v) < now) kv.delete(key);
      if (access) kv.set(issuedKey(family.id, access.jti), encodeJson(access.untilMs));
      return { kind: "rotated" as const, family, scratch, pair };
    });
    switch (outcome.kind) {
      case "theft":
        await this.ended(outcome.family, "refresh_reuse");
        throw new InvalidAuth("refresh token used again after the grace window: its family is revoked");
      case "again":
        await this.authenticate(session, outcome.pair.token);
        return { ...outcome.pair, family: outcome.family.id };
      case "rotated":
        adopt(session, outcome.scratch);
        return { ...outcome.pair, family: outcome.family.id };
    }
  }

  /** RPC `revoke`: the family of a refresh token ends: the token, the family's access tokens and its sessions. */
  async revoke(text: string): Promise<void> {
    const token = parseToken(text);
    const family = await this.write(async (kv) => {
      const f = await this.verified(kv, token);
      if (f.revoked === undefined) kv.set(stateKey("rf", f.id), encodeJson({ ...f, revoked: this.ctx.clock.now() }));
      return f;
    });
    await this.ended(family, "revoked");
  }

  /** A session kill naming the family's identity (sessions.ts): the live families `match` accepts end, as at a revoke. */
  async endWhere(match: (family: { readonly id: string; readonly identity: Identity }) => boolean, reason: string): Promise<number> {
    const now = this.ctx.clock.now();
    const ended = await this.write(async (kv) => {
      const out: Family[] = [];
      for await (const batch of kv.scan(stateRange("rf")))
        for (const [key, v] of batch) {
          const f = decodeJson<Family>(v);
          if (f.revoked !== undefined || (f.expires !== null && now > f.expires)) continue;
          if (!match({ id: f.id, identity: { id: null, user: f.rid, access: f.ac, ns: f.ns, db: f.db } })) continue;
          kv.set(key, encodeJson({ ...f, revoked: now }));
          out.push(f);
        }
      return out;
    });
    for (const f of ended) await this.ended(f, reason);
    return ended.length;
  }

  /** The family's sessions are killed and its access tokens refused on every node. */
  private async ended(family: Family, reason: string): Promise<void> {
    const now = this.ctx.clock.now();
    const tokens = await this.write(async (kv) => {
      const out: { jti: string; untilMs: number }[] = [];
      for await (const batch of kv.scan(statePrefixRange("ra", `${family.id}\u0000`)))
        for (const [key, v] of batch) {
          const untilMs = decodeJson<number>(v);
          if (untilMs >= now) out.push({ jti: stateId(key).slice(family.id.length + 1), untilMs });
          else kv.delete(key);
        }
      return out;
    });
    await this.sessions.revokeTokens(tokens);
    await this.sessions.killFamily(family.id, new Set(tokens.map((t) => t.jti)), reason);
  }

  /** The token's family, once its secret is the MAC of its family and generation (one issued: current or used). */
  private async verified(kv: KvTransaction, token: { family: string; gen: number; secret: string }): Promise<Family> {
    const stored = await kv.get(stateKey("rf", token.family));
    const family = stored === undefined ? undefined : decodeJson<Family>(stored);
    // a family an earlier version wrote (no MAC key) answers no token: its holder signs in again
    if (family === undefined || typeof family.mac !== "string" || token.gen > family.gen) throw new InvalidAuth("unknown refresh token");
    if (!timingSafeEqual(Buffer.from(tokenSecret(family, token.gen)), Buffer.from(token.secret))) throw new InvalidAuth("unknown refresh token");
    return family;
  }

  /** A new access token for the family's record on a scratch session (the caller's is written only once all is stored). */
  private async issue(session: Session, stored: StoredAccess, family: Family): Promise<Session & { issuedToken: string }> {
    const rid = parseRecordIdClaim(family.rid);
    const { identities } = this.ctx.engine;
    const end = identities.endedAt(family.ns, family.db, rid);
    if (!(await identities.exists(family.ns, family.db, rid)) || (end !== undefined && end.ms >= family.started))
      throw new InvalidAuth("the refresh family's record was deleted");
    const scratch = newSession({ ns: session.ns, db: session.db, id: session.id, ip: session.ip, origin: session.origin, rt: session.rt });
    const { token } = await issueRecordToken(this.ctx, scratch, stored, family.ns, family.db, family.ac, rid);
    return Object.assign(scratch, { issuedToken: token });
  }

  private write<T>(work: (kv: KvTransaction) => Promise<T>): Promise<T> {
    return withRetries({ begin: async () => new Transaction(await this.store.begin("write")) }, (txn) => work(txn.kv!));
  }
}

/** Writes the auth fields of `from` (a scratch session the grant authenticated) into `session`. */
function adopt(session: Session, from: Session): void {
  applyAuth(session, { ns: from.ns, db: from.db, actor: from.actor, ac: from.ac, rd: from.rd, tk: from.tk, exp: from.exp, definitions: from.definitions }, from.since);
}
