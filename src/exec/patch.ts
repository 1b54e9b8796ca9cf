// exec/: JSON Patch for `UPDATE … PATCH` (RFC 6902 as SurrealDB applies it) and the diff `RETURN DIFF` / live DIFF send.

import { patchApply, patchFromText, patchMake, patchToText } from "diff-match-patch-es";
import type { Patch } from "diff-match-patch-es";
import { QueryError, queryError } from "../errors/index.js";
import { hasField, ownField, setField, sortedKeys, toRawString, toSql, valueEquals } from "../value/index.js";
import { isValueObject } from "../value/types.js";
import type { Compat } from "./session.js";
import type { Value, ValueObject } from "../value/types.js";

/** One path step: an object key, or (when numeric) an array index; `-` is v2's "end of array". */
type Part = string;

type Operation =
  | { op: "add" | "replace" | "test" | "change"; path: Part[]; value: Value }
  | { op: "remove"; path: Part[] }
  | { op: "move" | "copy"; path: Part[]; from: Part[] };

const invalid = (message: string): QueryError => queryError("InvalidPatch", message);

/** SurrealDB's `jsonpath`: leading slashes dropped, split on `/` and `.`, no `~` unescaping. */
function jsonPath(v: Value): Part[] {
  return toRawString(v).replace(/^\/+/, "").split(/[./]/);
}

const isIndex = (p: Part): boolean => /^\d+$/.test(p);

function parseOperations(ops: Value): Operation[] {
  if (!Array.isArray(ops)) throw invalid("Operations must be an array");
  return ops.map((o) => {
    if (!isValueObject(o)) throw invalid("Operation must be an object");
    if (o.op === undefined) throw invalid("'op' key missing");
    const op = toRawString(o.op);
    const known = ["add", "remove", "replace", "change", "copy", "move", "test"];
    if (!known.includes(op)) throw invalid(`unknown op '${op}'`);
    if (o.path === undefined) throw invalid("'path' key missing");
    const path = jsonPath(o.path);
    switch (op) {
      case "remove":
        return { op, path };
      case "move":
      case "copy":
        if (o.from === undefined) throw invalid("'from' key missing");
        return { op, path, from: jsonPath(o.from) };
      default:
        if (!("value" in o)) throw invalid("'value' key missing");
        return { op: op as "add", path, value: o.value };
    }
  });
}

const isSome = (v: Value): boolean => v !== undefined && v !== null;

/** The value at `path` (an array under a key step yields each element's value). */
export function pick(cur: Value, path: readonly Part[]): Value {
  if (path.length === 0) return cur;
  const [p, ...rest] = path as [Part, ...Part[]];
  if (isValueObject(cur)) return pick(ownField(cur, p), rest);
  if (Array.isArray(cur)) return isIndex(p) ? pick(cur[Number(p)], rest) : cur.map((e) => pick(e, path));
  return undefined;
}

/** `cur` with `val` at `path` (SurrealDB `put`: missing objects are created, out-of-range indexes ignored; v1 keeps a NONE-valued key). */
function put(cur: Value, path: readonly Part[], val: Value, keepNone = false): Value {
  if (path.length === 0) return val;
  const [p, ...rest] = path as [Part, ...Part[]];
  if (isValueObject(cur)) {
    const existing = ownField(cur, p);
    const next = put(isSome(existing) ? existing : {}, rest, val, keepNone);
    const out: ValueObject = { ...cur };
    if (next === undefined && !keepNone) delete out[p];
    else setField(out, p, next);
    return out;
  }
  if (Array.isArray(cur)) {
    if (!isIndex(p)) return cur.map((e) => put(e, path, val, keepNone));
    const i = Number(p);
    if (i >= cur.length) return cur;
    const out = [...cur];
    out[i] = put(cur[i], rest, val, keepNone);
    return out;
  }
  if (cur === undefined || cur === null) return put({}, path, val, keepNone);
  return cur;
}

/** `cur` without the value at `path`. */
function cut(cur: Value, path: readonly Part[]): Value {
  const [p, ...rest] = path as [Part, ...Part[]];
  if (p === undefined) return cur;
  if (isValueObject(cur)) {
    if (!hasField(cur, p)) return cur;
    const out: ValueObject = { ...cur };
    if (rest.length === 0) delete out[p];
    else setField(out, p, cut(cur[p], rest));
    return out;
  }
  if (Array.isArray(cur)) {
    if (!isIndex(p)) return cur.map((e) => cut(e, path));
    const i = Number(p);
    if (i >= cur.length) return cur;
    if (rest.length === 0) return cur.filter((_, j) => j !== i);
    const out = [...cur];
    out[i] = cut(cur[i], rest);
    return out;
  }
  return cur;
}

/** SurrealDB `inc` on an array: an array value is appended element by element, anything else pushed. */
function appendTo(arr: readonly Value[], val: Value): Value[] {
  return Array.isArray(val) ? [...arr, ...val] : [...arr, val];
}

function add(doc: Value, path: Part[], val: Value, compat: Compat): Value {
  const keep = compat === 1;
  const last = path[path.length - 1]!;
  // v2: an index (or `-`) as the last step inserts into the parent array, or replaces a non-array parent
  if (compat === 2 && (isIndex(last) || last === "-")) {
    const parentPath = path.slice(0, -1);
    const parent = pick(doc, parentPath);
    if (!Array.isArray(parent)) return put(doc, parentPath, val, keep);
    const at = last === "-" ? parent.length : Math.min(Number(last), parent.length);
    return put(doc, parentPath, [...parent.slice(0, at), val, ...parent.slice(at)], keep);
  }
  const target = pick(doc, path);
  return put(doc, path, Array.isArray(target) ? appendTo(target, val) : val, keep);
}

/**
 * diff-match-patch counts UTF-16 units where SurrealDB's Rust dmp counts chars: while diffing or patching,
 * each astral char stands in as a private-use BMP char, so offsets and lengths come out as SurrealDB's.
 */
class Narrow {
  private readonly toBmp = new Map<string, string>();
  private readonly fromBmp = new Map<string, string>();
  constructor(texts: readonly string[]) {
    const used = new Set<string>();
    for (const t of texts) for (const ch of t) used.add(ch);
    let next = 0xe000;
    for (const ch of used) {
      if (ch.length === 1) continue;
      while (next <= 0xf8ff && used.has(String.fromCharCode(next))) next++;
      if (next > 0xf8ff) break;
      const stand = String.fromCharCode(next++);
      this.toBmp.set(ch, stand);
      this.fromBmp.set(stand, ch);
    }
  }
  in(s: string): string {
    return this.toBmp.size === 0 ? s : Array.from(s, (c) => this.toBmp.get(c) ?? c).join("");
  }
  out(s: string): string {
    return this.fromBmp.size === 0 ? s : Array.from(s, (c) => this.fromBmp.get(c) ?? c).join("");
  }
  diffs(patches: Patch[], way: "in" | "out"): Patch[] {
    for (const p of patches) p.diffs = p.diffs.map(([op, t]) => [op, this[way](t)]);
    return patches;
  }
}

/** A diff-match-patch text applied to a string (the `change` operation). */
function change(text: string, patch: string): string {
  let patches: Patch[];
  try {
    patches = patchFromText(patch);
  } catch {
    throw invalid("InvalidInput");
  }
  const n = new Narrow([text, ...patches.flatMap((p) => p.diffs.map(([, t]) => t))]);
  return n.out(String(patchApply(n.diffs(patches, "in"), n.in(text))[0]));
}

/** `doc` after the patch operations; throws SurrealDB's errors for a malformed patch or a failed `test`. */
export function applyPatch(doc: ValueObject, ops: Value, compat: Compat): ValueObject {
  const keep = compat === 1;
  let out: Value = doc;
  for (const o of parseOperations(ops)) {
    switch (o.op) {
      case "add":
        out = add(out, o.path, o.value, compat);
        break;
      case "remove":
        out = cut(out, o.path);
        break;
      case "replace":
        out = put(out, o.path, o.value, keep);
        break;
      case "change": {
        const cur = pick(out, o.path);
        if (typeof o.value === "string" && typeof cur === "string") out = put(out, o.path, change(cur, o.value), keep);
        break;
      }
      case "copy":
        out = put(out, o.path, pick(out, o.from), keep);
        break;
      case "move": {
        const v = pick(out, o.from);
        out = put(cut(out, o.from), o.path, v, keep);
        break;
      }
      case "test": {
        const got = pick(out, o.path);
        if (!valueEquals(o.value, got, { compat })) {
          throw queryError("PatchTest", toSql(o.value, { compat }), toSql(got, { compat }));
        }
        break;
      }
    }
  }
  // a patch that replaces the whole document with a non-object leaves the record as it was
  return isValueObject(out) ? out : doc;
}

/** diff-match-patch text turning `a` into `b`, with the `start,length` headers SurrealDB's dmp writes. */
function textPatch(a: string, b: string): string {
  const n = new Narrow([a, b]);
  return patchToText(n.diffs(patchMake(n.in(a), n.in(b)), "out")).replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$/gm, (_m, s1: string, l1?: string, s2?: string, l2?: string) => `@@ -${s1}${l1 ?? ",1"} +${s2}${l2 ?? ",1"} @@`);
}

/** SurrealDB's `Value::diff`: JSON-Patch operations (plus `change` for strings) turning `a` into `b`. */
export function diffValues(a: Value, b: Value, base = "", compat: Compat = 2): ValueObject[] {
  const opts = { compat };
  if (valueEquals(a, b, opts)) return [];
  if (isValueObject(a) && isValueObject(b)) {
    const ops: ValueObject[] = [];
    for (const k of sortedKeys(a)) if (a[k] !== undefined && ownField(b, k) === undefined) ops.push({ op: "remove", path: `${base}/${k}` });
    for (const k of sortedKeys(b)) {
      const [x, y] = [ownField(a, k), b[k]];
      if (y === undefined) continue;
      if (x === undefined) ops.push({ op: "add", path: `${base}/${k}`, value: y });
      else ops.push(...diffValues(x, y, `${base}/${k}`, compat));
    }
    return ops;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const ops: ValueObject[] = [];
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) ops.push(...diffValues(a[i], b[i], `${base}/${i}`, compat));
    for (let i = n; i < b.length; i++) ops.push({ op: "add", path: `${base}/${i}`, value: b[i] });
    for (let i = n; i < a.length; i++) ops.push({ op: "remove", path: `${base}/${i}` });
    return ops;
  }
  if (typeof a === "string" && typeof b === "string") return [{ op: "change", path: base, value: textPatch(a, b) }];
  return [{ op: "replace", path: base, value: b }];
}
