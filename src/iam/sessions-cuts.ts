// iam/: who a session filter names, and the kills by identity ("cuts") the registry keeps in the shared store: a kill
// naming an identity (`user`, `access`, `ns`, `db`, `all`) refuses every token of it issued before the kill, on every
// node, whether or not a registered session ever stood on it (attack pass 6, D1).

import type { Actor } from "../exec/session.js";
import type { KvTransaction } from "../store/kv/types.js";
import { decodeJson, stateKey, stateRange } from "./sessions-keys.js";

/** Who a session or a refresh family stands for, as a filter sees it (`id`: the session's; null for a family or a token). */
export interface Identity {
  readonly id: string | null;
  /** System user name (or the access / token name of a JWT actor), or the record user's record id. */
  readonly user: string;
  readonly access: string | null;
  readonly ns: string | null;
  readonly db: string | null;
}

/** Which sessions: every given field must match; an empty filter matches none (`"all"` matches all). */
export interface SessionFilter {
  readonly id?: string;
  readonly user?: string;
  readonly access?: string;
  readonly ns?: string;
  readonly db?: string;
}

/** Only a system user with the OWNER role manages sessions: root all, a namespace or database owner those of its level and below. */
export function reaches(actor: Actor, e: Identity): boolean {
  if (!actor.roles.includes("OWNER")) return false;
  if (actor.level === "Root") return true;
  if (actor.level === "Namespace") return e.ns === actor.ns;
  if (actor.level === "Database") return e.ns === actor.ns && e.db === actor.db;
  return false;
}

export function matches(e: Identity, f: SessionFilter | "all"): boolean {
  if (f === "all") return true;
  const given = (["id", "user", "access", "ns", "db"] as const).filter((k) => f[k] !== undefined);
  return given.length > 0 && given.every((k) => e[k] === f[k]);
}

/** A kill by identity: its filter (never an id), its killer (whose sessions it reaches; its name for the audit), its time. */
export interface Cut {
  readonly filter: SessionFilter | "all";
  readonly by: Actor;
  /** Clock ms of the killing node. */
  readonly at: number;
}

/** A filter that names an identity rather than one session (a kill by it is kept as a cut). */
export const namesIdentity = (f: SessionFilter | "all"): boolean =>
  f === "all" || (f.id === undefined && (["user", "access", "ns", "db"] as const).some((k) => f[k] !== undefined));

/** One per killer level and filter: a later kill by the same filter replaces the earlier (its time covers it). */
function cutId(c: Cut): string {
  const f = c.filter;
  const fields = f === "all" ? "all" : (["user", "access", "ns", "db"] as const).map((k) => f[k] ?? null);
  return JSON.stringify([c.by.level, c.by.ns ?? null, c.by.db ?? null, fields]);
}

export const cutKey = (c: Cut): Uint8Array => stateKey("sc", cutId(c));

/**
 * Was a token issued at `iat` (whole seconds) issued before the kill at `at` (ms)? Only a token of an earlier second
 * is: one of the kill's own second is accepted, so a signin just after a kill always works. A token minted in the
 * ≤ 1 s before the kill, in its second, stays usable (whoever could mint it then may sign in again after the kill
 * anyway); sessions registered before the kill are ended to the millisecond by the registry.
 */
export const issuedBefore = (iat: number | undefined, at: number): boolean => iat !== undefined && iat < Math.floor(at / 1000);

/** The kills by identity this node knows, indexed by the user they name (most name one). */
export class CutIndex {
  private readonly byUser = new Map<string, Cut[]>();
  private readonly broad: Cut[] = [];

  constructor(cuts: Iterable<Cut> = []) {
    for (const c of cuts) this.add(c);
  }

  add(c: Cut): void {
    const user = c.filter === "all" ? undefined : c.filter.user;
    const list = user === undefined ? this.broad : this.byUser.get(user) ?? this.byUser.set(user, []).get(user)!;
    const id = cutId(c);
    const at = list.findIndex((x) => cutId(x) === id);
    if (at >= 0) list.splice(at, 1);
    list.push(c);
  }

  /** The kill by identity that reaches `e` and is later than `issued` (ms: a session's start; iat: its token's), if any. */
  find(e: Identity, issued: { readonly ms?: number; readonly iat?: number | undefined }): Cut | undefined {
    const named = this.byUser.get(e.user);
    // the common case, on every authenticate: no kill names this user, none is broad
    if (named === undefined && this.broad.length === 0) return undefined;
    const reached = (c: Cut) =>
      reaches(c.by, e) && matches(e, c.filter) && ((issued.ms !== undefined && issued.ms < c.at) || issuedBefore(issued.iat, c.at));
    return named?.find(reached) ?? this.broad.find(reached);
  }
}

/** Every kill by identity in the store (kept: a token issued before one may live long; one per killer level and filter). */
export async function readCuts(kv: KvTransaction): Promise<CutIndex> {
  const cuts: Cut[] = [];
  for await (const batch of kv.scan(stateRange("sc"))) for (const [, v] of batch) cuts.push(decodeJson<Cut>(v));
  return new CutIndex(cuts);
}
