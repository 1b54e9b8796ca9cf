// exec/: the execution context — engine core, session, transaction, variables, current document, permission mode.

import type { DefinitionChange } from "./contract.js";
import type { Catalog } from "../store/catalog.js";
import type { IndexStore } from "../store/indexes.js";
import type { RecordStore } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import { QueryError } from "../errors/index.js";
import type { Value } from "../value/types.js";
import type { Clock, Compat, Session } from "./session.js";
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

export interface Ctx {
  readonly core: EngineCore;
  readonly session: Session;
  /** The transaction writes go to; replaced by BEGIN / COMMIT. */
  readonly txn: Transaction;
  readonly vars: Vars;
  /** False while evaluating PERMISSIONS / VALUE / ASSERT clauses and other system-side expressions. */
  readonly perms: boolean;
  /** The current document (`$this`, bare field idioms); NONE outside a document. */
  readonly doc: Value;
  readonly depth: number;
}

export const MAX_DEPTH = 120;

export function withCtx(ctx: Ctx, patch: Partial<Ctx>): Ctx {
  const next = { ...ctx, ...patch, depth: ctx.depth + 1 };
  if (next.depth > MAX_DEPTH) throw new QueryError("ComputationDepthExceeded", "Reached excessive computation depth due to functions, subqueries, or futures");
  return next;
}

/** The selected namespace, or SurrealDB's error. */
export function needNs(ctx: Ctx): string {
  const ns = ctx.session.ns;
  if (ns === undefined || ns === "") throw new QueryError("NsEmpty", "Specify a namespace to use");
  return ns;
}

/** The selected database, or SurrealDB's error. */
export function needDb(ctx: Ctx): string {
  needNs(ctx);
  const db = ctx.session.db;
  if (db === undefined || db === "") throw new QueryError("DbEmpty", "Specify a database to use");
  return db;
}
