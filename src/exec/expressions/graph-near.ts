// exec/expressions: the edges a graph step may skip unread (attack pass 8, F7). A step from a node reads the edges its
// graph keys name and keeps those whose near side (`in` for `->`, `out` for `<-`) the client may select, so each edge
// hidden from it cost a read and a judgement, and the time told how many there were. When the edge table's select rule
// and the near field's select rule read nothing of an edge but that near side (which is the node), one stand-in edge
// holding only it decides for all of them: hidden, the edges are not scanned at all.

import { selectDocumentHidden } from "../../doc/select.js";
import { readsOnlyFields } from "../../doc/permissions.js";
import type { Permission } from "../../ast/nodes.js";
import type { TableEntry } from "../../store/catalog.js";
import { valueEquals } from "../../value/index.js";
import { RecordId } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { permissionsApply } from "../rbac.js";
import { docEnv } from "../records.js";

export type NearSide = "in" | "out";

/** Per clause: does it read nothing of an edge but its near side? (Definitions are immutable: cached by object.) */
const decidable = new WeakMap<object, boolean>();

function readsOnlyNear(p: Permission, near: NearSide, value: boolean): boolean {
  if (p.kind !== "Where") return true;
  let known = decidable.get(p.cond);
  if (known === undefined) decidable.set(p.cond, (known = readsOnlyFields(p.cond, new Set([near]), value)));
  return known;
}

/** Do the rules that judge an edge of `table` read nothing of it but its near side? */
function decidedByNearSide(table: TableEntry, near: NearSide): boolean {
  const field = table.fields.get(near);
  return readsOnlyNear(table.def.permissions.select, near, false) && (!field || readsOnlyNear(field.permissions.select, near, true));
}

/**
 * Is every edge of table `tb` whose `near` side is `node` one the client may not see there (no record, or the near side
 * hidden)? Decided on a stand-in edge, without reading one, when the rules allow it; false otherwise (read them all).
 * Explaining hears every edge's decisions: no shortcut then.
 */
export async function nearSideHidden(ctx: Ctx, tb: string, near: NearSide, node: RecordId): Promise<boolean> {
  if (!permissionsApply(ctx, false) || ctx.explain) return false;
  const table = ctx.core.catalog.table(needNs(ctx), needDb(ctx), tb);
  // no table: every record of it is hidden from a client whose permissions apply (selectDocument)
  if (!table) return true;
  if (!decidedByNearSide(table, near)) return false;
  try {
    const seen = await selectDocumentHidden(docEnv(ctx, { standIn: true }), table, { id: new RecordId(tb, node.id), [near]: node });
    return seen === undefined || !valueEquals(seen.doc[near], node, { compat: ctx.core.compat });
  } catch {
    // a rule's error is each edge's to raise: read them
    return false;
  }
}
