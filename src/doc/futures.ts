// doc/: a field whose VALUE is `<future> { … }` is computed again each time its record is read (SurrealDB's futures).
// The record keeps the value its last write computed; the definition says it is a future. A `<future>` a client's
// data clause writes is computed once, when written, with the writer's rights (stricter than SurrealDB: SECURITY.md).

import type { DefineFieldStatement } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import type { ValueObject } from "../value/types.js";
import type { DocEnv } from "./env.js";
import { putPath, walkField } from "./paths.js";

/** A field definition whose VALUE is a future. */
const isFuture = (fd: DefineFieldStatement): boolean => fd.value?.kind === "Cast" && fd.value.type.kind === "Basic" && fd.value.type.name === "future";

/**
 * The record as read: each future field it holds computed again on `full` (the stored record, as a VALUE sees it at
 * write) with the reader's rights, as every field VALUE runs with its invoker's; put into `seen` (what the reader may
 * select: a hidden field is not computed). A record written before the field's definition holds none and gets none.
 */
export async function computeFutures(env: DocEnv, table: TableEntry, full: ValueObject, seen: ValueObject): Promise<ValueObject> {
  if (table.fields.size === 0) return seen;
  let out = seen;
  for (const fd of table.fields.values()) {
    if (!isFuture(fd)) continue;
    for (const [path, stored] of walkField(seen, fd.name.parts, env.compat)) {
      if (stored === undefined) continue;
      const value = await env.evaluate(fd, fd.value!, full, { value: stored, before: stored, after: stored, input: undefined, this: full });
      out = putPath(out, path, value, env.compat);
    }
  }
  return out;
}
