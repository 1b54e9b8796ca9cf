// doc/: the per-record pipeline — select, create, update, delete as ordered, named steps.

import type { TableEntry } from "../store/catalog.js";
import type { RecordId, ValueObject } from "../value/types.js";
import { checked, checkValue } from "../value/size.js";
import type { DocEnv, WriteOp } from "./env.js";
import { processEvents } from "./events.js";
import { cleanupTableFields, processTableFields } from "./fields.js";
import { storeIndexData } from "./indexes.js";
import { withoutPaths, type Path } from "./paths.js";
import { checkPermissionsFields, checkPermissionsQuick, checkPermissionsTable, hiddenFields, keyPaths } from "./permissions.js";

/** A visible record and the field paths hidden from it (to strip again after projection). */
// Both compats strip the document itself, so WHERE, projections, ORDER / GROUP BY and error texts never see a hidden
// field. SurrealDB 1.5.4 strips only the projected output (SECURITY.md: we are stricter).
export async function selectDocumentHidden(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<{ doc: ValueObject; hidden: Path[] } | undefined> {
  const seen = await selectDocument(env, table, doc);
  if (!seen) return undefined;
  return { doc: seen, hidden: table ? keyPaths(await hiddenFields(env, table, doc)) : [] };
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
  /** 1.x: could the client select the stored record before the write (RETURN BEFORE shows it only then)? */
  readonly beforeSelectable?: boolean;
}

/** A record as stored, and as the client may see it: the fields it may not select removed (their paths in `hidden`). */
export interface DocViews {
  readonly full: ValueObject;
  readonly seen: ValueObject;
  readonly hidden: readonly Path[];
}

/** A client's data clause: the new record, made from the record as the client may see it. */
export type DataStep = (views: DocViews) => Promise<ValueObject>;

/** One write as a statement asks for it: the client's WHERE and data clause run inside the pipeline, in SurrealDB's order. */
export interface WriteRequest {
  readonly action: "create" | "update" | "delete";
  readonly rid: RecordId;
  /** The stored record (NONE when missing). */
  readonly before: ValueObject | undefined;
  /** The client's WHERE, on the record as it may select it. */
  readonly where?: (seen: ValueObject) => Promise<boolean>;
  /** The client's data clause (NONE: the record as it is). */
  readonly data?: DataStep;
  /** A create through UPDATE / UPSERT of a missing record id (1.x meets the create permission before the data too). */
  readonly viaUpdate?: boolean;
  /** 2.x UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: the create SurrealDB tries first (UPSERT updates after a field error in it). */
  readonly createFirst?: { readonly data: DataStep; readonly updateAfterFieldError: boolean };
  /** An error to raise once permissions have passed (CREATE or INSERT of an existing record). */
  readonly conflict?: () => Error;
}

/** Create, update or delete one record: every write statement's steps, in SurrealDB's order. */
export async function writeDocument(env: DocEnv, req: WriteRequest): Promise<WriteResult | undefined> {
  const { action, rid, before } = req;
  // 1. the table (auto-created with PERMISSIONS NONE, if the actor may define tables)
  const table = env.ensureTable(rid.table);
  // 2. quick permission check (2.x): NONE skips before any clause runs
  if (env.compat === 2 && !checkPermissionsQuick(env, table, action)) return undefined;
  // 3. 2.x UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: a create is tried first, and undone
  if (env.compat === 2 && req.createFirst && !(await createTried(env, table, rid, req.createFirst))) return undefined;
  // 4. WHERE, on the record as the client may select it
  if (req.where && !(await whereMatches(env, table, req))) return undefined;
  // 5. update/delete: the stored record must pass the permission before the data clause sees it
  if (before && action !== "create" && !(await checkPermissionsTable(env, table, action, before, { before, after: before }))) return undefined;
  // 6. 1.x UPDATE of a missing record id: the create permission is met first, on the empty (NONE) document
  if (env.compat === 1 && req.viaUpdate && !before && !(await checkPermissionsTable(env, table, "create", undefined))) return undefined;
  // 7. 1.x: may the client select the stored record, judged before the write changes it (for RETURN BEFORE)
  const beforeSelectable = env.compat === 1 && before ? await checkPermissionsTable(env, table, "select", before) : undefined;
  // 8. delete: indexes, storage, events
  if (action === "delete") return { ...(await deleteRecord(env, table, { action, rid, before, after: undefined })), beforeSelectable };
  // 9. the data clause, on the record as the client may see it (held to the value limits before anything walks it)
  const doc = req.data ? checked(await req.data(await clientViews(env, table, before ?? { id: rid }))) : (before ?? { id: rid });
  const op: WriteOp = { action, rid, before, after: doc };
  // 10. fields, SCHEMAFULL cleanup, and the permission on the new record
  const after = await newRecord(env, table, op);
  if (!after) return undefined;
  // 11. an existing record is reported only now, after the permission checks
  if (req.conflict) throw req.conflict();
  // 12. no value nested too deep or too large is stored; indexes (unique check), then storage
  checkValue(after);
  await storeIndexData(env, table, rid, before, after);
  await env.records.put(env.txn, { ns: env.ns, db: env.db, tb: rid.table }, rid, after);
  // 13. events
  await processEvents(env, table, op, after);
  return { rid, before, after, beforeSelectable };
}

/** The record a write makes: fields (DEFAULT, VALUE, TYPE, ASSERT, READONLY, field permissions), SCHEMAFULL cleanup; NONE when the permission denies it. */
async function newRecord(env: DocEnv, table: TableEntry, op: WriteOp): Promise<ValueObject | undefined> {
  const fields = await processTableFields(env, table, op, op.after ?? { id: op.rid });
  const after = { ...cleanupTableFields(table, fields, env.compat), id: op.rid };
  return (await checkPermissionsTable(env, table, op.action, after, { before: op.before, after })) ? after : undefined;
}

/**
 * SurrealDB 2.x's first try at an UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: a create of a new record
 * (create permission, data, fields), undone at "already exists", after which the update runs. False when the create is denied
 * (skipped, no update).
 */
async function createTried(env: DocEnv, table: TableEntry, rid: RecordId, create: NonNullable<WriteRequest["createFirst"]>): Promise<boolean> {
  const mark = env.txn.savepoint();
  try {
    if (!checkPermissionsQuick(env, table, "create")) return false;
    const doc = await create.data({ full: { id: rid }, seen: { id: rid }, hidden: [] });
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

/** The client's WHERE on the record as it may select it: a record it may not select is skipped; a missing one is `{ id }`. */
async function whereMatches(env: DocEnv, table: TableEntry, req: WriteRequest): Promise<boolean> {
  const seen = req.before ? await selectDocument(env, table, req.before) : { id: req.rid };
  return seen !== undefined && (await req.where!(seen));
}

/** The record and the client's view of it: fields it may not select removed; of a record it may not select, only the id. */
async function clientViews(env: DocEnv, table: TableEntry, full: ValueObject): Promise<DocViews> {
  // a stored record the update rule lets through but the select rule does not (a write-only table): nothing but its id
  // (SurrealDB's data clause sees it whole and its errors print it; attack finding F11)
  if (Object.keys(full).some((k) => k !== "id") && !(await checkPermissionsTable(env, table, "select", full))) {
    return { full, seen: { id: full.id }, hidden: Object.keys(full).filter((k) => k !== "id").map((k) => [k]) };
  }
  const hidden = await hiddenFields(env, table, full);
  return { full, seen: withoutPaths(full, hidden), hidden };
}

/** Remove a stored record: its index entries, the record, then its events. */
async function deleteRecord(env: DocEnv, table: TableEntry, op: WriteOp): Promise<WriteResult> {
  await storeIndexData(env, table, op.rid, op.before, undefined);
  await env.records.delete(env.txn, { ns: env.ns, db: env.db, tb: op.rid.table }, op.rid);
  await processEvents(env, table, op, undefined);
  return { rid: op.rid, before: op.before, after: undefined };
}
