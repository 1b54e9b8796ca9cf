// doc/: what every write's steps share — the request and result, the client's view of the stored record, the new
// record's fields and permission, storage and events (create.ts, update.ts and delete.ts list the steps).

import type { TableEntry } from "../store/catalog.js";
import { isEdge } from "../store/records.js";
import type { RecordId, Value, ValueObject } from "../value/types.js";
import { queryError } from "../errors/index.js";
import { formatRecordId } from "../value/record.js";
import { checked, checkValue, holdsClosure } from "../value/size.js";
import type { DocEnv, WriteOp } from "./env.js";
import { hiddenElements, mergeWrittenArrays } from "./elements.js";
import { processEvents } from "./events.js";
import { cleanupTableFields, processTableFields } from "./fields.js";
import { storeIndexData } from "./indexes.js";
import { withoutPaths, type Path } from "./paths.js";
import { checkPermissionsTable, hiddenFields } from "./permissions.js";
import { selectDocument } from "./select.js";
import type { RecordKind } from "./table-type.js";

/** The outcome of a write: the stored record before and after, or NONE when permissions skipped it. */
export interface WriteResult {
  readonly rid: RecordId;
  readonly before: ValueObject | undefined;
  readonly after: ValueObject | undefined;
  /** 1.x: could the client select the stored record before the write (RETURN BEFORE shows it only then)? */
  readonly beforeSelectable?: boolean | undefined;
}

/**
 * A record as stored, and as the client may see it: the fields it may not select removed (their paths in `hidden`);
 * `elements`: those of them that are array elements an element rule hides (a data clause writes around them: clientArrays).
 */
export interface DocViews {
  readonly full: ValueObject;
  readonly seen: ValueObject;
  readonly hidden: readonly Path[];
  readonly elements: readonly Path[];
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
  readonly where?: ((seen: ValueObject) => Promise<boolean>) | undefined;
  /** The client's data clause (NONE: the record as it is). */
  readonly data?: DataStep | undefined;
  /** A create through UPDATE / UPSERT of a missing record id (1.x meets the create permission before the data too). */
  readonly viaUpdate?: boolean | undefined;
  /** 2.x UPSERT / INSERT … ON DUPLICATE KEY UPDATE of an existing record: the create SurrealDB tries first (UPSERT updates after a field error in it). */
  readonly createFirst?: { readonly data: DataStep; readonly updateAfterFieldError: boolean } | undefined;
  /** What the statement writes, held to the table's TYPE (none for UPDATE: SurrealDB checks CREATE, INSERT, UPSERT and RELATE). */
  readonly makes?: RecordKind | undefined;
  /** An error to raise once permissions have passed (CREATE or INSERT of an existing record). */
  readonly conflict?: (() => Error) | undefined;
  /** INSERT (2.x): the unique indexes are checked before `conflict` is reported (a clash is the error then). */
  readonly conflictAfterIndexes?: boolean | undefined;
}

/** The client's WHERE on the record as it may select it: a record it may not select is skipped; a missing one is `{ id }`. */
export async function whereMatches(env: DocEnv, table: TableEntry, req: WriteRequest): Promise<boolean> {
  if (!req.where) return true;
  const seen = req.before ? await selectDocument(env, table, req.before) : { id: req.rid };
  return seen !== undefined && (await req.where(seen));
}

/**
 * The client's data clause on the record as it may see it, held to the value limits before anything walks it; on a
 * stored record, the arrays it wrote merged back by the element rules (`olds`: what each merged element is judged against).
 */
export async function dataClause(env: DocEnv, table: TableEntry, req: WriteRequest): Promise<{ after: ValueObject; olds?: ReadonlyMap<string, Value> }> {
  const stored = req.before ?? { id: req.rid };
  if (!req.data) return { after: stored };
  const made = checked(await req.data(await clientViews(env, table, stored)));
  if (!req.before || req.action !== "update") return { after: made };
  const { doc, olds } = await mergeWrittenArrays(env, table, req.before, made);
  return { after: doc, olds };
}

/** After an edge's data clause: its `in` and `out` as stored, whatever the clause wrote (SurrealDB resets them silently). */
export function keepEdgeEnds<T extends { after: ValueObject }>(before: ValueObject | undefined, made: T): T {
  if (!isEdge(before)) return made;
  return { ...made, after: { ...made.after, in: before!.in, out: before!.out } };
}

/** The record and the client's view of it: fields it may not select removed; of a record it may not select, only the id. */
export async function clientViews(env: DocEnv, table: TableEntry, full: ValueObject): Promise<DocViews> {
  // a stored record the update rule lets through but the select rule does not (a write-only table): nothing but its id
  // (SurrealDB's data clause sees it whole and its errors print it; attack finding F11)
  if (Object.keys(full).some((k) => k !== "id") && !(await checkPermissionsTable(env, table, "select", full))) {
    return { full, seen: { id: full.id }, hidden: Object.keys(full).filter((k) => k !== "id").map((k) => [k]), elements: [] };
  }
  const hidden = await hiddenFields(env, table, full);
  return { full, seen: withoutPaths(full, hidden), hidden, elements: hiddenElements(env, table, full, hidden) };
}

/** The record a write makes: fields (DEFAULT, VALUE, TYPE, ASSERT, READONLY, field permissions), SCHEMAFULL cleanup; NONE when the permission denies it. */
export async function newRecord(env: DocEnv, table: TableEntry, op: WriteOp): Promise<ValueObject | undefined> {
  const fields = await processTableFields(env, table, op, op.after ?? { id: op.rid });
  const after = { ...cleanupTableFields(table, fields, env.compat), id: op.rid };
  return (await checkPermissionsTable(env, table, op.action, after, { before: op.before, after })) ? after : undefined;
}

/** Keep a new record: no value nested too deep or too large, no closure; indexes (unique check), storage, the views reading the table, then events. */
export async function storeRecord(env: DocEnv, table: TableEntry, op: WriteOp, after: ValueObject, beforeSelectable: boolean | undefined): Promise<WriteResult> {
  checkValue(after);
  if (holdsClosure(after)) throw queryError("ClosureStored", formatRecordId(op.rid, { compat: env.compat }));
  await storeIndexData(env, table, op.rid, op.before, after);
  await env.records.put(env.txn, { ns: env.ns, db: env.db, tb: op.rid.table }, op.rid, after, op.edge);
  if (!env.importing) await env.maintainViews?.(table, op, after);
  await processEvents(env, table, op, after);
  return { rid: op.rid, before: op.before, after, beforeSelectable };
}
