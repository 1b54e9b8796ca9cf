// doc/: DELETE of one record (SurrealDB's doc/delete.rs).

import type { RecordId } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { processEvents } from "./events.js";
import { storeIndexData } from "./indexes.js";
import { checkPermissionsQuick, checkPermissionsTable } from "./permissions.js";
import { whereMatches, type WriteRequest, type WriteResult } from "./write.js";

/** Delete one stored record, in SurrealDB's order; NONE when permissions skip it. */
export async function deleteDocument(env: DocEnv, req: WriteRequest): Promise<WriteResult | undefined> {
  const { rid, before } = req;
  // 1. the table (auto-created with PERMISSIONS NONE, if the actor may define tables)
  const table = env.ensureTable(rid.table);
  // 2. quick permission check (2.x): NONE skips before any clause runs
  if (env.compat === 2 && !checkPermissionsQuick(env, table, "delete", before ?? { id: rid })) return undefined;
  // 3. WHERE, on the record as the client may select it
  if (!(await whereMatches(env, table, req))) return undefined;
  // 4. the stored record must pass the delete permission
  if (before && !(await checkPermissionsTable(env, table, "delete", before, { before, after: before }))) return undefined;
  // 5. 1.x: may the client select the stored record, judged before the write changes it (for RETURN BEFORE)
  const beforeSelectable = env.compat === 1 && before ? await checkPermissionsTable(env, table, "select", before) : undefined;
  // 6. its index entries, the record, the views reading the table, then its events
  const op = { action: "delete", rid, before, after: undefined } as const;
  await storeIndexData(env, table, rid, before, undefined);
  await env.records.delete(env.txn, { ns: env.ns, db: env.db, tb: rid.table }, rid);
  if (!env.importing) await env.maintainViews?.(table, op, undefined);
  await processEvents(env, table, op, undefined);
  return { rid, before, after: undefined, beforeSelectable };
}

/** 1.x DELETE of a missing record id: nothing to delete, but it still meets the delete permission (on NONE). */
export async function deleteMissingDocument(env: DocEnv, rid: RecordId): Promise<WriteResult | undefined> {
  const result = { rid, before: undefined, after: undefined };
  // 1. a table that does not exist: no record to delete for permission-checked actors
  const table = env.catalog.table(env.ns, env.db, rid.table);
  if (!table) return env.permissionsApply(true) ? undefined : result;
  // 2. the delete permission, on the empty (NONE) document
  return (await checkPermissionsTable(env, table, "delete", undefined)) ? result : undefined;
}
