// doc/: UPDATE of one stored record — also UPSERT, MERGE / PATCH, INSERT … ON DUPLICATE KEY UPDATE, RELATE of an existing edge.

import type { TableEntry } from "../store/catalog.js";
import type { RecordId } from "../value/types.js";
import type { DocEnv, WriteOp } from "./env.js";
import { checkPermissionsQuick, checkPermissionsTable } from "./permissions.js";
import { checkTableType } from "./table-type.js";
import { isEdge } from "../store/records.js";
import { dataClause, keepEdgeEnds, newRecord, storeRecord, whereMatches, type WriteRequest, type WriteResult } from "./write.js";

/** Update one record, in SurrealDB's order; NONE when permissions skip it. */
export async function updateDocument(env: DocEnv, req: WriteRequest): Promise<WriteResult | undefined> {
  const { rid, before } = req;
  // 1. the table (auto-created with PERMISSIONS NONE, if the actor may define tables)
  const table = env.ensureTable(rid.table);
  // 2. quick permission check (2.x): NONE skips before any clause runs
  if (env.compat === 2 && !checkPermissionsQuick(env, table, "update", before ?? { id: rid })) return undefined;
  // 2b. the table's TYPE (UPSERT, RELATE and INSERT of an existing record; not UPDATE)
  checkTableType(table, rid, req.makes, env.compat);
  // 3. 2.x UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: a create is tried first, and undone
  if (env.compat === 2 && req.createFirst && !(await createTried(env, table, rid, req.createFirst))) return undefined;
  // 4. WHERE, on the record as the client may select it
  if (!(await whereMatches(env, table, req))) return undefined;
  // 5. the stored record must pass the update permission before the data clause sees it
  if (before && !(await checkPermissionsTable(env, table, "update", before, { before, after: before }))) return undefined;
  // 6. 1.x: may the client select the stored record, judged before the write changes it (for RETURN BEFORE)
  const beforeSelectable = env.compat === 1 && before ? await checkPermissionsTable(env, table, "select", before) : undefined;
  // 7. the data clause, on the record as the client may see it; an edge keeps its `in` and `out`
  const op: WriteOp = { action: "update", rid, before, ...keepEdgeEnds(before, await dataClause(env, table, req)), edge: req.makes === "edge" || isEdge(before) };
  // 8. fields, SCHEMAFULL cleanup, and the update permission on the new record
  const after = await newRecord(env, table, op);
  if (!after) return undefined;
  // 9. indexes (unique check), storage, events
  return storeRecord(env, table, op, after, beforeSelectable);
}

/**
 * SurrealDB 2.x's first try at an UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: a create of a new record
 * (create permission, data, fields), undone at "already exists", after which the update runs. False when the create is denied
 * (skipped, no update).
 */
async function createTried(env: DocEnv, table: TableEntry, rid: RecordId, create: NonNullable<WriteRequest["createFirst"]>): Promise<boolean> {
  const mark = env.txn.savepoint();
  try {
    if (!checkPermissionsQuick(env, table, "create", { id: rid })) return false;
    const doc = await create.data({ full: { id: rid }, seen: { id: rid }, hidden: [], elements: [] });
    try {
      return (await newRecord(env, table, { action: "create", rid, before: undefined, after: doc })) !== undefined;
    } catch (e) {
      // UPSERT: a field error on the new record still lets the update run
      if (create.updateAfterFieldError) return true;
      throw e;
    }
  } finally {
    env.txn.rollbackTo(mark);
  }
}
