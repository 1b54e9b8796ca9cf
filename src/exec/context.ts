// exec/: the execution context — engine core, session, transaction, variables, current document, and whose rights run.

import type { DefinitionChange } from "./contract.js";
import type { Catalog } from "../store/catalog.js";
import type { IndexStore } from "../store/indexes.js";
import type { RecordStore } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import { queryError } from "../errors/index.js";
import type { Value } from "../value/types.js";
import type { SchemaDefinition } from "../doc/env.js";
import type { Actor, Clock, Compat, Session } from "./session.js";
import { checkSettable } from "./protected.js";

/** What every statement can reach of the engine. */
export interface EngineCore {
  readonly compat: Compat;
  readonly clock: Clock;
  readonly catalog: Catalog;
  readonly records: RecordStore;
  readonly indexes: IndexStore;
  /** Authentication enabled: anonymous actors are guests, not all-powerful. */
  readonly auth: boolean;
  readonly allowGuests: boolean;
  /** Answer equality permissions / conditions with lookups (off only to compare against full scans). */
  readonly pushdown: boolean;
  notify(change: DefinitionChange): void;
}

/**
 * A chain of variable scopes. What the client names (query variables, LET, FOR, closure and function
 * parameters) goes through `set` / `child`, which refuse protected names; the engine's own document
 * variables (`$value`, `$input`, `$before`, `$after`, `$parent`, `$event`) only through `engine`.
 */
export class Vars {
  private readonly map = new Map<string, Value>();
  private constructor(
    private readonly parent: Vars | undefined,
    readonly compat: Compat,
  ) {}

  /** The outermost scope, holding the client's query variables. */
  static root(compat: Compat, bind: Readonly<Record<string, Value>> = {}): Vars {
    return new Vars(undefined, compat).bindAll(bind);
  }

  has(name: string): boolean {
    return this.map.has(name) || (this.parent?.has(name) ?? false);
  }

  get(name: string): Value {
    if (this.map.has(name)) return this.map.get(name);
    return this.parent?.get(name);
  }

  /** A client binding; a protected name is refused. */
  set(name: string, v: Value): void {
    checkSettable(name, this.compat);
    this.map.set(name, v);
  }

  /** A new scope with client bindings. */
  child(bind: Readonly<Record<string, Value>> = {}): Vars {
    return new Vars(this, this.compat).bindAll(bind);
  }

  /** A new scope with the engine's bindings; never fed names from client text. */
  engine(bind: Readonly<Record<string, Value>>): Vars {
    const c = new Vars(this, this.compat);
    for (const [k, v] of Object.entries(bind)) c.map.set(k, v);
    return c;
  }

  private bindAll(bind: Readonly<Record<string, Value>>): this {
    for (const [k, v] of Object.entries(bind)) this.set(k, v);
    return this;
  }
}

/**
 * Whose rights an expression runs with. What the client wrote (query text, WHERE operands, data clauses) runs
 * with the client's rights; only a clause of a stored definition (PERMISSIONS, field VALUE / DEFAULT / ASSERT,
 * events, DEFINE PARAM values) runs with the schema owner's, which skip table, field, param and function
 * PERMISSIONS. The class is not exported: `clientCtx` and `ownerCtx` are the only ways to make one.
 */
class Rights {
  /** The stored definition owner rights were granted for; undefined for the client's own rights. */
  readonly #grantedFor: SchemaDefinition | undefined;

  constructor(grantedFor: SchemaDefinition | undefined) {
    this.#grantedFor = grantedFor;
  }

  /** True for the schema owner's rights: PERMISSIONS clauses are not evaluated. */
  get owner(): boolean {
    return this.#grantedFor !== undefined;
  }

  /** The definition owner rights were granted for (logs and tests). */
  get grantedFor(): SchemaDefinition | undefined {
    return this.#grantedFor;
  }
}

export type { Rights };

const CLIENT_RIGHTS = new Rights(undefined);

export interface Ctx {
  readonly core: EngineCore;
  readonly session: Session;
  /** The transaction writes go to; replaced by BEGIN / COMMIT. */
  readonly txn: Transaction;
  readonly vars: Vars;
  /** The client's rights, or the schema owner's while evaluating a clause of a stored definition. */
  readonly rights: Rights;
  /** The current document (`$this`, bare field idioms); NONE outside a document. */
  readonly doc: Value;
  readonly depth: number;
}

/** What a nested evaluation may change; never whose rights it runs with. */
export interface CtxPatch {
  readonly vars?: Vars;
  readonly doc?: Value;
}

export const MAX_DEPTH = 120;

/** A statement's context: the session's own (client) rights. */
export function clientCtx(core: EngineCore, session: Session, txn: Transaction, vars: Vars): Ctx {
  return { core, session, txn, vars, rights: CLIENT_RIGHTS, doc: undefined, depth: 0 };
}

function nested(ctx: Ctx, rights: Rights, patch: CtxPatch): Ctx {
  const depth = ctx.depth + 1;
  if (depth > MAX_DEPTH) throw queryError("ComputationDepthExceeded");
  return { core: ctx.core, session: ctx.session, txn: ctx.txn, vars: patch.vars ?? ctx.vars, rights, doc: "doc" in patch ? patch.doc : ctx.doc, depth };
}

/** A nested context with the same rights. */
export function withCtx(ctx: Ctx, patch: CtxPatch): Ctx {
  return nested(ctx, ctx.rights, patch);
}

/** The context a clause of the stored definition `def` runs in: the schema owner's rights. */
export function ownerCtx(ctx: Ctx, def: SchemaDefinition, patch: CtxPatch = {}): Ctx {
  return nested(ctx, new Rights(def), patch);
}

/**
 * The context a closure body runs in: the invoker's session and transaction, the closure's variables, and the
 * lesser rights — a closure the client wrote keeps the client's rights even when a schema clause invokes it.
 */
export function closureCtx(invoker: Ctx, madeWith: Rights, vars: Vars): Ctx {
  return nested(invoker, madeWith.owner ? invoker.rights : madeWith, { vars });
}

/** Record users stay in their own namespace and database for everything (tables, params, functions, INFO). */
function confine(actor: Actor, ns: string, db: string | undefined): void {
  if (actor.level !== "Record" && actor.level !== "Scope") return;
  if (actor.ns !== ns) throw queryError("NsNotAllowed", ns);
  if (db !== undefined && actor.db !== db) throw queryError("DbNotAllowed", db);
}

/** The selected namespace, or SurrealDB's error. */
export function needNs(ctx: Ctx): string {
  const ns = ctx.session.ns;
  if (ns === undefined || ns === "") throw queryError("NsEmpty");
  confine(ctx.session.actor, ns, undefined);
  return ns;
}

/** The selected database, or SurrealDB's error. */
export function needDb(ctx: Ctx): string {
  const ns = needNs(ctx);
  const db = ctx.session.db;
  if (db === undefined || db === "") throw queryError("DbEmpty");
  confine(ctx.session.actor, ns, db);
  return db;
}

/** The selected namespace and database when both are set (a record user's own only), else undefined. */
export function selectedDb(ctx: Ctx): { ns: string; db: string } | undefined {
  const { ns, db } = ctx.session;
  if (ns === undefined || ns === "" || db === undefined || db === "") return undefined;
  confine(ctx.session.actor, ns, db);
  return { ns, db };
}
