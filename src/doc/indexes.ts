// doc/: index maintenance on every write and the unique-index check with SurrealDB's message.

import { QueryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { formatRecordId, valueEquals } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { getPath } from "./paths.js";

/** The values a record contributes to an index (one per indexed field). */
export function indexValues(fields: readonly string[], doc: ValueObject): Value[] {
  return fields.map((f) => getPath(doc, f.split(".")));
}

/** Remove the old entries and add the new ones; a unique index refuses a second record with the same values. */
export function storeIndexData(env: DocEnv, table: TableEntry, rid: RecordId, before: ValueObject | undefined, after: ValueObject | undefined): void {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const [name, ix] of table.indexes) {
    const fields = ix.fields.map((f) => f.parts.map((p) => (p.kind === "Field" ? p.name : "")).join("."));
    const oldValues = before ? indexValues(fields, before) : undefined;
    const newValues = after ? indexValues(fields, after) : undefined;
    if (oldValues && newValues && oldValues.every((v, i) => valueEquals(v, newValues[i], { compat: env.compat }))) continue;
    if (oldValues) env.indexes.remove(env.txn, t, name, oldValues, rid);
    if (!newValues) continue;
    if (ix.unique && !newValues.every((v) => v === undefined || v === null)) {
      const clash = env.indexes.lookup(t, name, newValues).find((other) => formatRecordId(other) !== formatRecordId(rid));
      if (clash) {
        const shown = newValues.length === 1 ? newValues[0] : newValues;
        throw new QueryError(
          "IndexExists",
          `Database index \`${name}\` already contains ${env.printValue(shown)}, with record \`${formatRecordId(clash, { compat: env.compat })}\``,
        );
      }
    }
    env.indexes.add(env.txn, t, name, newValues, rid);
  }
}

/** Rebuild one index from the table's records (DEFINE INDEX on a table with data). */
export function buildIndex(env: DocEnv, table: TableEntry, name: string): void {
  const ix = table.indexes.get(name);
  if (!ix) return;
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  env.indexes.clear(env.txn, t, name);
  const fields = ix.fields.map((f) => f.parts.map((p) => (p.kind === "Field" ? p.name : "")).join("."));
  for (const rec of env.records.scan(t)) {
    const values = indexValues(fields, rec.doc);
    if (ix.unique && !values.every((v) => v === undefined || v === null)) {
      const clash = env.indexes.lookup(t, name, values)[0];
      if (clash) {
        throw new QueryError(
          "IndexExists",
          `Database index \`${name}\` already contains ${env.printValue(values.length === 1 ? values[0] : values)}, with record \`${formatRecordId(clash, { compat: env.compat })}\``,
        );
      }
    }
    env.indexes.add(env.txn, t, name, values, rec.id);
  }
}
