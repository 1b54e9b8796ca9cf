// doc/: table and field PERMISSIONS (auth.md §6.2) — NONE skips, FULL allows, WHERE is evaluated with the schema owner's rights.

import type { Permission } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import { isTruthy } from "../value/index.js";
import type { Value, ValueObject } from "../value/types.js";
import { RecordId, isValueObject } from "../value/types.js";
import type { Action, DocEnv } from "./env.js";
import { eachField, fieldsInOrder, getPath, withoutPaths } from "./paths.js";
import type { Path } from "./paths.js";

/** Evaluate one permission against a document. */
export async function permissionAllows(env: DocEnv, perm: Permission, doc: Value, vars: Readonly<Record<string, Value>>): Promise<boolean> {
  switch (perm.kind) {
    case "Full":
      return true;
    case "None":
      return false;
    case "Where":
      return isTruthy(await env.evaluate(perm, perm.cond, doc, vars), { compat: env.compat });
  }
}

/** Does the table allow `action` on `doc`? True whenever the actor bypasses permissions. */
export async function checkPermissionsTable(
  env: DocEnv,
  table: TableEntry,
  action: Action,
  doc: Value,
  vars: Readonly<Record<string, Value>> = {},
): Promise<boolean> {
  if (!env.permissionsApply(action !== "select")) return true;
  // $input is NONE here, even inside an event or VALUE of another write (SurrealDB 1.5.4 and 2.6.0)
  const allowed = await permissionAllows(env, table.def.permissions[action], doc, { ...vars, input: undefined });
  if (!allowed && env.denied) reportDenial(env, table, action, doc);
  return allowed;
}

/** Tells `env.denied` (set only with denial logging on) which table, action, field and record were refused. */
export function reportDenial(env: DocEnv, table: TableEntry, action: Action, doc: Value, field?: string): void {
  const id = isValueObject(doc) ? doc["id"] : undefined;
  env.denied?.({ table: table.def.name, action, ...(field !== undefined ? { field } : {}), ...(id instanceof RecordId ? { target: env.printValue(id) } : {}) });
}

/** Quick pre-check: NONE denies without evaluating anything. */
export function checkPermissionsQuick(env: DocEnv, table: TableEntry, action: Action): boolean {
  if (!env.permissionsApply(action !== "select")) return true;
  const allowed = table.def.permissions[action].kind !== "None";
  if (!allowed && env.denied) reportDenial(env, table, action, undefined);
  return allowed;
}

/**
 * Paths of fields whose `select` permission denies them, in the order to remove them: every path a field's name covers
 * in `shape` (by default `doc`; `[*]` covers each element), judged against `doc` with `$value` the value there and `$this`
 * the record (NONE after a DELETE).
 */
export async function hiddenFields(env: DocEnv, table: TableEntry, doc: ValueObject | undefined, shape: ValueObject | undefined = doc): Promise<Path[]> {
  if (!env.permissionsApply(false)) return [];
  const hidden: Path[] = [];
  for (const [name, field] of fieldsInOrder(table)) {
    const perm = field.permissions.select;
    if (perm.kind === "Full") continue;
    for (const path of eachField(shape, field.name.parts, env.compat)) {
      if (await permissionAllows(env, perm, doc, { value: getPath(doc, path), this: doc })) continue;
      hidden.push(path);
      if (env.denied) reportDenial(env, table, "select", doc, name);
    }
  }
  return hidden;
}

/** Strip fields whose `select` permission denies them, every hidden array element exactly (stricter than SurrealDB). */
export async function checkPermissionsFields(env: DocEnv, table: TableEntry, doc: ValueObject): Promise<ValueObject> {
  return withoutPaths(doc, await hiddenFields(env, table, doc));
}

/** Of the hidden paths of a record, those to strip again from a projection of the stripped record: object keys only
 * (the elements went exactly the first time; removing them again would take visible ones, as SurrealDB 2.6.0 does). */
export function keyPaths(hidden: readonly Path[]): Path[] {
  return hidden.filter((p) => p.every((x) => typeof x === "string"));
}
