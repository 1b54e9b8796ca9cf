// doc/: index maintenance on every write and the unique-index check with SurrealDB's message (naming nothing the actor may not select).

import type { DefineIndexStatement, IdiomExpr } from "../ast/nodes.js";
import { QueryError, queryError } from "../errors/index.js";
import type { TableEntry } from "../store/catalog.js";
import { valueKey } from "../store/keys.js";
import { formatRecordId, valueEquals } from "../value/index.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { pickField } from "./paths.js";
import { selectDocument } from "./select.js";

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

/** The same index entry (number kinds apart, as the index keys keep them). */
const sameEntry = (a: readonly Value[], b: readonly Value[]): boolean => a.length === b.length && a.every((x, i) => valueKey(x) === valueKey(b[i]));

/**
 * SurrealDB's unique-clash error, naming the value and the conflicting record only when the client could read that entry
 * itself: it may select the record and the clashing values are among the entries of the record as it sees it (attack F2).
 * Judged with the client's rights, also when an event (owner rights) made the write. `doc` is the conflicting record as
 * stored (the record being written when it clashes with itself).
 */
async function clashError(writer: DocEnv, table: TableEntry, name: string, fields: readonly IdiomExpr[], values: Value[], clash: RecordId, doc: ValueObject): Promise<QueryError> {
  const env = writer.clientView();
  const named = { value: env.printValue(values.length === 1 ? values[0] : values), rid: formatRecordId(clash, { compat: env.compat }) };
  if (!env.permissionsApply(false)) return queryError("IndexExists", name, named);
  // the record as the client may select it (NONE if it may not), its indexed fields as it sees them
  const seen = await selectDocument(env, table, doc);
  const visible = seen !== undefined && indexEntries(fields, seen).some((e) => sameEntry(e, values));
  return visible ? queryError("IndexExists", name, named) : queryError("IndexExists", name);
}

/** A unique index refusing a write, with the record it clashes with (INSERT retries its row on that record). */
export class IndexClash extends QueryError {
  constructor(
    refusal: QueryError,
    readonly clash: RecordId,
  ) {
    super(refusal.code, refusal.message);
  }
}

/** Add a record's entries; a unique index refuses an entry it already holds — even from the same record (`[5, 5]`). */
async function addEntries(env: DocEnv, table: TableEntry, name: string, ix: DefineIndexStatement, rid: RecordId, doc: ValueObject): Promise<void> {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  const fields = ix.fields;
  for (const values of indexEntries(fields, doc)) {
    if (ix.unique && !values.every(nullish)) {
      const clash = (await env.indexes.lookup(env.txn, t, name, values))[0];
      if (clash) {
        const other = valueKey(clash) === valueKey(rid) ? doc : ((await env.records.get(env.txn, t, clash)) ?? { id: clash });
        throw new IndexClash(await clashError(env, table, name, fields, values, clash, other), clash);
      }
    }
    await env.indexes.add(env.txn, t, name, values, rid);
  }
}

/** Index names in SurrealDB's key order: the first clashing index by name is the one reported. */
const byName = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);

/** Remove the old entries and add the new ones (index by index, in name order); a unique index refuses a second record with the same values. */
export async function storeIndexData(env: DocEnv, table: TableEntry, rid: RecordId, before: ValueObject | undefined, after: ValueObject | undefined): Promise<void> {
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  for (const [name, ix] of [...table.indexes].sort(byName)) {
    const fields = ix.fields;
    const oldValues = before ? indexValues(fields, before) : undefined;
    const newValues = after ? indexValues(fields, after) : undefined;
    if (oldValues && newValues && oldValues.every((v, i) => valueEquals(v, newValues[i], { compat: env.compat }))) continue;
    if (before) for (const values of indexEntries(fields, before)) await env.indexes.remove(env.txn, t, name, values, rid);
    if (after) await addEntries(env, table, name, ix, rid, after);
  }
}

/**
 * Rebuild one index from the table's records (DEFINE INDEX on a table with data). `replaced`: it had entries before
 * (a new index has none: REMOVE INDEX / TABLE cleared them).
 */
export async function buildIndex(env: DocEnv, table: TableEntry, name: string, replaced = true): Promise<void> {
  const ix = table.indexes.get(name);
  if (!ix) return;
  const t = { ns: env.ns, db: env.db, tb: table.def.name };
  if (replaced) await env.indexes.clear(env.txn, t, name);
  for await (const batch of env.records.scan(env.txn, t)) for (const rec of batch) await addEntries(env, table, name, ix, rec.id, rec.doc);
}
