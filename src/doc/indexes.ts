// doc/: index maintenance on every write and the unique-index check with SurrealDB's message.

import type { IdiomExpr } from "../ast/nodes.js";
import { queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { formatRecordId, valueEquals } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { pickField } from "./paths.js";

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

/** Add a record's entries; a unique index refuses an entry it already holds — even from the same record (`[5, 5]`). */
function addEntries(env: DocEnv, table: TableEntry, name: string, unique: boolean, rid: RecordId, entries: Value[][]): void {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const values of entries) {
    if (unique && !values.every(nullish)) {
      const clash = env.indexes.lookup(t, name, values)[0];
      if (clash) {
        const shown = values.length === 1 ? values[0] : values;
        throw queryError("IndexExists", name, env.printValue(shown), formatRecordId(clash, { compat: env.compat }));
      }
    }
    env.indexes.add(env.txn, t, name, values, rid);
  }
}

/** Remove the old entries and add the new ones; a unique index refuses a second record with the same values. */
export function storeIndexData(env: DocEnv, table: TableEntry, rid: RecordId, before: ValueObject | undefined, after: ValueObject | undefined): void {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const [name, ix] of table.indexes) {
    const fields = ix.fields;
    const oldValues = before ? indexValues(fields, before) : undefined;
    const newValues = after ? indexValues(fields, after) : undefined;
    if (oldValues && newValues && oldValues.every((v, i) => valueEquals(v, newValues[i], { compat: env.compat }))) continue;
    if (before) for (const values of indexEntries(fields, before)) env.indexes.remove(env.txn, t, name, values, rid);
    if (after) addEntries(env, table, name, ix.unique, rid, indexEntries(fields, after));
  }
}

/** Rebuild one index from the table's records (DEFINE INDEX on a table with data). */
export function buildIndex(env: DocEnv, table: TableEntry, name: string): void {
  const ix = table.indexes.get(name);
  if (!ix) return;
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  env.indexes.clear(env.txn, t, name);
  const fields = ix.fields;
  for (const rec of env.records.scan(t)) addEntries(env, table, name, ix.unique, rec.id, indexEntries(fields, rec.doc));
}
