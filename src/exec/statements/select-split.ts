// exec/statements: SELECT … SPLIT — each projected row once per element of the array at each SPLIT path, in turn.

import type { IdiomExpr } from "../../ast/nodes.js";
import { getPath, setPath } from "../../doc/paths.js";
import { isValueObject } from "../../value/types.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { placePath } from "../data.js";

/**
 * Split the rows on each path in turn (several paths multiply): an array gives one row per element (none for an empty
 * array), any other value keeps its row; a row that is no object (SELECT VALUE) is kept whole (an array one once per
 * element), as SurrealDB does.
 */
export async function splitRows<R extends { readonly out: Value }>(rows: readonly R[], split: readonly IdiomExpr[], ctx: Ctx): Promise<R[]> {
  let current = rows as R[];
  for (const idiom of split) {
    const path = placePath(idiom);
    const next: R[] = [];
    for (const row of current) {
      // an array row (SELECT VALUE) is picked element-wise: it comes out once per element, unchanged
      const value = isValueObject(row.out) ? getPath(row.out, path) : row.out;
      if (!Array.isArray(value)) {
        next.push(row);
        continue;
      }
      for (const element of value) {
        await ctx.budget.checkpoint();
        next.push(isValueObject(row.out) ? { ...row, out: setPath(row.out, path, element) } : row);
      }
    }
    current = next;
  }
  return current;
}
