// exec/: the execution context — engine core, session, transaction, variables, current document, and whose rights run.

import type { DefinitionChange } from "./contract.js";
import type { Catalog } from "../store/catalog.js";
import type { IndexStore } from "../store/indexes.js";
import type { RecordStore } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import { DATA_FREE_CODES } from "../errors/catalogue.js";
import { SurrealError, queryError } from "../errors/index.js";
import type { Value } from "../value/types.js";
import type { Denial, SchemaDefinition } from "../doc/env.js";
import type { Decision } from "../doc/decide.js";
import type { Actor, Clock, Compat, Session } from "./session.js";
import { checkSettable, isProtected } from "./protected.js";
import { Budget } from "./budget.js";

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
  /** Is a call of `name` refused by the server's capabilities (`--deny-funcs`)? */
  functionDenied?(name: string): boolean;
  notify(change: DefinitionChange): void;
  /** A new transaction over the engine's store (one per statement, or per BEGIN … COMMIT block). */
  begin(): Promise<Transaction>;
  /** An unexpected error inside a statement (a bug): for the server log; the client sees a generic text. */
  reportInternal(error: unknown): void;
  /** Receives each PERMISSIONS refusal with the session refused (`--log-denials`); undefined when off. */
  readonly onDenied: ((denial: Denial, session: Session) => void) | undefined;
}

/**
 * A chain of variable scopes. What the client names (query variables, LET, FOR, closure and function
 * parameters) goes through `set` / `child`, which refuse protected names; the engine's own document
 * variables (`$value`, `$input`, `$before`, `$after`, `$parent`, `$event`) only through `engine`.
 * Two kinds of root: the client's (query variables over the connection's RPC `let` params) and a schema
 * body's (`Vars.schema`), which holds none of the client's variables: what the schema owner wrote sees
 * only the engine's bindings, its own LETs and arguments, and DEFINE PARAMs.
 */
export class Vars {
  private readonly map = new Map<string, Value>();
  private constructor(
    private readonly parent: Vars | undefined,
    readonly compat: Compat,
    /** Root only: the connection's params (client root) — looked up after every scope, before DEFINE PARAM. */
    private readonly connection: ReadonlyMap<string, Value> | undefined,
    /** Root only: an access clause's credentials (schema root) — looked up after DEFINE PARAM, never shadowing one. */
    private readonly credentials: ReadonlyMap<string, Value> | undefined,
  ) {}

  /** The client's outermost scope: its query variables over its connection's params. */
  static root(compat: Compat, bind: Readonly<Record<string, Value>> = {}, connection?: ReadonlyMap<string, Value>): Vars {
    return new Vars(undefined, compat, connection, undefined).bindAll(bind);
  }

  /** The root of a schema body (PERMISSIONS, field clauses, events, access clauses, function bodies, param values). */
  static schema(compat: Compat, credentials: Readonly<Record<string, Value>> = {}): Vars {
    for (const name of Object.keys(credentials)) checkSettable(name, compat);
    return new Vars(undefined, compat, undefined, new Map(Object.entries(credentials)));
  }

  has(name: string): boolean {
    if (this.map.has(name)) return true;
    if (this.parent) return this.parent.has(name);
    return this.connection !== undefined && this.connection.has(name) && !isProtected(name, this.compat);
  }

  get(name: string): Value {
    if (this.map.has(name)) return this.map.get(name);
    if (this.parent) return this.parent.get(name);
    return this.connection !== undefined && !isProtected(name, this.compat) ? this.connection.get(name) : undefined;
  }

  /** An access clause's credential `name` (consulted only when no DEFINE PARAM has that name). */
  credential(name: string): Value {
    return this.parent ? this.parent.credential(name) : this.credentials?.get(name);
  }

  /** A client binding; a protected name is refused. */
  set(name: string, v: Value): void {
    checkSettable(name, this.compat);
    this.map.set(name, v);
  }

  /** A new scope with client bindings. */
  child(bind: Readonly<Record<string, Value>> = {}): Vars {
    return new Vars(this, this.compat, undefined, undefined).bindAll(bind);
  }

  /** A new scope with the engine's bindings; never fed names from client text. */
  engine(bind: Readonly<Record<string, Value>>): Vars {
    const c = new Vars(this, this.compat, undefined, undefined);
    for (const [k, v] of Object.entries(bind)) c.map.set(k, v);
    return c;
  }

  private bindAll(bind: Readonly<Record<string, Value>>): this {
    for (const [k, v] of Object.entries(bind)) this.set(k, v);
    return this;
  }
}

/** Where a schema body's definition lives: the namespace / database the session stood in when the body began. */
export interface Home {
  readonly ns: string | undefined;
  readonly db: string | undefined;
}

/**
 * Whose rights an expression runs with. What the client wrote (query text, WHERE operands, data clauses) runs
 * with the client's rights. A PERMISSIONS clause (table, field, param, function), an event and a DEFINE PARAM
 * value run with the schema owner's rights, which skip table, field, param and function PERMISSIONS. The other
 * schema bodies (field VALUE / DEFAULT / ASSERT, access clauses, function bodies) keep the invoker's rights, as
 * SurrealDB runs them. Every schema body carries its home (the database holding its definition): whoever
 * triggered it, it may do no more than an EDITOR of that database (rbac.ts) and reaches no other namespace or
 * database (`needNs` / `needDb` below), since an EDITOR may write it and an OWNER run it (pentest F10, R1).
 * The class is not exported: `clientCtx`, `ownerCtx`, `bodyCtx` and `clauseCtx` are the only ways to make one.
 */
class Rights {
  /** The stored definition owner rights were granted for; undefined for the client's own rights. */
  readonly #grantedFor: SchemaDefinition | undefined;
  readonly #home: Home | undefined;

  constructor(grantedFor: SchemaDefinition | undefined, home: Home | undefined) {
    this.#grantedFor = grantedFor;
    this.#home = home;
  }

  /** True for the schema owner's rights: PERMISSIONS clauses are not evaluated. */
  get owner(): boolean {
    return this.#grantedFor !== undefined;
  }

  /** True inside what the schema owner wrote (any clause or body of a stored definition). */
  get inSchemaBody(): boolean {
    return this.#home !== undefined;
  }

  /** Inside a schema body: the namespace / database of its definition, the only place it may act. */
  get home(): Home | undefined {
    return this.#home;
  }

  /** The definition owner rights were granted for (logs and tests). */
  get grantedFor(): SchemaDefinition | undefined {
    return this.#grantedFor;
  }

  /** The same rights inside a schema body at `home` (an enclosing body's home stays). */
  inBody(home: Home): Rights {
    return this.#home ? this : new Rights(this.#grantedFor, home);
  }

  /** A closure's rights: never the owner's unless the invoker has them too, and a schema body's home if either has one. */
  static lesser(madeWith: Rights, invoker: Rights): Rights {
    const base = madeWith.owner ? invoker : madeWith;
    const home = madeWith.#home ?? invoker.#home;
    return home ? base.inBody(home) : base;
  }
}

export type { Rights };

const CLIENT_RIGHTS = new Rights(undefined, undefined);

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
  /** The query's time limit, checked (and the event loop yielded to) at every checkpoint. */
  readonly budget: Budget;
  /** Hears every permission decision the query makes (Connection.explain); undefined otherwise. */
  readonly explain?: ((decision: Decision) => void) | undefined;
  /** `OPTION IMPORT` is on for the rest of the query (an EDITOR's or above): field clauses and events do not run. */
  readonly importing?: boolean;
}

/** What a nested evaluation may change; never whose rights it runs with. */
export interface CtxPatch {
  readonly vars?: Vars;
  readonly doc?: Value;
  /** A tighter budget (a statement's TIMEOUT clause). */
  readonly budget?: Budget;
}

export const MAX_DEPTH = 120;

/** A statement's context: the session's own (client) rights, within `budget` (default: no time limit). */
export function clientCtx(core: EngineCore, session: Session, txn: Transaction, vars: Vars, budget = Budget.of(Infinity), explain?: (decision: Decision) => void, importing = false): Ctx {
  return { core, session, txn, vars, rights: CLIENT_RIGHTS, doc: undefined, depth: 0, budget, explain, importing };
}

function nested(ctx: Ctx, rights: Rights, patch: CtxPatch): Ctx {
  const depth = ctx.depth + 1;
  if (depth > MAX_DEPTH) throw queryError("ComputationDepthExceeded");
  return { core: ctx.core, session: ctx.session, txn: ctx.txn, vars: patch.vars ?? ctx.vars, rights, doc: "doc" in patch ? patch.doc : ctx.doc, depth, budget: patch.budget ?? ctx.budget, explain: ctx.explain, importing: ctx.importing };
}

/** A nested context with the same rights. */
export function withCtx(ctx: Ctx, patch: CtxPatch): Ctx {
  return nested(ctx, ctx.rights, patch);
}

/** What a schema body starts with besides the engine core: the document, the engine's bindings, its arguments. */
export interface BodyPatch {
  readonly doc?: Value;
  /** The engine's variables (`$value`, `$before`, `$event`, …; names without `$`). */
  readonly bind?: Readonly<Record<string, Value>>;
  /** Function arguments (refused if protected, as every client-named variable). */
  readonly args?: Readonly<Record<string, Value>>;
}

/** A schema body's variables: a fresh root, never the client's query variables, LETs or connection params. */
function bodyVars(ctx: Ctx, patch: BodyPatch): Vars {
  return Vars.schema(ctx.core.compat).engine(patch.bind ?? {}).child(patch.args ?? {});
}

function bodyPatch(ctx: Ctx, patch: BodyPatch): CtxPatch {
  return "doc" in patch ? { vars: bodyVars(ctx, patch), doc: patch.doc } : { vars: bodyVars(ctx, patch) };
}

/** A body's home: where the session stands as it begins (its definition was found there; a body never moves it). */
function homeOf(session: Session): Home {
  return { ns: session.ns, db: session.db };
}

/** The context a PERMISSIONS clause, event or param value of the stored definition `def` runs in: the schema owner's rights. */
export function ownerCtx(ctx: Ctx, def: SchemaDefinition, patch: BodyPatch = {}): Ctx {
  return nested(ctx, new Rights(def, ctx.rights.home ?? homeOf(ctx.session)), bodyPatch(ctx, patch));
}

/** How the client is told which owner-rights body failed: its kind and names, from the schema. */
const BODY_NAME: { readonly [K in SchemaDefinition["kind"]]: (def: Extract<SchemaDefinition, { kind: K }>) => string } = {
  Where: () => "a PERMISSIONS clause",
  DefineEvent: (def) => `the event \`${def.name}\` on table \`${def.table}\``,
  DefineParam: (def) => `the parameter $${def.name}`,
  DefineField: () => "a field clause",
  DefineTable: (def) => `the view \`${def.name}\``,
};

/**
 * An error leaving a body run with the owner's rights for `def` towards a client whose PERMISSIONS apply: the body read
 * with rights the client lacks, so a text that may carry data becomes one naming the body only (attack A9; SurrealDB
 * passes it through, e.g. an event's cast error printing a PERMISSIONS NONE record).
 */
export function ownerBodyError(def: SchemaDefinition, e: unknown): unknown {
  if (!(e instanceof SurrealError) || DATA_FREE_CODES.has(e.code)) return e;
  return queryError("OwnerBodyFailed", (BODY_NAME[def.kind] as (d: SchemaDefinition) => string)(def));
}

/** The context a field VALUE / DEFAULT / ASSERT or a function body runs in: the invoker's rights, capped at the body's home. */
export function bodyCtx(ctx: Ctx, patch: BodyPatch = {}): Ctx {
  return nested(ctx, ctx.rights.inBody(homeOf(ctx.session)), bodyPatch(ctx, patch));
}

/** An access clause's context (SIGNUP / SIGNIN / AUTHENTICATE): the session's rights in a schema body; credentials never shadow a DEFINE PARAM. */
export function clauseCtx(core: EngineCore, session: Session, txn: Transaction, credentials: Readonly<Record<string, Value>>, budget = Budget.of(Infinity)): Ctx {
  return { core, session, txn, vars: Vars.schema(core.compat, credentials), rights: CLIENT_RIGHTS.inBody(homeOf(session)), doc: undefined, depth: 0, budget };
}

/**
 * The context a closure body runs in: the invoker's session and transaction, the closure's variables, and the
 * lesser rights — a closure the client wrote keeps the client's rights even when a schema clause invokes it.
 */
export function closureCtx(invoker: Ctx, madeWith: Rights, vars: Vars): Ctx {
  return nested(invoker, Rights.lesser(madeWith, invoker.rights), { vars });
}

/**
 * Every actor below root stays at its level for everything (tables, params, functions, INFO): a namespace user in
 * its namespace, a database or record user in its namespace and database. Stricter than SurrealDB for system users,
 * which it lets work elsewhere under table PERMISSIONS like a guest (pentest F9). A schema body stays at its home,
 * whoever runs it (pentest R1).
 */
function confine(ctx: Ctx, ns: string, db: string | undefined): void {
  const home = ctx.rights.home;
  if (home !== undefined) stayAt(home.ns, home.db, ns, db);
  const actor = ctx.session.actor;
  if (actor.level === "Root" || actor.level === "No") return;
  stayAt(actor.ns, actor.db, ns, actor.level === "Namespace" ? undefined : db);
}

/** SurrealDB's permission error unless the `ns` and `db` named (undefined: not named) are the allowed ones. */
export function stayAt(allowedNs: string | undefined, allowedDb: string | undefined, ns: string | undefined, db: string | undefined): void {
  if (ns !== undefined && allowedNs !== ns) throw queryError("NsNotAllowed", ns);
  if (db !== undefined && allowedDb !== db) throw queryError("DbNotAllowed", db);
}

/** The selected namespace, or SurrealDB's error. */
export function needNs(ctx: Ctx): string {
  const ns = ctx.session.ns;
  if (ns === undefined || ns === "") throw queryError("NsEmpty");
  confine(ctx, ns, undefined);
  return ns;
}

/** The selected database, or SurrealDB's error. */
export function needDb(ctx: Ctx): string {
  const ns = needNs(ctx);
  const db = ctx.session.db;
  if (db === undefined || db === "") throw queryError("DbEmpty");
  confine(ctx, ns, db);
  return db;
}

/** The selected namespace and database when both are set (within the actor's level only), else undefined. */
export function selectedDb(ctx: Ctx): { ns: string; db: string } | undefined {
  const { ns, db } = ctx.session;
  if (ns === undefined || ns === "" || db === undefined || db === "") return undefined;
  confine(ctx, ns, db);
  return { ns, db };
}
