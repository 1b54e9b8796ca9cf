// doc/: index maintenance on every write and the unique-index check with SurrealDB's message (without a record the actor may not select).

import type { IdiomExpr } from "../ast/nodes.js";
import { queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { formatRecordId, valueEquals } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { pickField } from "./paths.js";
import { checkPermissionsQuick, checkPermissionsTable } from "./permissions.js";

/** The values a record contributes to an index (one per indexed field; `emails.address` reads every element's). */
export function indexValues(fields: readonly IdiomExpr[], doc: ValueObject): Value[] {
  return fields.map((f) => pickField(doc, f.parts));
}

/**
 * The entries a record contributes to an index: one per combination of its field values, where an array
 * contributes each of its elements (`[]` contributes none), as SurrealDB indexes arrays.
 */
export function indexEntries(fields: readonly IdiomExpr[], doc: ValueObject): Value[][] {
  let combos: Value[][] = [[]];
  for (const v of indexValues(fields, doc)) {
    const items = Array.isArray(v) ? v : [v];
    combos = combos.flatMap((c) => items.map((x) => [...c, x]));
  }
  return combos;
}

const nullish = (v: Value): boolean => v === undefined || v === null;

/** SurrealDB's unique-clash error; the conflicting record's id only when the actor may select that record (F2). */
async function clashError(env: DocEnv, table: TableEntry, name: string, values: Value[], clash: RecordId): Promise<Error> {
  const shown = env.printValue(values.length === 1 ? values[0] : values);
  const stored = await env.records.get(env.txn, { ns: env.ns, db: env.db, tb: table.def.name }, clash);
  const visible = checkPermissionsQuick(env, table, "select") && (await checkPermissionsTable(env, table, "select", stored ?? { id: clash }));
  return visible ? queryError("IndexExists", name, shown, formatRecordId(clash, { compat: env.compat })) : queryError("IndexExists", name, shown);
}

/** Add a record's entries; a unique index refuses an entry it already holds — even from the same record (`[5, 5]`). */
async function addEntries(env: DocEnv, table: TableEntry, name: string, unique: boolean, rid: RecordId, entries: Value[][]): Promise<void> {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const values of entries) {
    if (unique && !values.every(nullish)) {
      const clash = (await env.indexes.lookup(env.txn, t, name, values))[0];
      if (clash) throw await clashError(env, table, name, values, clash);
    }
    await env.indexes.add(env.txn, t, name, values, rid);
  }
}

/** Remove the old entries and add the new ones; a unique index refuses a second record with the same values. */
export async function storeIndexData(env: DocEnv, table: TableEntry, rid: RecordId, before: ValueObject | undefined, after: ValueObject | undefined): Promise<void> {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const [name, ix] of table.indexes) {
    const fields = ix.fields;
    const oldValues = before ? indexValues(fields, before) : undefined;
    const newValues = after ? indexValues(fields, after) : undefined;
    if (oldValues && newValues && oldValues.every((v, i) => valueEquals(v, newValues[i], { compat: env.compat }))) continue;
    if (before) for (const values of indexEntries(fields, before)) await env.indexes.remove(env.txn, t, name, values, rid);
    if (after) await addEntries(env, table, name, ix.unique, rid, indexEntries(fields, after));
  }
}

/** Rebuild one index from the table's records (DEFINE INDEX on a table with data). */
export async function buildIndex(env: DocEnv, table: TableEntry, name: string): Promise<void> {
  const ix = table.indexes.get(name);
  if (!ix) return;
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  await env.indexes.clear(env.txn, t, name);
  const fields = ix.fields;
  for await (const batch of env.records.scan(env.txn, t)) for (const rec of batch) await addEntries(env, table, name, ix.unique, rec.id, indexEntries(fields, rec.doc));
}
