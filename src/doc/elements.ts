// doc/: an element rule (`tags[*]`) on a write of an existing record — the array the write made is merged against the
// stored one by the rules, so that hidden elements stay, denied ones cannot be removed, and the outcome the client can
// see depends only on what it may see (attack pass 7, E7; stricter than SurrealDB, which judges the new array index by index).

import type { DefineFieldStatement } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import { valueEquals } from "../value/index.js";
import type { Value, ValueObject } from "../value/types.js";
import { decide } from "./decide.js";
import type { DocEnv, WriteOp } from "./env.js";
import { getPath, putPath, walkField } from "./paths.js";
import type { Path } from "./paths.js";

/** The merged record, and for each element path of it the stored value its rules judge the write against (`$before`). */
export interface ElementsMerged {
  readonly doc: ValueObject;
  readonly olds: ReadonlyMap<string, Value>;
}

export const pathKey = (path: Path): string => JSON.stringify(path);

/**
 * Merge, for an element definition, every array the write made with the stored array at the same path:
 * 1. the stored elements the client may not select are hidden ones; the others are its visible slots, in order;
 * 2. the new array less the hidden elements carried over (equal values, each matched once) is the client's array;
 * 3. its k-th element fills the k-th visible slot (judged against the element stored there), later ones follow;
 * 4. a visible slot the client's array no longer reaches is removed, unless the update rule denies it (then it stays);
 * 5. each hidden element keeps its place before the visible slot it preceded (trailing ones before appended elements).
 */
export async function mergeElements(env: DocEnv, table: TableEntry, fd: DefineFieldStatement, op: WriteOp, doc: ValueObject): Promise<ElementsMerged> {
  const olds = new Map<string, Value>();
  const parts = fd.name.parts;
  const perms = fd.permissions;
  const before = op.before;
  if (parts[parts.length - 1]?.kind !== "All" || !before || !env.permissionsApply(true)) return { doc, olds };
  if (perms.select.kind === "Full" && perms.update.kind === "Full" && !env.observe?.all) return { doc, olds };
  const judged = (path: Path) => ({ kind: "field", table, field: fd, path }) as const;
  const shown = (path: Path, value: Value, d: ValueObject) => decide(env, judged(path), "select", d, { value, this: d });
  let out = doc;
  for (const [parent, made] of walkField(doc, parts.slice(0, -1), env.compat)) {
    const stored = getPath(before, parent);
    if (!Array.isArray(stored) || !Array.isArray(made)) continue;
    // 1. hidden stored elements, each with the visible slot it precedes
    const hidden: { value: Value; slot: number; used: boolean }[] = [];
    const visible: Value[] = [];
    for (const [j, v] of stored.entries()) {
      if (await shown([...parent, j], v, before)) visible.push(v);
      else hidden.push({ value: v, slot: visible.length, used: false });
    }
    // 2. the client's array: the new one less the hidden elements it carried over
    const client: Value[] = [];
    for (const [j, v] of made.entries()) {
      const carried = hidden.length > 0 && !(await shown([...parent, j], v, out)) ? hidden.find((h) => !h.used && valueEquals(h.value, v, { compat: env.compat })) : undefined;
      if (carried) carried.used = true;
      else client.push(v);
    }
    // 3-5. the merged array, and the stored value each of its elements is judged against
    const merged: Value[] = [];
    const put = (v: Value, old: Value) => {
      olds.set(pathKey([...parent, merged.length]), old);
      merged.push(v);
    };
    const slots = Math.max(client.length, visible.length);
    for (let k = 0; k <= slots; k++) {
      for (const h of hidden) if (h.slot === k) put(h.value, h.value);
      if (k < client.length) put(client[k], visible[k]);
      else if (k < visible.length) {
        const vars = { value: undefined, before: visible[k], after: undefined, input: undefined, this: out };
        if (!(await decide(env, judged([...parent, merged.length]), "update", out, vars))) put(visible[k], visible[k]);
      }
    }
    out = putPath(out, parent, merged, env.compat);
  }
  return { doc: out, olds };
}
