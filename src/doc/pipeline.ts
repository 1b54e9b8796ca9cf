// doc/: the per-record pipeline — select, create, update, delete as ordered, named steps.

import type { TableEntry } from "../store/catalog.js";
import type { RecordId, ValueObject } from "../value/types.js";
import type { DocEnv, WriteOp } from "./env.js";
import { processEvents } from "./events.js";
import { cleanupTableFields, processTableFields } from "./fields.js";
import { storeIndexData } from "./indexes.js";
import { checkPermissionsFields, checkPermissionsQuick, checkPermissionsTable, hiddenFields } from "./permissions.js";

/** A visible record and the field paths hidden from it (to strip again after projection). */
// 1.x strips only the projected output (WHERE, VALUE and aliases see the stored value); 2.x also the document.
export async function selectDocumentHidden(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<{ doc: ValueObject; hidden: string[][] } | undefined> {
  const seen = await selectDocument(env, table, doc);
  if (!seen) return undefined;
  return { doc: env.compat === 1 ? doc : seen, hidden: table ? await hiddenFields(env, table, doc) : [] };
}

/** A record as the actor may see it, or NONE when `select` permissions deny it (skipped, never an error). */
export async function selectDocument(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<ValueObject | undefined> {
  // 1. a table that does not exist has no visible records for permission-checked actors
  if (!table) return env.permissionsApply(false) ? undefined : doc;
  // 2. table `select` permission
  if (!checkPermissionsQuick(env, table, "select")) return undefined;
  if (!(await checkPermissionsTable(env, table, "select", doc))) return undefined;
  // 3. field `select` permissions strip fields
  return checkPermissionsFields(env, table, doc);
}

/** The outcome of a write: the stored record before and after, or NONE when permissions skipped it. */
export interface WriteResult {
  readonly rid: RecordId;
  readonly before: ValueObject | undefined;
  readonly after: ValueObject | undefined;
}

/** Create or update one record; `op.after` already has the data clause applied. */
export async function writeDocument(env: DocEnv, op: WriteOp): Promise<WriteResult | undefined> {
  const t = { ns: env.ns, db: env.db, tb: op.rid.table };
  // 1. the table (auto-created with PERMISSIONS NONE, if the actor may define tables)
  const table = env.ensureTable(op.rid.table);
  // 2. quick permission check (2.x): NONE skips before any field is processed
  if (env.compat === 2 && !checkPermissionsQuick(env, table, op.action)) return undefined;
  // 3. update/delete: the existing record must pass the permission
  if (op.before && op.action !== "create" && !(await checkPermissionsTable(env, table, op.action, op.before, { before: op.before, after: op.before }))) return undefined;
  // 3b. 1.x UPDATE of a missing record id: the create permission is met first, on the empty (NONE) document
  if (env.compat === 1 && op.viaUpdate && !op.before && !(await checkPermissionsTable(env, table, "create", undefined))) return undefined;
  if (op.action === "delete") {
    // 4d. indexes, storage, events
    storeIndexData(env, table, op.rid, op.before, undefined);
    env.records.delete(env.txn, t, op.rid);
    await processEvents(env, table, op, undefined);
    return { rid: op.rid, before: op.before, after: undefined };
  }
  // 4. fields: DEFAULT, VALUE, TYPE, ASSERT, READONLY, field permissions
  let after = await processTableFields(env, table, op, op.after ?? { id: op.rid });
  // 5. SCHEMAFULL drops undefined fields
  after = cleanupTableFields(table, after, env.compat);
  after = { ...after, id: op.rid };
  // 6. the new record must pass the permission
  if (!(await checkPermissionsTable(env, table, op.action, after, { before: op.before, after }))) return undefined;
  // 7. an existing record is reported only now, after the permission checks
  if (op.conflict) throw op.conflict();
  // 8. indexes (unique check), then storage
  storeIndexData(env, table, op.rid, op.before, after);
  env.records.put(env.txn, t, op.rid, after);
  // 9. events
  await processEvents(env, table, op, after);
  return { rid: op.rid, before: op.before, after };
}
