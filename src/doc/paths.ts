// doc/: field paths (object keys and array indexes) inside plain values, read and written without mutating them, and the
// concrete paths a field definition's name (`emails[*].verified`) covers in a document, found as SurrealDB finds them.

import type { DefineFieldStatement, IdiomPart } from "../ast/nodes.js";
import type { TableEntry } from "../store/catalog.js";
import { hasField, ownField, setField } from "../value/object.js";
import { isValueObject } from "../value/types.js";
import type { Value, ValueObject } from "../value/types.js";

/** One step of a concrete path: an object key, or an array index (on an object: the key it spells). */
export type PathPart = string | number;
export type Path = readonly PathPart[];

/** The array index a part stands for: a number, or the digits a data clause's `[0]` arrives as. */
function indexOf(p: PathPart): number | undefined {
  return typeof p === "number" ? p : /^(0|[1-9]\d*)$/.test(p) ? Number(p) : undefined;
}

function child(v: Value, p: PathPart): Value {
  if (Array.isArray(v)) {
    const i = indexOf(p);
    return i === undefined ? undefined : v[i];
  }
  return isValueObject(v) ? ownField(v, String(p)) : undefined;
}

export function getPath(doc: Value, path: Path): Value {
  let v: Value = doc;
  for (const p of path) v = child(v, p);
  return v;
}

/** A copy of `doc` with `path` set to `value`; NONE removes the key or the array element (later elements move up). */
export function setPath(doc: ValueObject, path: Path, value: Value): ValueObject {
  return setIn(doc, path, value) as ValueObject;
}

function setIn(v: Value, path: Path, value: Value): Value {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const i = indexOf(head);
  if (Array.isArray(v) && i !== undefined) {
    if (i >= v.length) return v;
    const out = [...v];
    if (rest.length === 0 && value === undefined) out.splice(i, 1);
    else out[i] = setIn(v[i], rest, value);
    return out;
  }
  const key = String(head);
  const obj: ValueObject = isValueObject(v) ? v : {};
  if (rest.length === 0) {
    if (value !== undefined) return { ...obj, [key]: value };
    if (!hasField(obj, key)) return v;
    const out = { ...obj };
    delete out[key];
    return out;
  }
  const inner = ownField(obj, key);
  const container = isValueObject(inner) || (Array.isArray(inner) && indexOf(rest[0]!) !== undefined);
  if (!container && value === undefined) return v;
  return { ...obj, [key]: setIn(container ? inner : {}, rest, value) };
}

/**
 * A copy of `doc` with a processed field value written at `path`, as SurrealDB writes field values: missing objects are
 * created (1.x: not for a NONE) and NULL becomes one, other values and indexes past the end are left alone; NONE removes
 * the key, and leaves a NONE in an array element's place (1.x removes the element: see `withoutPaths`).
 */
export function putPath(doc: ValueObject, path: Path, value: Value, compat: 1 | 2): ValueObject {
  return putIn(doc, path, value, compat) as ValueObject;
}

function putIn(v: Value, path: Path, value: Value, compat: 1 | 2): Value {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const none = value === undefined;
  if (Array.isArray(v)) {
    if (typeof head !== "number" || head >= v.length) return v;
    const out = [...v];
    out[head] = putIn(v[head], rest, value, compat);
    return out;
  }
  const obj = v === null && !(none && compat === 1) ? {} : v;
  if (!isValueObject(obj)) return v;
  const key = String(head);
  if (rest.length === 0) {
    const out = { ...obj };
    if (none) delete out[key];
    else setField(out, key, value);
    return out;
  }
  const inner = ownField(obj, key);
  if (inner === undefined && none && compat === 1) return obj;
  return { ...obj, [key]: putIn(inner === undefined ? {} : inner, rest, value, compat) };
}

/**
 * A copy of `doc` without the values at `paths`, all given in the coordinates of `doc`: removing an array element does
 * not move the others under a later path (SurrealDB removes them one by one, so a later hidden element can survive).
 */
export function withoutPaths(doc: ValueObject, paths: readonly Path[]): ValueObject {
  return without(doc, paths) as ValueObject;
}

function without(v: Value, paths: readonly Path[]): Value {
  if (paths.length === 0) return v;
  const here = new Set<string>();
  const deeper = new Map<string, Path[]>();
  for (const [head, ...rest] of paths) {
    if (head === undefined) continue;
    const k = String(head);
    if (rest.length === 0) here.add(k);
    else deeper.set(k, [...(deeper.get(k) ?? []), rest]);
  }
  const keep = (k: string, x: Value): Value => (deeper.has(k) ? without(x, deeper.get(k)!) : x);
  if (Array.isArray(v)) return v.flatMap((x, i) => (here.has(String(i)) ? [] : [keep(String(i), x)]));
  if (!isValueObject(v)) return v;
  const out: ValueObject = {};
  for (const [k, x] of Object.entries(v)) if (!here.has(k)) setField(out, k, keep(k, x));
  return out;
}

/** A field definition's table fields in SurrealDB's processing order: by name, as its key-value store keeps them. */
export function fieldsInOrder(table: TableEntry): [string, DefineFieldStatement][] {
  return [...table.fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function literalIndex(p: IdiomPart): number | undefined {
  if (p.kind !== "Index" || p.index.kind !== "Literal") return undefined;
  const v = p.index.value;
  return typeof v === "bigint" || typeof v === "number" ? Number(v) : undefined;
}

/** The value an idiom of names, indexes and `[*]` reads from a document (as an index reads it): a name met on an array
 * is read from each element, giving an array. */
export function pickField(v: Value, parts: readonly IdiomPart[]): Value {
  const [p, ...rest] = parts;
  if (!p) return v;
  const n = literalIndex(p);
  if (Array.isArray(v)) {
    if (p.kind === "All") return v.map((x) => pickField(x, rest));
    if (p.kind === "Field") return v.map((x) => pickField(x, parts));
    return n === undefined ? undefined : pickField(v[n], rest);
  }
  if (!isValueObject(v)) return undefined;
  if (p.kind === "Field") return pickField(ownField(v, p.name), rest);
  return n === undefined ? undefined : pickField(ownField(v, String(n)), rest);
}

/**
 * Every concrete path a field definition covers, with the value there, for processing a write: a missing key or a
 * value that is no object still yields its path (with NONE); `[*]` yields each element (2.x: each value of an object;
 * 1.x: the object itself); a name part met on an array is skipped and yields each element; `[n]` past the end yields nothing.
 */
export function walkField(doc: Value, parts: readonly IdiomPart[], compat: 1 | 2): [Path, Value][] {
  const out: [Path, Value][] = [];
  const walk = (v: Value, i: number, prev: PathPart[]): void => {
    const p = parts[i];
    if (!p) {
      out.push([prev, v]);
      return;
    }
    const n = literalIndex(p);
    if (Array.isArray(v)) {
      if (p.kind === "Index") {
        if (n !== undefined && n < v.length) walk(v[n], i + 1, [...prev, n]);
      } else v.forEach((x, j) => walk(x, i + 1, [...prev, j]));
    } else if (isValueObject(v) && p.kind === "All") {
      if (compat === 1) walk(v, i + 1, prev);
      else for (const [k, x] of Object.entries(v)) walk(x, i + 1, [...prev, k]);
    } else if (p.kind === "Field") walk(child(v, p.name), i + 1, [...prev, p.name]);
    else if (n !== undefined) walk(child(v, n), i + 1, [...prev, n]);
  };
  walk(doc, 0, []);
  return out;
}

/** Every concrete path a field definition covers that exists in `doc`, for hiding fields on read (as `walkField`, but
 * a missing key, an object met by `[n]` or a value that is no object yields nothing). */
export function eachField(doc: Value, parts: readonly IdiomPart[], compat: 1 | 2): Path[] {
  const out: Path[] = [];
  const each = (v: Value, i: number, prev: PathPart[]): void => {
    const p = parts[i];
    if (!p) {
      out.push(prev);
      return;
    }
    if (Array.isArray(v)) {
      const n = literalIndex(p);
      if (p.kind === "Index") {
        if (n !== undefined && n < v.length) each(v[n], i + 1, [...prev, n]);
      } else v.forEach((x, j) => each(x, i + 1, [...prev, j]));
    } else if (isValueObject(v)) {
      if (p.kind === "Field" && ownField(v, p.name) !== undefined) each(v[p.name], i + 1, [...prev, p.name]);
      else if (p.kind === "All" && compat === 1) each(v, i + 1, prev);
      else if (p.kind === "All") for (const [k, x] of Object.entries(v)) each(x, i + 1, [...prev, k]);
    }
  };
  each(doc, 0, []);
  return out;
}
