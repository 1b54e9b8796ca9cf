// doc/: what the per-record pipeline needs from exec/ — storage, the transaction, and an Evaluator (the one back-edge).

import type { DefineEventStatement, DefineFieldStatement, DefineParamStatement, DefineTableStatement, Expr, Permission } from "../ast/nodes.js";
import type { Catalog, TableEntry } from "../store/catalog.js";
import type { IndexStore } from "../store/indexes.js";
import type { RecordStore } from "../store/records.js";
import type { Transaction } from "../store/transaction.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { Compat } from "../exec/session.js";
import type { DecideEnv } from "./decide.js";

export type Action = "select" | "create" | "update" | "delete";

/**
 * A record hidden, a field stripped or a write refused by PERMISSIONS, or a statement refused by the actor's roles
 * (`resource` set); reported only when denials are logged.
 */
export interface Denial {
  readonly table?: string;
  readonly action: Action | "use" | "view" | "edit";
  /** A role refusal: the kind of resource (Table, Actor, Namespace …). */
  readonly resource?: string;
  /** The field a field permission hid. */
  readonly field?: string;
  /** The record concerned, as SurrealDB prints it (or the param / function refused). */
  readonly target?: string;
  /** The PERMISSIONS clause that refused, as INFO prints it (`NONE`, `WHERE owner = $auth.id`). */
  readonly clause?: string;
}

/**
 * A stored definition whose clauses the pipeline evaluates: a PERMISSIONS WHERE (table, field, param, function),
 * an event, a param's value and a table view's query run with the schema owner's rights; a field's VALUE / DEFAULT / ASSERT with the
 * invoker's, as do function bodies (not here), as SurrealDB runs them.
 */
export type SchemaDefinition = Extract<Permission, { kind: "Where" }> | DefineFieldStatement | DefineEventStatement | DefineParamStatement | DefineTableStatement;

export interface DocEnv extends DecideEnv {
  readonly catalog: Catalog;
  readonly records: RecordStore;
  readonly indexes: IndexStore;
  readonly txn: Transaction;
  readonly compat: Compat;
  readonly ns: string;
  readonly db: string;
  /** The same environment with the client's own rights (inside an event too): what an error may show is judged by them. */
  clientView(): DocEnv;
  /** As DecideEnv's, and also a field's clauses (with the invoker's rights; PERMISSIONS, events and params with the owner's). */
  evaluate(def: SchemaDefinition, clause: Expr, doc: Value, vars: Readonly<Record<string, Value>>): Promise<Value>;
  /** The table's entry, creating it (PERMISSIONS NONE) when writing — throws the IAM error if the actor may not. */
  ensureTable(tb: string): TableEntry;
  /** Text of an expression as SurrealDB prints it (ASSERT messages, clauses). */
  printExpr(expr: Expr): string;
  /** Text of a value as SurrealDB prints it in messages (`'a@b.com'`, `user:1`). */
  printValue(v: Value): string;
  /** Bring the views reading `table` up to date after a write to it (exec/views.ts; absent: no views, as in unit tests). */
  maintainViews?(table: TableEntry, op: WriteOp, after: ValueObject | undefined): Promise<void>;
  /** Under `OPTION IMPORT` of a system user whom PERMISSIONS do not bind: fields are kept as written, no event runs. */
  readonly importing: boolean;
}

/** One write as field processing and events see it, once the data clause has run. */
export interface WriteOp {
  readonly action: "create" | "update" | "delete";
  readonly rid: RecordId;
  /** The stored record before the write (NONE for create). */
  readonly before: ValueObject | undefined;
  /** The record after the data clause was applied (NONE for delete). */
  readonly after: ValueObject | undefined;
  /** Element rules' merged arrays (elements.ts): the stored value each element is judged against, by path key. */
  readonly olds?: ReadonlyMap<string, Value> | undefined;
  /** The record is a graph edge (RELATE or INSERT RELATION made it, or made it one): its `in` and `out` stay as they are. */
  readonly edge?: boolean | undefined;
}
