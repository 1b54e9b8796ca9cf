// store/: how one definition is stored — its AST (with generated secrets) in a compact binary layout, exact to the
// last field, written in one pass without an intermediate tree. Each value is a tag byte and its body; an AST key,
// node kind or operator is its position in catalog-words.ts (one byte for most), any other string its UTF-8 bytes.
// The AST's source positions are left out: where a definition's text was says nothing about the definition.

import { setField } from "../value/object.js";
import { Datetime, Decimal, Duration, Geometry, RecordId, RecordIdRange, Regex, Table, Uuid } from "../value/types.js";
import type { RecordIdKey } from "../value/types.js";
import { decodeJsonDefinition } from "./catalog-codec-v1.js";
import { WORDS } from "./catalog-words.js";

/** The first byte of every stored definition: the layout of what follows (bump when the AST changes shape). */
const FORMAT = 3;
/** Still read: format 1 (tagged JSON) and 2 (this layout with strings numbered per definition instead of words). */
const FORMAT_JSON = 1;
const FORMAT_REFS = 2;

const enum T {
  Undefined,
  Null,
  False,
  True,
  /** A non-negative integral number, varint. */
  Uint,
  /** A negative integral number, its magnitude as a varint. */
  Nint,
  F64,
  /** A bigint within i64, 8 bytes. */
  I64,
  /** Any other bigint, its decimal text. */
  BigText,
  Str,
  /** Format 2: a string seen earlier in this definition, its number (varint). */
  Ref,
  Arr,
  /** An object: (key, value) pairs up to End. */
  Obj,
  End,
  Duration,
  Datetime,
  Decimal,
  Uuid,
  Table,
  RecordId,
  Range,
  Bytes,
  Geometry,
  Regex,
  /** A word of WORDS: its position, varint (the first SHORT_WORDS are the tag itself, from FIRST_WORD on). */
  Word = 0x3f,
}

const FIRST_WORD = 0x40;
const SHORT_WORDS = 0x100 - FIRST_WORD;
/** Each word's position (a prototype-less object: V8 looks property names up faster than a Map's keys). */
const WORD_AT: Record<string, number> = Object.create(null);
WORDS.forEach((w, i) => (WORD_AT[w] = i));
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

// ---- writing (one module-level buffer, reused: encoding is synchronous)

let buf = new Uint8Array(1 << 16);
let view = new DataView(buf.buffer);
let at = 0;
function room(n: number): void {
  if (at + n <= buf.length) return;
  let size = buf.length * 2;
  while (size < at + n) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, at));
  buf = next;
  view = new DataView(next.buffer);
}

/** A non-negative integer up to 2^53, 7 bits a byte. */
function varint(n: number): void {
  room(8);
  while (n >= 0x80) {
    buf[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  buf[at++] = n;
}

function str(s: string): void {
  const word = WORD_AT[s];
  if (word !== undefined) {
    room(9);
    if (word < SHORT_WORDS) buf[at++] = FIRST_WORD + word;
    else {
      buf[at++] = T.Word;
      varint(word);
    }
    return;
  }
  const n = s.length;
  room(n + 10);
  buf[at++] = T.Str;
  const start = at;
  varint(n);
  // ASCII, the common case: one byte per character
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      const whole = utf8.encode(s);
      at = start;
      varint(whole.length);
      room(whole.length);
      buf.set(whole, at);
      at += whole.length;
      return;
    }
    buf[at++] = c;
  }
}

function num(x: number): void {
  if (Number.isSafeInteger(x) && !Object.is(x, -0)) {
    buf[at++] = x >= 0 ? T.Uint : T.Nint;
    varint(x >= 0 ? x : -x);
    return;
  }
  room(9);
  buf[at++] = T.F64;
  view.setFloat64(at, x);
  at += 8;
}

function bigint(x: bigint): void {
  room(9);
  if (x < I64_MIN || x > I64_MAX) {
    buf[at++] = T.BigText;
    str(x.toString());
    return;
  }
  buf[at++] = T.I64;
  view.setBigInt64(at, x);
  at += 8;
}

function bound(b: { value: RecordIdKey; inclusive: boolean } | undefined, same: boolean): void {
  if (b === undefined) return write(undefined, true, same);
  write(b.inclusive, true, same);
  write(b.value, true, same);
}

/**
 * Write any AST or value. `value`: inside a literal's value, where an object is data (never an AST node whose
 * position is dropped). `same`: object keys in sorted order (for comparing).
 */
function write(x: unknown, value: boolean, same: boolean): void {
  room(1);
  switch (typeof x) {
    case "undefined":
      buf[at++] = T.Undefined;
      return;
    case "boolean":
      buf[at++] = x ? T.True : T.False;
      return;
    case "string":
      return str(x);
    case "number":
      return num(x);
    case "bigint":
      return bigint(x);
    case "object":
      break;
    default:
      throw new TypeError(`catalog codec: cannot store a ${typeof x}`);
  }
  if (x === null) {
    buf[at++] = T.Null;
    return;
  }
  if (Array.isArray(x)) {
    buf[at++] = T.Arr;
    varint(x.length);
    for (let i = 0; i < x.length; i++) write(x[i], value, same);
    return;
  }
  const proto = Object.getPrototypeOf(x);
  if (proto === Object.prototype || proto === null) return object(x as Record<string, unknown>, value, same);
  if (x instanceof Duration || x instanceof Datetime) {
    buf[at++] = x instanceof Duration ? T.Duration : T.Datetime;
    return bigint(x.nanos);
  }
  if (x instanceof Decimal || x instanceof Uuid) {
    buf[at++] = x instanceof Decimal ? T.Decimal : T.Uuid;
    return str(x.text);
  }
  if (x instanceof Table || x instanceof Regex) {
    buf[at++] = x instanceof Table ? T.Table : T.Regex;
    return str(x instanceof Table ? x.name : x.source);
  }
  if (x instanceof RecordId) {
    buf[at++] = T.RecordId;
    str(x.table);
    return write(x.id, true, same);
  }
  if (x instanceof RecordIdRange) {
    buf[at++] = T.Range;
    bound(x.begin, same);
    return bound(x.end, same);
  }
  if (x instanceof Uint8Array) {
    buf[at++] = T.Bytes;
    varint(x.length);
    room(x.length);
    buf.set(x, at);
    at += x.length;
    return;
  }
  if (x instanceof Geometry) {
    buf[at++] = T.Geometry;
    str(x.type);
    return write(x.coordinates, true, same);
  }
  throw new TypeError(`catalog codec: cannot store a ${proto?.constructor?.name ?? "value"}`);
}

function object(x: Record<string, unknown>, value: boolean, same: boolean): void {
  // an AST node (it has a string `kind`) loses its source position; a literal's value is data from there down
  const node = !value && typeof x.kind === "string";
  const literal = node && x.kind === "Literal";
  buf[at++] = T.Obj;
  if (same) {
    for (const k of Object.keys(x).sort()) {
      if (node && k === "pos") continue;
      str(k);
      write(x[k], value || (literal && k === "value"), same);
    }
  } else {
    // (x[k] right in the for-in body: V8 reads it through the loop's enum cache)
    for (const k in x) {
      if (node && k === "pos") continue;
      str(k);
      write(x[k], value || (literal && k === "value"), same);
    }
  }
  room(1);
  buf[at++] = T.End;
}

function encoded(def: unknown, same: boolean): Uint8Array {
  at = 0;
  room(1);
  buf[at++] = FORMAT;
  write(def, false, same);
  return buf.slice(0, at);
}

// ---- reading

const EMPTY = new Uint8Array(0);
let src: Uint8Array = EMPTY;
let srcView: DataView = new DataView(EMPTY.buffer);
let pos = 0;
/** Format 2: the strings of up to 64 bytes read so far in this definition. */
let strings: string[] = [];
const SHARED = 64;

function readVarint(): number {
  let n = 0;
  let scale = 1;
  for (;;) {
    const b = src[pos++]!;
    n += (b & 0x7f) * scale;
    if (b < 0x80) return n;
    scale *= 0x80;
  }
}

function readStr(): string {
  const tag = src[pos++]!;
  if (tag >= FIRST_WORD) return WORDS[tag - FIRST_WORD]!;
  if (tag === T.Word) return word(readVarint());
  if (tag === T.Ref) return strings[readVarint()]!;
  if (tag !== T.Str) throw new TypeError(`catalog codec: a string expected, tag ${tag}`);
  const n = readVarint();
  const end = pos + n;
  let s = "";
  let i = pos;
  if (n <= SHARED) for (; i < end && src[i]! < 0x80; i++) s += String.fromCharCode(src[i]!);
  if (i < end) s = fromUtf8.decode(src.subarray(pos, end));
  pos = end;
  if (n <= SHARED) strings.push(s);
  return s;
}

function word(i: number): string {
  const w = WORDS[i];
  if (w === undefined) throw new TypeError(`catalog codec: unknown word ${i}`);
  return w;
}

function readBigint(): bigint {
  const tag = src[pos++];
  if (tag === T.BigText) return BigInt(readStr());
  if (tag !== T.I64) throw new TypeError(`catalog codec: a bigint expected, tag ${tag}`);
  pos += 8;
  return srcView.getBigInt64(pos - 8);
}

function readBound(): { value: RecordIdKey; inclusive: boolean } | undefined {
  const inclusive = read();
  return inclusive === undefined ? undefined : { inclusive: inclusive as boolean, value: read() as RecordIdKey };
}

function read(): unknown {
  const tag = src[pos]!;
  if (tag >= FIRST_WORD) {
    pos++;
    return WORDS[tag - FIRST_WORD]!;
  }
  switch (tag) {
    case T.Str:
    case T.Ref:
    case T.Word:
      return readStr();
    case T.I64:
    case T.BigText:
      return readBigint();
  }
  pos++;
  switch (tag) {
    case T.Undefined:
      return undefined;
    case T.Null:
      return null;
    case T.False:
      return false;
    case T.True:
      return true;
    case T.Uint:
      return readVarint();
    case T.Nint:
      return -readVarint();
    case T.F64:
      pos += 8;
      return srcView.getFloat64(pos - 8);
    case T.Arr: {
      const out = new Array<unknown>(readVarint());
      for (let i = 0; i < out.length; i++) out[i] = read();
      return out;
    }
    case T.Obj: {
      const out: Record<string, unknown> = {};
      while (src[pos] !== T.End) setField(out, readStr(), read());
      pos++;
      return out;
    }
    case T.Duration:
      return new Duration(readBigint());
    case T.Datetime:
      return new Datetime(readBigint());
    case T.Decimal:
      return new Decimal(readStr());
    case T.Uuid:
      return new Uuid(readStr());
    case T.Table:
      return new Table(readStr());
    case T.Regex:
      return new Regex(readStr());
    case T.RecordId:
      return new RecordId(readStr(), read() as RecordIdKey);
    case T.Range:
      return new RecordIdRange(readBound(), readBound());
    case T.Bytes: {
      const n = readVarint();
      pos += n;
      return src.slice(pos - n, pos);
    }
    case T.Geometry:
      return new Geometry(readStr() as Geometry["type"], read());
  }
  throw new TypeError(`catalog codec: unknown tag ${tag}`);
}

// ---- the entry points

/** The stored bytes of a definition (AST, StoredUser, StoredAccess). */
export function encodeDefinition(def: unknown): Uint8Array {
  return encoded(def, false);
}

/** True when two definitions are the same but for where their text was. */
export function sameDefinition(a: unknown, b: unknown): boolean {
  return Buffer.compare(encoded(a, true), encoded(b, true)) === 0;
}

/** The definition back from its stored bytes (either format). */
export function decodeDefinition(bytes: Uint8Array): unknown {
  if (bytes[0] === FORMAT_JSON) return decodeJsonDefinition(bytes.subarray(1));
  if (bytes[0] !== FORMAT && bytes[0] !== FORMAT_REFS) throw new TypeError(`catalog codec: unknown format ${bytes[0]}`);
  src = bytes;
  srcView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  pos = 1;
  try {
    const def = read();
    if (pos !== bytes.length) throw new TypeError("catalog codec: bytes after the definition");
    return def;
  } finally {
    src = EMPTY;
    strings = [];
  }
}
