// Test double of the QueryEngine contract: an in-memory auth catalog, clauses as JS functions, a fake clock.

import { randomBytes } from "node:crypto";
import argon2 from "argon2";
import type { Base, DefineAccessStatement, DefineUserStatement, DurationClause, Expr, JwtConfig, LegacyAccess, Role } from "../../src/ast/nodes.js";
import type { DefinitionChange, IdentityBook, QueryEngine, QueryResponse, StoredAccess, StoredUser } from "../../src/exec/contract.js";
import type { Clock, Compat, Session } from "../../src/exec/session.js";
import { Duration, RecordId, type Value, type ValueObject } from "../../src/value/types.js";

export class FakeClock implements Clock {
  constructor(public ms = Date.UTC(2026, 0, 1, 0, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export const sec = (n: number) => new Duration(BigInt(n) * 1_000_000_000n);
export const HOUR = 3600;
export const DAY = 86400;

export type ClauseFn = (session: Session, vars: Readonly<Record<string, Value>> | undefined) => Value | Promise<Value>;

/** An Expr that the fake engine evaluates by calling `fn`. */
export function clause(fn: ClauseFn): Expr {
  const expr: Expr = { kind: "Literal", value: `clause#${Math.random()}` };
  clauses.set(expr, fn);
  return expr;
}
const clauses = new WeakMap<Expr, ClauseFn>();

export function randomCode(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(128), (b) => chars[b % chars.length]).join("");
}

/** Cheap argon2id for tests (the bounded verifier accepts it). */
export function cheapHash(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}

const key = (base: Base, ns: string | undefined, db: string | undefined, name: string) =>
  [base, base === "ROOT" ? "" : ns, base === "DATABASE" ? db : "", name].join("/");

export interface EvalCall {
  session: Session;
  vars: Readonly<Record<string, Value>> | undefined;
}

export class FakeEngine implements QueryEngine {
  readonly users = new Map<string, StoredUser>();
  readonly accesses = new Map<string, StoredAccess>();
  readonly records = new Map<string, ValueObject>();
  readonly evalCalls: EvalCall[] = [];
  private listeners: ((c: DefinitionChange) => void)[] = [];

  constructor(
    readonly compat: Compat = 2,
    readonly clock: FakeClock = new FakeClock(),
  ) {}

  readonly catalog = {
    getUser: (base: Base, ns: string | undefined, db: string | undefined, name: string) => this.users.get(key(base, ns, db, name)),
    getAccess: (base: Base, ns: string | undefined, db: string | undefined, name: string) => this.accesses.get(key(base, ns, db, name)),
    committedDefinition: (kind: "user" | "access", base: Base, ns: string | undefined, db: string | undefined, name: string) => (kind === "user" ? this.users : this.accesses).get(key(base, ns, db, name)),
  };

  /** Record identity lifetimes are the real engine's (test/iam/record-lifetime.test.ts): here every record lives. */
  readonly identities: IdentityBook = { watch: () => 0, exists: async () => true, endedAt: () => undefined };

  async syncCatalog(): Promise<void> {}

  endQueries(): void {}

  async execute(query: string | readonly unknown[], session: Session): Promise<QueryResponse[]> {
    if (query !== "SELECT * FROM $auth") throw new Error(`fake engine cannot run ${String(query)}`);
    const rid = session.rd;
    const rec = rid ? this.records.get(`${rid.table}:${String(rid.id)}`) : undefined;
    return [{ status: "OK", result: rec ? [rec] : [], time: "0ns" }];
  }

  async evaluate(expr: Expr, session: Session, vars?: Readonly<Record<string, Value>>): Promise<Value> {
    const fn = clauses.get(expr);
    if (!fn) throw new Error("unknown clause");
    this.evalCalls.push({ session, vars });
    return fn(session, vars);
  }

  onDefinitionChange(listener: (change: DefinitionChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  async defineUser(
    base: Base,
    name: string,
    opts: { ns?: string; db?: string; password?: string; passhash?: string; roles?: Role[]; duration?: DurationClause } = {},
  ): Promise<StoredUser> {
    const def: DefineUserStatement = {
      kind: "DefineUser",
      name,
      base,
      password: undefined,
      passhash: opts.passhash ?? (opts.password !== undefined ? await cheapHash(opts.password) : ""),
      roles: opts.roles ?? ["VIEWER"],
      duration: opts.duration ?? {},
      ifNotExists: false,
      overwrite: false,
      comment: undefined,
    };
    const stored: StoredUser = { def, code: randomCode() };
    this.users.set(key(base, opts.ns, opts.db, name), stored);
    this.notify({ kind: "user", base, ns: opts.ns, db: opts.db, name });
    return stored;
  }

  defineAccess(
    base: Base,
    name: string,
    opts: {
      ns?: string;
      db?: string;
      access: DefineAccessStatement["access"];
      jwt?: JwtConfig;
      authenticate?: Expr;
      duration?: DurationClause;
      legacy?: LegacyAccess;
    },
  ): StoredAccess {
    const def: DefineAccessStatement = {
      kind: "DefineAccess",
      name,
      base,
      access: opts.access,
      authenticate: opts.authenticate,
      duration: opts.duration ?? {},
      legacy: opts.legacy,
      ifNotExists: false,
      overwrite: false,
      comment: undefined,
    };
    const code = randomCode();
    const declared = opts.jwt ?? (opts.access.jwt || undefined);
    const jwt: JwtConfig = declared ?? { verify: { kind: "Key", alg: "HS512", key: code }, issuer: { alg: "HS512", key: code } };
    const stored: StoredAccess = { def, jwt };
    this.accesses.set(key(base, opts.ns, opts.db, name), stored);
    this.notify({ kind: "access", base, ns: opts.ns, db: opts.db, name });
    return stored;
  }

  /** v1 DEFINE SCOPE (desugared as exec/ stores it). */
  defineScope(ns: string, db: string, name: string, opts: { session?: Duration; signin?: Expr; signup?: Expr } = {}): StoredAccess {
    return this.defineAccess("DATABASE", name, {
      ns,
      db,
      access: { kind: "Record", signin: opts.signin, signup: opts.signup, jwt: undefined, refresh: false },
      legacy: { kind: "Scope", session: opts.session },
      duration: { session: opts.session },
    });
  }

  /** v2 DEFINE ACCESS … TYPE RECORD. */
  defineRecordAccess(
    ns: string,
    db: string,
    name: string,
    opts: { signin?: Expr; signup?: Expr; authenticate?: Expr; token?: Duration; session?: Duration; jwt?: JwtConfig } = {},
  ): StoredAccess {
    return this.defineAccess("DATABASE", name, {
      ns,
      db,
      access: { kind: "Record", signin: opts.signin, signup: opts.signup, jwt: opts.jwt, refresh: false },
      authenticate: opts.authenticate,
      duration: { token: opts.token, session: opts.session },
    });
  }

  remove(kind: "user" | "access", base: Base, name: string, ns?: string, db?: string): void {
    (kind === "user" ? this.users : this.accesses).delete(key(base, ns, db, name));
    this.notify({ kind, base, ns, db, name });
  }

  addRecord(rid: RecordId, fields: ValueObject = {}): ValueObject {
    const rec = { id: rid, ...fields };
    this.records.set(`${rid.table}:${String(rid.id)}`, rec);
    return rec;
  }

  private notify(change: DefinitionChange): void {
    for (const l of this.listeners) l(change);
  }
}
