// The size of a value counted as a tree, and the limits on it. A value built by sharing is small in memory but not as a
// tree: `{a: $x, b: $x}` doubled 30 times has 2³⁰ leaves, and every deep walk (compare, print, store, send) visits them
// all (attack re-check R7); nested `array::repeat` multiplies past each call's own output cap (R8). Every place that
// builds a value checks it here; the size of each array and object of 1 KiB or more is remembered (values are never
// changed once built), so a check costs the value's own entries, however much of it is shared.

import { queryError } from "../errors/index.js";
import { Closure, Geometry, isValueObject, Range, RecordId, RecordIdRange, Regex, Table, type Value } from "./types.js";

/** How deep objects and arrays may nest in a computed or stored value (SurrealDB counts it as computation depth). */
export const MAX_VALUE_DEPTH = 120;

/**
 * The largest value, in approximate bytes as a tree (NODE per value; a string, a table name, a record id's table, a
 * regex's pattern or a closure's text its bytes as JSON sends them when longer, a NUL 6 bytes; bytes values 4 a byte; keys their length).
 */
export const MAX_VALUE_SIZE = 16 * 1024 * 1024;

/**
 * The longest string a value holds, in UTF-16 units (ours: SurrealDB has none): one call of a builtin over a string is
 * linear in it and runs on the event loop, so a string of 16 Mi characters held it for seconds (attack pass 11, I5).
 */
export const MAX_STRING_LENGTH = 4 * 1024 * 1024;

/** The largest statement result (the rows of a SELECT are many values, each up to MAX_VALUE_SIZE). */
export const MAX_RESULT_SIZE = 4 * MAX_VALUE_SIZE;

/** Approximate bytes a scalar, or the frame of an array, object or record id, counts. */
const NODE = 16;

/**
 * Bytes a JSON answer sends for one byte of a bytes value (a number and a comma: up to 4). A table's name and a record
 * id's table count like strings (attack pass 13, K2 / K4: they counted nothing, so a 116-byte query answered 160 MiB,
 * and an anonymous connection's `let` of tables ran the server out of memory).
 */
const JSON_BYTE = 4;

/** Sizes are remembered as size × DEPTHS + depth (depth ≤ MAX_VALUE_DEPTH < DEPTHS). */
const DEPTHS = 128;
const remembered = new WeakMap<object, number>();
/** Smaller values are measured again when met (at most REMEMBER_FROM / NODE entries each): cheaper than remembering them all. */
const REMEMBER_FROM = 1024;

const tooDeep = (): never => {
  throw queryError("ComputationDepthExceeded");
};

/** Thrown by `measure` past its limit, for the caller to name the error. */
const OVER: unique symbol = Symbol("over the size limit");

/** Where `flat` puts the character it reads (a write the compiler cannot drop). */
let flatSink = 0;

/**
 * `s` as one flat piece: V8 keeps `a + b` as a rope node until the text is read, so a string built a character at a
 * time holds ~32 bytes a character (attack pass 3, A5); reading a character flattens it in place (~1 byte a character).
 * Every measured value passes here, so function results, literals and written records hold flat strings.
 */
export function flat(s: string): string {
  if (s.length > NODE) flatSink = s.charCodeAt(0);
  return s;
}

/** Characters JSON.stringify writes as more than their UTF-8 bytes: controls, `"`, `\\`, surrogates (paired or lone). */
const ESCAPED = /[\x00-\x1f"\\\ud800-\udfff]/;

/** The bytes of `s` as a JSON answer sends it: UTF-8, a control character as `\\u00XX` (6), `"` `\\` as 2, a lone surrogate 6. */
export function wireLength(s: string): number {
  let n = Buffer.byteLength(s, "utf8");
  if (!ESCAPED.test(s)) return n;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) n += 1;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // a pair is 4 UTF-8 bytes, as counted; a lone surrogate counted 3 (U+FFFD) goes out as `\\udXXX`
      const pair = c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) i++;
      else n += 3;
    }
  }
  return n;
}

/** A string's size: NODE, or its bytes on the wire when longer; past MAX_STRING_LENGTH units refused. */
function stringSize(s: string): number {
  if (s.length <= NODE) return NODE;
  if (s.length > MAX_STRING_LENGTH) throw queryError("StringTooLarge", MAX_STRING_LENGTH);
  return Math.max(NODE, wireLength(flat(s)));
}

/** size × DEPTHS + depth of `v`, met `level` levels below the value being checked; over `limit` bytes throws OVER. */
function measure(v: unknown, level: number, limit: number): number {
  if (typeof v === "string") return stringSize(v) * DEPTHS;
  if (typeof v !== "object" || v === null) return NODE * DEPTHS;
  const known = remembered.get(v);
  if (known !== undefined) return known;
  // a fresh value nested past the limit: stop before the walk runs out of stack
  if (level > MAX_VALUE_DEPTH) tooDeep();
  // arrays and objects add a level of nesting; a record id, a range or a geometry is as deep as what it holds
  let m: number;
  if (Array.isArray(v)) m = items(v, level, limit) + 1;
  else if (isValueObject(v)) m = fields(v, level, limit) + 1;
  else if (v instanceof Uint8Array) m = Math.max(NODE, v.length * JSON_BYTE) * DEPTHS;
  else if (v instanceof RecordId) m = items([v.table, v.id], level, limit);
  else if (v instanceof Table) m = stringSize(v.name) * DEPTHS;
  // a regex and a closure go out as their text (attack pass 14, L2: they counted as a frame)
  else if (v instanceof Regex) m = stringSize(v.source) * DEPTHS;
  else if (v instanceof Closure) m = stringSize(v.text) * DEPTHS;
  else if (v instanceof RecordIdRange) m = items([v.begin?.value, v.end?.value], level, limit);
  else if (v instanceof Geometry) m = items([v.coordinates], level, limit);
  else if (v instanceof Range) m = items([v.begin?.value, v.end?.value], level, limit);
  else m = NODE * DEPTHS;
  if (m % DEPTHS > MAX_VALUE_DEPTH) tooDeep();
  if (m >= REMEMBER_FROM * DEPTHS) remembered.set(v, m);
  return m;
}

/** An array's NODE plus its elements' sizes, × DEPTHS, + the deepest element's depth. */
function items(values: readonly unknown[], level: number, limit: number): number {
  let size = NODE;
  let depth = 0;
  for (let i = 0; i < values.length; i++) {
    const m = measure(values[i], level + 1, limit);
    const d = m % DEPTHS;
    size += (m - d) / DEPTHS;
    if (d > depth) depth = d;
    if (size > limit) throw OVER;
  }
  return size * DEPTHS + depth;
}

/** An object's NODE plus its keys' lengths and values' sizes, × DEPTHS, + the deepest value's depth. */
function fields(o: Readonly<Record<string, unknown>>, level: number, limit: number): number {
  let size = NODE;
  let depth = 0;
  for (const k in o) {
    const m = measure(o[k], level + 1, limit);
    const d = m % DEPTHS;
    size += (m - d) / DEPTHS + k.length;
    if (d > depth) depth = d;
    if (size > limit) throw OVER;
  }
  return size * DEPTHS + depth;
}

/**
 * `v`'s size in approximate bytes as a tree, or NONE when it is larger than `limit`; nested deeper than MAX_VALUE_DEPTH
 * throws SurrealDB's computation-depth error. Costs only the arrays and objects not measured before.
 */
export function sizeWithin(v: Value, limit: number): number | undefined {
  try {
    const size = Math.floor(measure(v, 0, limit) / DEPTHS);
    return size > limit ? undefined : size;
  } catch (e) {
    if (e === OVER) return undefined;
    throw e;
  }
}

/** Whether `v` holds a closure anywhere (a record may not: SurrealDB 2.6.0 refuses to store one). */
export function holdsClosure(v: Value): boolean {
  if (v instanceof Closure) return true;
  if (Array.isArray(v)) return v.some(holdsClosure);
  if (isValueObject(v)) {
    for (const k in v) if (holdsClosure(v[k])) return true;
  }
  return false;
}

/** Refuses a value nested deeper than MAX_VALUE_DEPTH, or larger than `limit` as a tree (ours: SurrealDB has no size limit). */
export function checkValue(v: Value, limit = MAX_VALUE_SIZE): void {
  if (sizeWithin(v, limit) === undefined) throw queryError("ValueTooLarge", limit);
}

/** `v`, once checked against the value limits. */
export function checked<T extends Value>(v: T, limit?: number): T {
  checkValue(v, limit);
  return v;
}

/** Refuses a string of `length` characters before it is built, past the longest string. */
export function checkStringLength(length: number): void {
  if (length > MAX_STRING_LENGTH) throw queryError("StringTooLarge", MAX_STRING_LENGTH);
}

/** Refuses an array of `count` values of `each` bytes or more before it is built, past the largest value's size. */
export function checkArrayLength(count: bigint, each = NODE): void {
  if (count > BigInt(Math.floor((MAX_VALUE_SIZE - NODE) / each))) throw queryError("ValueTooLarge", MAX_VALUE_SIZE);
}
