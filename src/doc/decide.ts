// doc/: the one permission decision — a table's, field's, param's or function's PERMISSIONS clause, for an action, on a
// document, under the session's identity. Every check goes through `decide`; explain and denial logging listen to it.
//
// Invariants (SECURITY.md "The rules we enforce, and where"):
// - a clause is the schema owner's text, evaluated through `env.evaluate` with the owner's rights (ownerCtx): it sees no
//   client variable, and `$this`, `$value`, `$auth`, `$session` … are the engine's (protected names cannot be rebound);
// - nothing the client wrote (query text, WHERE, data clauses) is ever decided here: it runs with the client's rights;
// - a WHERE's error is the statement's (reported as where-error, never as an allowed record); errors leaving a clause
//   towards a client whose PERMISSIONS apply carry no data (`evaluateAsOwner`);
// - the observer only hears: the outcome is computed before it is called and it cannot change it.

import type { DefineFieldStatement, DefineFunctionStatement, DefineParamStatement, Expr, Permission } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import { isTruthy } from "../value/index.js";
import type { Value } from "../value/types.js";
import { RecordId, isValueObject } from "../value/types.js";
import type { Action, Denial, SchemaDefinition } from "./env.js";
import type { Path } from "./paths.js";

/**
 * What is judged: a table, one path of a record a field definition covers (`tags[*]` covers each element), or a
 * DEFINE PARAM / DEFINE FUNCTION (their single permission, action `use`).
 */
export type Judged =
  | { readonly kind: "table"; readonly table: TableEntry }
  | { readonly kind: "field"; readonly table: TableEntry; readonly field: DefineFieldStatement; readonly path: Path }
  | { readonly kind: "param"; readonly def: DefineParamStatement }
  | { readonly kind: "function"; readonly def: DefineFunctionStatement };

/**
 * How a decision was reached: the actor's roles bypass PERMISSIONS, the clause is FULL or NONE, or its WHERE gave a
 * truthy value, a falsy one, or an error (which the statement raises).
 */
export type DecisionReason = "bypass" | "full" | "none" | "where-true" | "where-false" | "where-error";

/**
 * The session values a WHERE clause refers to, as SurrealQL text, with which it was evaluated: `$auth`, `$access`
 * (compat 2) or `$scope` (compat 1), `$token`, `$session`.
 */
export interface DecisionValues {
  readonly auth?: string;
  readonly access?: string;
  readonly scope?: string;
  readonly token?: string;
  readonly session?: string;
}

/** One permission decision and its reason; plain JSON (a key that does not apply holds undefined: absent once serialised). */
export interface Decision {
  readonly kind: Judged["kind"];
  /** The table (table and field decisions). */
  readonly table?: string;
  /** The field definition's name (`tags[*]`), and the path of the record it judged (`tags[1]`). */
  readonly field?: string;
  readonly path?: string;
  /** The param (`$name`) or function (`fn::name`) judged. */
  readonly name?: string;
  /** The record judged, as SurrealDB prints it (absent when there is none: a NONE pre-check, a 1.x create of nothing). */
  readonly record?: string;
  readonly action: Action | "use";
  /** The clause as INFO prints it: `NONE`, `FULL`, `WHERE owner = $auth.id`. */
  readonly clause: string;
  readonly allowed: boolean;
  readonly reason: DecisionReason;
  /** The session values a WHERE refers to (absent when it refers to none, and for NONE, FULL and a bypass). */
  readonly values?: DecisionValues;
  /** A WHERE that failed: the error's text (the statement raises it). */
  readonly error?: string;
}

/** Who listens to decisions: explain hears every one (`all`); denial logging only the refusals. */
export interface DecisionObserver {
  readonly all: boolean;
  decided(decision: Decision): void;
}

/** What a decision needs: the actor's standing, the clause evaluator, and (optionally) an observer. */
export interface DecideEnv {
  readonly compat: 1 | 2;
  /** Must PERMISSIONS be evaluated for this actor (reads: any role bypasses; writes: editor/owner)? */
  permissionsApply(write: boolean): boolean;
  /** Evaluate `clause` of `def` with `doc` as `$this` and `vars` bound (the schema owner's rights for a PERMISSIONS WHERE). */
  evaluate(def: SchemaDefinition, clause: Expr, doc: Value, vars: Readonly<Record<string, Value>>): Promise<Value>;
  /** Absent when nobody listens: then no Decision is ever built. */
  readonly observe?: DecisionObserver | undefined;
  /** Of `$auth`, `$access` / `$scope`, `$token`, `$session`, those `clause` refers to, as SurrealQL text (asked only when observed). */
  identity(clause: Expr): DecisionValues;
  printExpr(expr: Expr): string;
  printValue(v: Value): string;
}

/** The permission that decides `action` for what is judged. */
function permissionOf(judged: Judged, action: Action): Permission {
  switch (judged.kind) {
    case "table":
      return judged.table.def.permissions[action];
    case "field":
      return judged.field.permissions[action];
    case "param":
    case "function":
      return judged.def.permissions;
  }
}

/**
 * Does the permission allow `action` on `doc`? Bypassed (true) when the actor's roles cover it. A Decision is built only
 * for an observer that wants it (explain: every one; denial logging: refusals). A WHERE that throws raises its error.
 */
export async function decide(env: DecideEnv, judged: Judged, action: Action, doc: Value, vars: Readonly<Record<string, Value>>): Promise<boolean> {
  const perm = permissionOf(judged, action);
  const obs = env.observe;
  // 1. system users with a covering role, and the schema owner's rights, bypass PERMISSIONS
  if (!env.permissionsApply(action !== "select")) {
    return obs?.all ? report(env, judged, action, doc, perm, true, "bypass") : true;
  }
  // 2. NONE denies and FULL allows without evaluating anything
  if (perm.kind !== "Where") {
    const allowed = perm.kind === "Full";
    return obs && (obs.all || !allowed) ? report(env, judged, action, doc, perm, allowed, allowed ? "full" : "none") : allowed;
  }
  // 3. WHERE: evaluated with the schema owner's rights against the document (its error is the statement's)
  let allowed: boolean;
  try {
    allowed = isTruthy(await env.evaluate(perm, perm.cond, doc, vars), { compat: env.compat });
  } catch (e) {
    if (obs) report(env, judged, action, doc, perm, false, "where-error", e instanceof Error ? e.message : String(e));
    throw e;
  }
  return obs && (obs.all || !allowed) ? report(env, judged, action, doc, perm, allowed, allowed ? "where-true" : "where-false") : allowed;
}

/** The quick pre-check SurrealDB makes before any clause runs: a table's NONE denies, anything else goes on (reported by `decide`). */
export function decideQuick(env: DecideEnv, judged: Extract<Judged, { kind: "table" }>, action: Action, doc: Value): boolean {
  const perm = judged.table.def.permissions[action];
  if (perm.kind !== "None" || !env.permissionsApply(action !== "select")) return true;
  if (env.observe) report(env, judged, action, doc, perm, false, "none");
  return false;
}

/** Build the decision (keys in this order; those that do not apply are undefined), hand it to the listener, return its outcome. */
function report(env: DecideEnv, judged: Judged, action: Action, doc: Value, perm: Permission, allowed: boolean, reason: DecisionReason, error?: string): boolean {
  const table = judged.kind === "table" || judged.kind === "field" ? judged.table.def.name : undefined;
  const field = judged.kind === "field" ? judged : undefined;
  const named = judged.kind === "param" ? `$${judged.def.name}` : judged.kind === "function" ? `fn::${judged.def.name}` : undefined;
  const id = isValueObject(doc) ? doc["id"] : undefined;
  // (the denial log names no values: only explain pays for them)
  const values = perm.kind === "Where" && reason !== "bypass" && env.observe!.all ? env.identity(perm.cond) : undefined;
  env.observe!.decided({
    kind: judged.kind,
    table,
    field: field && clauseText(env, field.field.name),
    path: field && pathText(field.path),
    name: named,
    record: id instanceof RecordId ? env.printValue(id) : undefined,
    action: named === undefined ? action : "use",
    clause: clauseText(env, perm),
    allowed,
    reason,
    values: values && Object.keys(values).length > 0 ? values : undefined,
    error,
  });
  return allowed;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Texts already printed, per compat (a stored definition's clause is the same object until it is redefined). */
const TEXTS = { 1: new WeakMap<object, string>(), 2: new WeakMap<object, string>() };

/** A permission as INFO prints it (`NONE`, `FULL`, `WHERE …`), or a field's name (`tags[*]`). */
function clauseText(env: DecideEnv, what: Permission | DefineFieldStatement["name"]): string {
  if (what.kind === "None" || what.kind === "Full") return what.kind === "None" ? "NONE" : "FULL";
  const texts = TEXTS[env.compat];
  let text = texts.get(what);
  if (text === undefined) texts.set(what, (text = what.kind === "Where" ? `WHERE ${env.printExpr(what.cond)}` : env.printExpr(what)));
  return text;
}

/** A record path as text: `a.b`, `tags[1]`. */
export function pathText(path: Path): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? p : `.${p}`;
  return out;
}

/** A denied decision as the denial log reports it (`--log-denials`): the table, action, field, record and deciding clause. */
export function denialOf(d: Decision): Denial {
  const out: Mutable<Denial> = { action: d.action, clause: d.clause };
  if (d.table !== undefined) out.table = d.table;
  if (d.field !== undefined) out.field = d.field;
  const target = d.record ?? d.name;
  if (target !== undefined) out.target = target;
  return out;
}
