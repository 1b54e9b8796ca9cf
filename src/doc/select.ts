// doc/: SELECT of one record — the steps that decide what of a stored record the actor sees (SurrealDB's doc/select.rs).

import type { TableEntry } from "../store/catalog.js";
import type { ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { computeFutures } from "./futures.js";
import { withoutPaths, type Path } from "./paths.js";
import { checkPermissionsQuick, checkPermissionsTable, hiddenFields, keyPaths } from "./permissions.js";

/** A visible record and the field paths hidden from it (to strip again after projection). */
// Both compats strip the document itself, so WHERE, projections, ORDER / GROUP BY and error texts never see a hidden
// field. SurrealDB 1.5.4 strips only the projected output (SECURITY.md: we are stricter).
export async function selectDocumentHidden(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<{ doc: ValueObject; hidden: Path[] } | undefined> {
  const seen = await selectSteps(env, table, doc);
  return seen && { doc: seen.doc, hidden: keyPaths(seen.hidden) };
}

/** A record as the actor may see it, or NONE when `select` permissions deny it (skipped, never an error). */
export async function selectDocument(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<ValueObject | undefined> {
  return (await selectSteps(env, table, doc))?.doc;
}

/** SELECT's steps for one stored record: the record stripped of the fields it may not select, and their paths. */
async function selectSteps(env: DocEnv, table: TableEntry | undefined, doc: ValueObject): Promise<{ doc: ValueObject; hidden: Path[] } | undefined> {
  // 1. a table that does not exist has no visible records for permission-checked actors
  if (!table) return env.permissionsApply(false) ? undefined : { doc, hidden: [] };
  // 2. quick permission check: NONE skips before any clause runs
  if (!checkPermissionsQuick(env, table, "select", doc)) return undefined;
  // 3. table `select` permission on the stored record
  if (!(await checkPermissionsTable(env, table, "select", doc))) return undefined;
  // 4. field `select` permissions strip fields (every hidden array element exactly: stricter than SurrealDB)
  const hidden = await hiddenFields(env, table, doc);
  // 5. the future fields the reader sees, computed again
  return { doc: await computeFutures(env, table, doc, withoutPaths(doc, hidden)), hidden };
}
