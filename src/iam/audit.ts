// iam/: audit events (who signed in, who was refused, whose session ended) as typed records for the log stream and
// the audit file. Every feature reports through `Audit.emit`; no event ever carries a password, token or hash.

import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import type { Actor, AuthLevel, Clock, Session } from "../exec/session.js";
import { isExpired, systemClock } from "../exec/session.js";
import { isValueObject, type ValueObject } from "../value/types.js";
import { readCredentials } from "./credentials.js";
import { decodeToken } from "./verify.js";

/** Every kind of audit event, as written in the `event` field. */
export const AUDIT_EVENTS = [
  "signin",
  "signup",
  "authenticate",
  "refresh",
  "revoke",
  "invalidate",
  "session_expired",
  "session_killed",
  "permission_denied",
  "throttled",
] as const;
export type AuditEventKind = (typeof AUDIT_EVENTS)[number];

export type AuditOutcome = "success" | "failure";

/** Who the event is about: the kind of identity and its names (null when unknown or not applicable). */
export interface AuditIdentity {
  /** root | namespace | database | record | scope (v1) | anonymous. */
  readonly identity: string;
  /** System user name. */
  readonly user: string | null;
  /** Record user's record id. */
  readonly record: string | null;
  /** Access method (v2) or scope (v1). */
  readonly access: string | null;
  readonly ns: string | null;
  readonly db: string | null;
}

/** One event as written: fixed fields first (null when unknown), then the event's own. */
export interface AuditEvent extends AuditIdentity {
  readonly time: string;
  readonly event: AuditEventKind;
  readonly outcome: AuditOutcome;
  /** A stable code: "ok", or the error's code (InvalidAuth, ExpiredToken, NoRecordFound, ExpiredSession, …). */
  readonly reason: string;
  readonly ip: string | null;
  readonly session: string | null;
  /** The log-only detail (why an InvalidAuth failed); never sent to a client. */
  readonly detail?: string;
  /** How the identity was presented: rpc, basic (HTTP Basic), bearer (HTTP Authorization), reset … */
  readonly via?: string;
  /** permission_denied: the table, the action refused, the field hidden, the record concerned; a role refusal's resource kind. */
  readonly table?: string;
  readonly action?: string;
  readonly field?: string;
  readonly target?: string;
  readonly resource?: string;
  /** Anything else a feature adds (retry_after, by, family …): scalars only. */
  readonly [extra: string]: string | number | boolean | null | undefined;
}

/** What a caller hands to `Audit.emit`. */
export interface AuditInput {
  readonly event: AuditEventKind;
  readonly outcome: AuditOutcome;
  readonly reason: string;
  /** The session concerned: identity, ns/db, client IP and session id are read from it. */
  readonly session?: Session | undefined;
  /** Fields to use instead of the session's (a failed signin's attempted identity, a killed registry entry). */
  readonly attempt?: Partial<AuditIdentity & { readonly ip: string | null; readonly session: string | null }> | undefined;
  readonly detail?: string | undefined;
  readonly via?: string | undefined;
  readonly table?: string | undefined;
  readonly action?: string | undefined;
  readonly field?: string | undefined;
  readonly target?: string | undefined;
  readonly resource?: string | undefined;
  readonly extra?: Readonly<Record<string, string | number | boolean | null>> | undefined;
  /** Values to blank out of `detail` (a signin's credential values), in case an error text quotes one. */
  readonly secrets?: readonly string[] | undefined;
}

/** A destination of audit events (the log stream, the audit file, a test's array). */
export type AuditWriter = (event: AuditEvent) => void;

/** Keys an event never carries, whatever a caller passes in `extra`. */
const SECRET_KEY = /pass|secret|token|key|hash|authorization|refresh|credential/i;
const LEVEL: Record<AuthLevel, string> = {
  No: "anonymous",
  Root: "root",
  Namespace: "namespace",
  Database: "database",
  Scope: "scope",
  Record: "record",
};

/** The identity of an actor at `level` named `id` (a user name or a record id), with its access method, ns and db. */
export function levelIdentity(level: AuthLevel, id: string, access: string | null, ns: string | null, db: string | null): AuditIdentity {
  const isRecord = level === "Record" || level === "Scope";
  const isUser = level === "Root" || level === "Namespace" || level === "Database";
  return { identity: LEVEL[level], user: isUser ? id : null, record: isRecord ? id : null, access, ns, db };
}

/** The identity a session stands for now. */
export function sessionIdentity(session: Session | undefined): AuditIdentity {
  if (!session) return levelIdentity("No", "", null, null, null);
  const { actor } = session;
  return levelIdentity(actor.level, actor.id, session.ac ?? null, actor.ns ?? session.ns ?? null, actor.db ?? session.db ?? null);
}

/** The identity signin / signup credentials try to reach (no secret: names only). */
export function attemptedIdentity(vars: ValueObject, compat: 1 | 2): Partial<AuditIdentity> {
  const { ns, db, ac, user } = readCredentials(vars, compat);
  const identity = ac !== undefined ? (compat === 1 ? "scope" : "record") : db !== undefined ? "database" : ns !== undefined ? "namespace" : "root";
  return { identity, user: ac === undefined ? (user ?? null) : null, record: null, access: ac ?? null, ns: ns ?? null, db: db ?? null };
}

/** Longest name an event copies from a client's input (a forged token may claim anything). */
const NAME_MAX = 256;
const name = (v: string | undefined): string | null => (v === undefined ? null : v.slice(0, NAME_MAX));

/** The identity a token claims, unverified (for a failed authenticate); "unknown" when it does not decode. */
export function claimedIdentity(token: string, compat: 1 | 2): AuditIdentity {
  try {
    const { claims: c } = decodeToken(token, compat);
    const access = compat === 1 ? c.SC : c.AC;
    const identity = access !== undefined ? (compat === 1 ? "scope" : "record") : c.DB !== undefined ? "database" : c.NS !== undefined ? "namespace" : "root";
    const isRecord = access !== undefined;
    return { identity, user: isRecord ? null : name(c.ID), record: isRecord ? name(c.ID) : null, access: name(access ?? c.TK), ns: name(c.NS), db: name(c.DB) };
  } catch {
    return { identity: "unknown", user: null, record: null, access: null, ns: null, db: null };
  }
}

/** Names a signin / signup credential object routes by; every other string value may be a secret. */
const ROUTING = new Set(["NS", "ns", "DB", "db", "AC", "ac", "SC", "sc", "user"]);

/** The credential values that could be secrets (strings at any depth, 4 characters or more), to blank out of any text logged about the attempt. */
export function credentialSecrets(vars: ValueObject): string[] {
  const out: string[] = [];
  const collect = (v: unknown, depth: number): void => {
    if (typeof v === "string") {
      if (v.length >= 4) out.push(v);
    } else if (depth < 4 && Array.isArray(v)) for (const x of v) collect(x, depth + 1);
    else if (depth < 4 && isValueObject(v)) for (const x of Object.values(v)) collect(x, depth + 1);
  };
  for (const [k, v] of Object.entries(vars)) if (!ROUTING.has(k)) collect(v, 0);
  return out;
}

/** `text` with every occurrence of each secret replaced. */
export function scrub(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join("[REDACTED]");
  return out;
}

/** The sink every feature reports to; writes each event to every writer, synchronously and in order. */
export class Audit {
  /** Sessions whose end was reported, with the identity they had then (reported once per identity). */
  private readonly ended = new WeakMap<Session, Actor>();

  constructor(
    private readonly writers: readonly AuditWriter[] = [],
    private readonly clock: Clock = systemClock,
  ) {}

  /** Record one event. Never throws: a failing writer loses its copy only. */
  emit(input: AuditInput): void {
    if (this.writers.length === 0) return;
    const event = this.build(input);
    for (const w of this.writers) {
      try {
        w(event);
      } catch {
        // a writer's failure (a full disk) must not fail the request being audited
      }
    }
  }

  /** A call refused with "The session has expired": past its exp, or ended (its record or definition gone, killed). */
  sessionExpired(session: Session): void {
    if (this.ended.get(session) === session.actor) return;
    this.ended.set(session, session.actor);
    const detail = session.killed ? "killed" : isExpired(session, this.clock) ? "expired" : "ended";
    this.emit({ event: "session_expired", outcome: "failure", reason: "ExpiredSession", session, detail });
  }

  private build(input: AuditInput): AuditEvent {
    const who = { ...sessionIdentity(input.session), ip: input.session?.ip ?? null, session: input.session?.id ?? null, ...input.attempt };
    const extra: Record<string, string | number | boolean | null> = {};
    for (const [k, v] of Object.entries(input.extra ?? {})) if (!SECRET_KEY.test(k)) extra[k] = typeof v === "string" ? scrub(v, input.secrets) : v;
    return {
      time: new Date(this.clock.now()).toISOString(),
      event: input.event,
      outcome: input.outcome,
      reason: input.reason,
      ...who,
      ...(input.via !== undefined ? { via: input.via } : {}),
      ...(input.detail !== undefined ? { detail: scrub(input.detail, input.secrets) } : {}),
      ...(input.table !== undefined ? { table: input.table } : {}),
      ...(input.action !== undefined ? { action: input.action } : {}),
      ...(input.field !== undefined ? { field: input.field } : {}),
      ...(input.target !== undefined ? { target: input.target } : {}),
      ...(input.resource !== undefined ? { resource: input.resource } : {}),
      ...extra,
    };
  }
}

/** An Audit that writes nowhere (the default of the embedded API without a logger). */
export const silentAudit = new Audit();

/**
 * A writer appending each event as one JSON line to `path` (created if absent, mode 0600). Each line is written with
 * one write(2) before `emit` returns, so a crash of the process loses nothing already emitted; `fsync` on close and
 * reopen. `reopen` (SIGHUP) starts writing to a new file at `path` once a log rotation has moved the old one away.
 */
export function auditFileWriter(path: string): { write: AuditWriter; reopen(): void; close(): void } {
  let fd: number | undefined = openSync(path, "a", 0o600);
  const close = (): void => {
    if (fd === undefined) return;
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  };
  return {
    write: (event) => {
      if (fd !== undefined) writeSync(fd, `${JSON.stringify(event)}\n`);
    },
    reopen: () => {
      if (fd === undefined) return;
      close();
      fd = openSync(path, "a", 0o600);
    },
    close,
  };
}
