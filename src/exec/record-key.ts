// exec/: record ids a statement chooses through its data — `CREATE person SET id = 'tobie'`, `CONTENT { id: … }`,
// `INSERT { id: … }`, `RELATE … SET id = …` — and the check that a data clause's id names the record it writes.

import type { DataClause } from "../ast/nodes.js";
import { queryError } from "../errors/index.js";
import { randomRecordKey, toSql, valueEquals } from "../value/index.js";
import { RecordId, RecordIdRange, Uuid, isValueObject } from "../value/types.js";
import type { RecordIdKey, Value } from "../value/types.js";
import type { Ctx } from "./context.js";
import { withCtx } from "./context.js";
import { evaluate } from "./expressions/evaluate.js";

/** The id a data clause names, evaluated on no document as SurrealDB does; undefined when it names none. */
export async function dataId(data: DataClause | undefined, ctx: Ctx): Promise<Value | undefined> {
  if (!data) return undefined;
  const noDoc = withCtx(ctx, { doc: undefined });
  switch (data.kind) {
    case "Set": {
      // the first assignment to `id` itself, whatever its operator
      const a = data.items.find((i) => i.place.parts.length === 1 && i.place.parts[0]!.kind === "Field" && i.place.parts[0]!.name === "id");
      return a ? evaluate(a.value, noDoc) : undefined;
    }
    case "Merge":
    case "Content":
    case "Replace": {
      const e = data.value;
      // 2.x: only the `id` entry of an object literal, or a parameter's value; 1.x: the whole value
      if (ctx.core.compat === 2 && e.kind === "Object") {
        const entry = e.entries.find((x) => x.key === "id");
        return entry ? evaluate(entry.value, noDoc) : undefined;
      }
      if (ctx.core.compat === 2 && e.kind !== "Param") return undefined;
      const v = await evaluate(e, noDoc);
      return isValueObject(v) ? v.id : undefined;
    }
    case "Unset":
    case "Patch":
      return undefined;
  }
}

/** The key a given id takes in a table: a record id's own key (from any table), a non-empty string, an integer (a
 * float truncated), an array, object or uuid (1.x: its text); anything else is SurrealDB's "not a valid id". */
function keyOf(v: Value, compat: 1 | 2): RecordIdKey {
  if (v instanceof RecordId && !(v.id instanceof RecordIdRange)) return v.id;
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isFinite(v)) return BigInt(Math.trunc(v));
  // 1.x ids have no uuid kind: a uuid names the record by its text
  if (v instanceof Uuid) return compat === 1 ? v.text : v;
  if (Array.isArray(v) || isValueObject(v)) return v;
  throw queryError("IdInvalid", toSql(v, { compat }));
}

/** The record of `table` a statement writes when its data names `given` (NONE or no id: a random one). */
export function recordIdFor(table: string, given: Value | undefined, compat: 1 | 2): RecordId {
  return new RecordId(table, given === undefined ? randomRecordKey() : keyOf(given, compat));
}

/** A data clause's id must name the record being written: 2.x compares keys (`'tobie'` names `person:tobie`), 1.x
 * wants that very record id. NONE or no id names nothing. */
export function checkDataId(rid: RecordId, given: Value | undefined, compat: 1 | 2): void {
  if (given === undefined) return;
  const opts = { compat };
  const same = compat === 1 ? valueEquals(given, rid, opts) : keyMatches(rid, given, compat);
  if (!same) throw queryError("IdMismatch", toSql(given, opts), compat);
}

function keyMatches(rid: RecordId, given: Value, compat: 1 | 2): boolean {
  try {
    return valueEquals(keyOf(given, compat) as Value, rid.id as Value, { compat });
  } catch {
    return false;
  }
}
