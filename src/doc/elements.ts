// doc/: an element rule (`tags[*]`) on a write of an existing record — the data clause writes each array as the client
// sees it (its hidden elements taken out, so an index counts only visible ones), and the array it made is merged against
// the stored one by the rules, so that hidden elements stay, denied ones cannot be removed, and the outcome the client
// can see depends only on what it may see (attack pass 7, E7; pass 8, F5; stricter than SurrealDB, which judges the new
// array index by index against the stored one, hidden elements counted).

import type { DefineFieldStatement } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import type { Value, ValueObject } from "../value/types.js";
import { decide } from "./decide.js";
import type { DocEnv } from "./env.js";
import { fieldsInOrder, getPath, putPath, setPath, walkField } from "./paths.js";
import type { Path } from "./paths.js";

/** The merged record, and for each element path of it the stored value its rules judge the write against (`$before`). */
export interface ElementsMerged {
  readonly doc: ValueObject;
  readonly olds: ReadonlyMap<string, Value>;
}

export const pathKey = (path: Path): string => JSON.stringify(path);

/** Is `fd` an element rule whose merge can change a client's write (see mergeElements)? */
function mergesElements(env: DocEnv, fd: DefineFieldStatement): boolean {
  const parts = fd.name.parts;
  const perms = fd.permissions;
  if (parts[parts.length - 1]?.kind !== "All" || !env.permissionsApply(true)) return false;
  return perms.select.kind !== "Full" || perms.update.kind !== "Full" || env.observe?.all === true;
}

/** Of a stored record's hidden paths, the array elements an element rule hides (the merge puts them back in place). */
export function hiddenElements(env: DocEnv, table: TableEntry, full: ValueObject, hidden: readonly Path[]): Path[] {
  if (hidden.length === 0) return [];
  const keys = new Set(hidden.map(pathKey));
  const out: Path[] = [];
  for (const fd of table.fields.values()) {
    if (!mergesElements(env, fd)) continue;
    for (const [parent, arr] of walkField(full, fd.name.parts.slice(0, -1), env.compat)) {
      if (Array.isArray(arr)) arr.forEach((_, j) => keys.has(pathKey([...parent, j])) && out.push([...parent, j]));
    }
  }
  return out;
}

/**
 * `doc` with every array on the way to `path` (and the one there) as the client sees it: its hidden elements (`elements`,
 * in `doc`'s coordinates) taken out, so each index of `path` counts only elements the client may see. Returns the record
 * and the hidden elements left, in its coordinates. An array taken out this way is merged back by mergeElements.
 */
export function clientArrays(doc: ValueObject, elements: readonly Path[], path: Path): { doc: ValueObject; elements: Path[] } {
  const left: Path[] = [];
  const frame = (v: Value, at: Path, depth: number, under: readonly Path[]): Value => {
    let out = v;
    let inner = under;
    if (Array.isArray(v)) {
      const gone = new Set(under.filter((p) => p.length === at.length + 1).map((p) => p[at.length] as number));
      if (gone.size > 0) {
        // the visible elements, and the deeper hidden ones re-indexed to them
        const moved = new Map<number, number>();
        out = v.filter((_, j) => !gone.has(j) && moved.set(j, moved.size));
        inner = under.filter((p) => p.length > at.length + 1 && moved.has(p[at.length] as number)).map((p) => [...at, moved.get(p[at.length] as number)!, ...p.slice(at.length + 1)]);
      }
    }
    const head = path[depth];
    const here = inner.filter((p) => head === undefined || String(p[at.length]) !== String(head));
    left.push(...here);
    if (head === undefined) return out;
    const step = Array.isArray(out) ? Number(head) : head;
    const below = inner.filter((p) => p.length > at.length && String(p[at.length]) === String(head)).map((p) => [...at, step, ...p.slice(at.length + 1)]);
    const child = getPath(out, [head]);
    if (child === undefined || below.length === 0) {
      left.push(...below);
      return out;
    }
    const framed = frame(child, [...at, step], depth + 1, below);
    return framed === child ? out : Array.isArray(out) ? out.map((x, j) => (j === step ? framed : x)) : setPath(out as ValueObject, [head], framed);
  };
  return { doc: frame(doc, [], 0, elements) as ValueObject, elements: left };
}

/** Merge every element rule's arrays the write made (mergeElements), in the order the fields are processed. */
export async function mergeWrittenArrays(env: DocEnv, table: TableEntry, before: ValueObject, doc: ValueObject): Promise<ElementsMerged> {
  const olds = new Map<string, Value>();
  let out = doc;
  // (most tables have no element rule: no sort)
  if (![...table.fields.values()].some((fd) => mergesElements(env, fd))) return { doc, olds };
  for (const [, fd] of fieldsInOrder(table)) {
    if (!mergesElements(env, fd)) continue;
    const merged = await mergeElements(env, table, fd, before, out);
    out = merged.doc;
    for (const [k, v] of merged.olds) olds.set(k, v);
  }
  return { doc: out, olds };
}

/**
 * Merge, for an element definition, every array the write made with the stored array at the same path. The data clause
 * wrote it as the client sees it (clientArrays; or left it the stored array itself, which needs no merge):
 * 1. the stored elements the client may not select are hidden ones; the others are its visible slots, in order;
 * 2. the new array is the client's: hidden elements are never in it, so a value equal to one is the client's own;
 * 3. its k-th element fills the k-th visible slot (judged against the element stored there), later ones follow;
 * 4. a visible slot the client's array no longer reaches is removed, unless the update rule denies it (then it stays);
 * 5. each hidden element keeps its place before the visible slot it preceded (trailing ones before appended elements).
 */
async function mergeElements(env: DocEnv, table: TableEntry, fd: DefineFieldStatement, before: ValueObject, doc: ValueObject): Promise<ElementsMerged> {
  const olds = new Map<string, Value>();
  const parts = fd.name.parts;
  const judged = (path: Path) => ({ kind: "field", table, field: fd, path }) as const;
  const shown = (path: Path, value: Value, d: ValueObject) => decide(env, judged(path), "select", d, { value, this: d });
  let out = doc;
  for (const [parent, made] of walkField(doc, parts.slice(0, -1), env.compat)) {
    const stored = getPath(before, parent);
    if (!Array.isArray(stored) || !Array.isArray(made) || made === stored) continue;
    // 1. hidden stored elements, each with the visible slot it precedes
    const hidden: { value: Value; slot: number }[] = [];
    const visible: Value[] = [];
    for (const [j, v] of stored.entries()) {
      if (await shown([...parent, j], v, before)) visible.push(v);
      else hidden.push({ value: v, slot: visible.length });
    }
    // 2-5. the merged array, and the stored value each of its elements is judged against
    const merged: Value[] = [];
    const put = (v: Value, old: Value) => {
      olds.set(pathKey([...parent, merged.length]), old);
      merged.push(v);
    };
    const slots = Math.max(made.length, visible.length);
    for (let k = 0; k <= slots; k++) {
      for (const h of hidden) if (h.slot === k) put(h.value, h.value);
      if (k < made.length) put(made[k], visible[k]);
      else if (k < visible.length) {
        const vars = { value: undefined, before: visible[k], after: undefined, input: undefined, this: out };
        if (!(await decide(env, judged([...parent, merged.length]), "update", out, vars))) put(visible[k], visible[k]);
      }
    }
    out = putPath(out, parent, merged, env.compat);
  }
  return { doc: out, olds };
}
