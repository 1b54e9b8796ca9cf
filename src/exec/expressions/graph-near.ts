// exec/expressions: the edges a graph step may skip unread (attack pass 8, F7). A step from a node reads the edges its
// graph keys name and keeps those whose near side (`in` for `->`, `out` for `<-`) the client may select, so each edge
// hidden from it cost a read and a judgement, and the time told how many there were. When the edge table's select rule
// or the near field's select rule reads nothing of an edge but that near side (which is the node), one stand-in edge
// holding only it decides for all of them: hidden, the edges are not scanned at all.

import { decide } from "../../doc/decide.js";
import { checkPermissionsQuick, checkPermissionsTable, readsOnlyFields } from "../../doc/permissions.js";
import type { Permission } from "../../ast/nodes.js";
import { RecordId } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { needDb, needNs } from "../context.js";
import { permissionsApply } from "../rbac.js";
import { docEnv } from "../records.js";

export type NearSide = "in" | "out";

/** Per clause and near side: does it read nothing of an edge but that side? (Definitions are immutable: cached by object.) */
const decidable = new WeakMap<object, Map<string, boolean>>();

function readsOnlyNear(p: Permission, near: NearSide, value: boolean): boolean {
  if (p.kind !== "Where") return true;
  const known = decidable.get(p.cond) ?? new Map<string, boolean>();
  decidable.set(p.cond, known);
  const key = `${near}${value ? "+value" : ""}`;
  if (!known.has(key)) known.set(key, readsOnlyFields(p.cond, new Set([near]), value));
  return known.get(key)!;
}

/**
 * Is every edge of table `tb` whose `near` side is `node` one the client may not see there (no record, or the near side
 * hidden)? Decided on a stand-in edge holding only the node, without reading one, by whichever of the two rules reads
 * nothing else: the table's select rule (the edge hidden) or the near field's (the side hidden). False otherwise (read
 * them all). Explaining hears every edge's decisions: no shortcut then.
 */
export async function nearSideHidden(ctx: Ctx, tb: string, near: NearSide, node: RecordId): Promise<boolean> {
  if (!permissionsApply(ctx, false) || ctx.explain) return false;
  const table = ctx.core.catalog.table(needNs(ctx), needDb(ctx), tb);
  // no table: every record of it is hidden from a client whose permissions apply (selectDocument)
  if (!table) return true;
  const env = docEnv(ctx, { standIn: true });
  const standIn = { id: new RecordId(tb, node.id), [near]: node };
  const field = table.fields.get(near);
  try {
    // 1. the edge table's select rule
    if (readsOnlyNear(table.def.permissions.select, near, false) && !(checkPermissionsQuick(env, table, "select", standIn) && (await checkPermissionsTable(env, table, "select", standIn)))) return true;
    // 2. the near field's select rule
    return field !== undefined && readsOnlyNear(field.permissions.select, near, true) && !(await decide(env, { kind: "field", table, field, path: [near] }, "select", standIn, { value: node, this: standIn }));
  } catch {
    // a rule's error is each edge's to raise: read them
    return false;
  }
}
