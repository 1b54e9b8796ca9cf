// store/kv/: SurrealDB's key layout as order-preserving bytes — root / ns / db / table / record / index entry /
// graph edge — so a table, an index or a record's edges are key ranges, and bytewise order is SurrealDB's key order.
//
// Layout (names are escaped, 0-terminated strings; `id` and index values use the value encoding below):
//   /                                  root            /*ns\0                       namespace
//   /*ns\0*db\0                        database        /*ns\0*db\0*tb\0             table
//   /*ns\0*db\0*tb\0*id                record          /*ns\0*db\0*tb\0+ix\0*v…[id] index entry
//   /*ns\0*db\0*tb\0~id{<|>}ft\0fid    graph edge      base!code name\0             a definition
//
// Value order, as SurrealDB 2.x sorts keys (recorded from the oracle): NONE < NULL < bool < int < float < decimal
// (numbers sort by kind first, then value) < string (UTF-8 bytes) < duration < datetime < uuid < array < object <
// geometry < bytes < record id < table. An array ends with a marker above every element (so [1, 'a'] < [1] and
// [] sorts after every non-empty array); an object ends with a marker below every entry ({} < { a: 1 }).

import { compareStrings } from "../../value/compat.js";
import { decimalFromScaled, parseDecimalText } from "../../value/decimal.js";
import {
  Datetime,
  Decimal,
  Duration,
  Geometry,
  RecordId,
  RecordIdRange,
  Table,
  Uuid,
  isValueObject,
  type RecordIdKey,
  type Value,
  type ValueObject,
} from "../../value/types.js";
import { prefixRange } from "./bytes.js";
import type { Key, KeyRange } from "./types.js";

const TAG = {
  none: 0x02,
  null: 0x03,
  bool: 0x04,
  int: 0x05,
  float: 0x06,
  decimal: 0x07,
  string: 0x08,
  duration: 0x09,
  datetime: 0x0a,
  uuid: 0x0b,
  array: 0x0c,
  object: 0x0d,
  geometry: 0x0e,
  bytes: 0x0f,
  record: 0x10,
  table: 0x11,
  range: 0x12,
} as const;
const ARRAY_END = 0xff;
const OBJECT_ENTRY = 0x01;
const OBJECT_END = 0x00;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;
const NANOS = 1_000_000_000n;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A growable byte buffer. */
class Writer {
  buf = new Uint8Array(64);
  len = 0;
  private view = new DataView(this.buf.buffer);

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }
  /** Bytes ending at 0x00, with 0x00 → 01 01 and 0x01 → 01 02 so the terminator sorts below any content. */
  escaped(bytes: Uint8Array): void {
    this.room(bytes.length * 2 + 1);
    for (const b of bytes) {
      if (b <= 1) {
        this.buf[this.len++] = 1;
        this.buf[this.len++] = b + 1;
      } else this.buf[this.len++] = b;
    }
    this.buf[this.len++] = 0;
  }
  string(s: string): void {
    this.escaped(utf8.encode(s));
  }
  u64(n: bigint): void {
    this.room(8);
    this.view.setBigUint64(this.len, n);
    this.len += 8;
  }
  u32(n: number): void {
    this.room(4);
    this.view.setUint32(this.len, n);
    this.len += 4;
  }
  u16(n: number): void {
    this.room(2);
    this.view.setUint16(this.len, n);
    this.len += 2;
  }
  f64(n: number): void {
    this.room(8);
    this.view.setFloat64(this.len, n);
    this.len += 8;
  }
  /** Bytes [from, len) inverted (descending order for negative numbers). */
  invertFrom(from: number): void {
    for (let i = from; i < this.len; i++) this.buf[i] = 0xff - this.buf[i]!;
  }
  flipSign(at: number): void {
    this.buf[at]! ^= 0x80;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// ---------------------------------------------------------------- values

function writeInt(w: Writer, n: bigint): void {
  if (n < I64_MIN || n > I64_MAX) throw new RangeError(`integer ${n} does not fit in a key`);
  const at = w.len;
  w.u64(BigInt.asUintN(64, n));
  w.flipSign(at);
}

function writeFloat(w: Writer, n: number): void {
  const at = w.len;
  w.f64(Number.isNaN(n) ? NaN : n);
  if (w.buf[at]! & 0x80) w.invertFrom(at);
  else w.flipSign(at);
}

/** Sign class, then for non-zero: exponent, digits (value = 0.d1d2… × 10^exp) and a terminator, all inverted when
 *  negative; then the scale, so 1.5 and 1.50 stay apart and decode as written. */
function writeDecimal(w: Writer, d: Decimal): void {
  const parsed = parseDecimalText(d.text) ?? { unscaled: 0n, scale: 0 };
  const negative = parsed.unscaled < 0n;
  const text = (negative ? -parsed.unscaled : parsed.unscaled).toString();
  if (parsed.unscaled === 0n) w.byte(1);
  else {
    const digits = text.replace(/0+$/, "");
    const exp = text.length - parsed.scale;
    w.byte(negative ? 0 : 2);
    const at = w.len;
    w.u16(exp + 0x8000);
    for (let i = 0; i < digits.length; i++) w.byte(digits.charCodeAt(i) - 0x30 + 1);
    w.byte(0);
    if (negative) w.invertFrom(at);
  }
  w.u16(parsed.scale);
}

function writeSeconds(w: Writer, nanos: bigint, signed: boolean): void {
  let secs = nanos / NANOS;
  let sub = nanos % NANOS;
  if (sub < 0n) {
    secs -= 1n;
    sub += NANOS;
  }
  if (signed) writeInt(w, secs);
  else {
    if (secs < 0n || secs > U64_MAX) throw new RangeError(`duration ${nanos}ns does not fit in a key`);
    w.u64(secs);
  }
  w.u32(Number(sub));
}

function writeUuid(w: Writer, u: Uuid): void {
  w.raw(Buffer.from(u.text.replace(/-/g, ""), "hex"));
}

function writeObject(w: Writer, o: ValueObject): void {
  for (const key of Object.keys(o).sort(compareStrings)) {
    w.byte(OBJECT_ENTRY);
    w.string(key);
    writeValue(w, o[key]);
  }
  w.byte(OBJECT_END);
}

function writeId(w: Writer, id: RecordIdKey): void {
  if (id instanceof RecordIdRange) {
    w.byte(TAG.range);
    for (const bound of [id.begin, id.end]) {
      if (bound === undefined) w.byte(0);
      else {
        w.byte(bound.inclusive ? 1 : 2);
        writeId(w, bound.value);
      }
    }
    return;
  }
  writeValue(w, id as Value);
}

function writeValue(w: Writer, v: Value): void {
  if (v === undefined) return w.byte(TAG.none);
  if (v === null) return w.byte(TAG.null);
  switch (typeof v) {
    case "boolean":
      w.byte(TAG.bool);
      return w.byte(v ? 1 : 0);
    case "bigint":
      w.byte(TAG.int);
      return writeInt(w, v);
    case "number":
      w.byte(TAG.float);
      return writeFloat(w, v);
    case "string":
      w.byte(TAG.string);
      return w.string(v);
  }
  if (v instanceof Decimal) {
    w.byte(TAG.decimal);
    return writeDecimal(w, v);
  }
  if (v instanceof Duration) {
    w.byte(TAG.duration);
    return writeSeconds(w, v.nanos, false);
  }
  if (v instanceof Datetime) {
    w.byte(TAG.datetime);
    return writeSeconds(w, v.nanos, true);
  }
  if (v instanceof Uuid) {
    w.byte(TAG.uuid);
    return writeUuid(w, v);
  }
  if (Array.isArray(v)) {
    w.byte(TAG.array);
    for (const x of v) writeValue(w, x);
    return w.byte(ARRAY_END);
  }
  if (v instanceof Geometry) {
    w.byte(TAG.geometry);
    return w.string(JSON.stringify({ type: v.type, coordinates: v.coordinates }));
  }
  if (v instanceof Uint8Array) {
    w.byte(TAG.bytes);
    return w.escaped(v);
  }
  if (v instanceof RecordId) {
    w.byte(TAG.record);
    w.string(v.table);
    return writeId(w, v.id);
  }
  if (v instanceof Table) {
    w.byte(TAG.table);
    return w.string(v.name);
  }
  if (isValueObject(v)) {
    w.byte(TAG.object);
    return writeObject(w, v);
  }
  throw new TypeError(`cannot encode ${String(v)} in a key`);
}

/** A value as order-preserving bytes (SurrealDB's key order). */
export function encodeValue(v: Value): Uint8Array {
  const w = new Writer();
  writeValue(w, v);
  return w.done();
}

/** A record id's key part (int, string, uuid, array, object, or a range) as order-preserving bytes. */
export function encodeRecordIdKey(id: RecordIdKey): Uint8Array {
  const w = new Writer();
  writeId(w, id);
  return w.done();
}

// ---------------------------------------------------------------- decoding

class Reader {
  private readonly view: DataView;
  constructor(
    readonly buf: Uint8Array,
    public at = 0,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  byte(): number {
    if (this.at >= this.buf.length) throw new RangeError("truncated key");
    return this.buf[this.at++]!;
  }
  expect(b: number): void {
    if (this.byte() !== b) throw new RangeError(`malformed key at byte ${this.at - 1}`);
  }
  peek(): number | undefined {
    return this.buf[this.at];
  }
  escaped(): Uint8Array {
    const out: number[] = [];
    for (;;) {
      const b = this.byte();
      if (b === 0) return Uint8Array.from(out);
      out.push(b === 1 ? this.byte() - 1 : b);
    }
  }
  string(): string {
    return fromUtf8.decode(this.escaped());
  }
  take(n: number, invert = false): Uint8Array {
    if (this.at + n > this.buf.length) throw new RangeError("truncated key");
    const out = this.buf.slice(this.at, this.at + n);
    this.at += n;
    if (invert) for (let i = 0; i < n; i++) out[i] = 0xff - out[i]!;
    return out;
  }
  u16(): number {
    const n = this.view.getUint16(this.at);
    this.at += 2;
    return n;
  }
  u32(): number {
    const n = this.view.getUint32(this.at);
    this.at += 4;
    return n;
  }
  u64(): bigint {
    const n = this.view.getBigUint64(this.at);
    this.at += 8;
    return n;
  }
}

function readInt(r: Reader): bigint {
  const b = r.take(8);
  b[0]! ^= 0x80;
  return new DataView(b.buffer).getBigInt64(0);
}

function readFloat(r: Reader): number {
  const b = r.take(8);
  if (b[0]! & 0x80) b[0]! ^= 0x80;
  else for (let i = 0; i < 8; i++) b[i] = 0xff - b[i]!;
  return new DataView(b.buffer).getFloat64(0);
}

function readDecimal(r: Reader): Decimal {
  const sign = r.byte();
  if (sign === 1) return decimalFromScaled({ unscaled: 0n, scale: r.u16() });
  const negative = sign === 0;
  const exp = (negative ? 0xffff - r.u16() : r.u16()) - 0x8000;
  let digits = "";
  for (;;) {
    const b = negative ? 0xff - r.byte() : r.byte();
    if (b === 0) break;
    digits += String.fromCharCode(b - 1 + 0x30);
  }
  const scale = r.u16();
  const unscaled = BigInt(digits) * 10n ** BigInt(exp - digits.length + scale);
  return decimalFromScaled({ unscaled: negative ? -unscaled : unscaled, scale });
}

function readNanos(r: Reader, signed: boolean): bigint {
  const secs = signed ? readInt(r) : r.u64();
  return secs * NANOS + BigInt(r.u32());
}

function readUuid(r: Reader): Uuid {
  const hex = Buffer.from(r.take(16)).toString("hex");
  return new Uuid(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
}

function readId(r: Reader): RecordIdKey {
  if (r.peek() !== TAG.range) return readValue(r) as RecordIdKey;
  r.byte();
  const bound = (): { value: RecordIdKey; inclusive: boolean } | undefined => {
    const kind = r.byte();
    return kind === 0 ? undefined : { inclusive: kind === 1, value: readId(r) };
  };
  const begin = bound();
  return new RecordIdRange(begin, bound());
}

function readValue(r: Reader): Value {
  const tag = r.byte();
  switch (tag) {
    case TAG.none:
      return undefined;
    case TAG.null:
      return null;
    case TAG.bool:
      return r.byte() === 1;
    case TAG.int:
      return readInt(r);
    case TAG.float:
      return readFloat(r);
    case TAG.decimal:
      return readDecimal(r);
    case TAG.string:
      return r.string();
    case TAG.duration:
      return new Duration(readNanos(r, false));
    case TAG.datetime:
      return new Datetime(readNanos(r, true));
    case TAG.uuid:
      return readUuid(r);
    case TAG.array: {
      const out: Value[] = [];
      while (r.peek() !== ARRAY_END) out.push(readValue(r));
      r.byte();
      return out;
    }
    case TAG.object: {
      const out: ValueObject = {};
      while (r.byte() === OBJECT_ENTRY) {
        const key = r.string();
        Object.defineProperty(out, key, { value: readValue(r), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case TAG.geometry: {
      const g = JSON.parse(r.string()) as { type: Geometry["type"]; coordinates: unknown };
      return new Geometry(g.type, g.coordinates);
    }
    case TAG.bytes:
      return r.escaped();
    case TAG.record: {
      const table = r.string();
      return new RecordId(table, readId(r));
    }
    case TAG.table:
      return new Table(r.string());
  }
  throw new RangeError(`unknown value tag ${tag} in key`);
}

export function decodeValue(bytes: Uint8Array): Value {
  const r = new Reader(bytes);
  const v = readValue(r);
  if (r.at !== bytes.length) throw new RangeError("trailing bytes after a key value");
  return v;
}

export function decodeRecordIdKey(bytes: Uint8Array): RecordIdKey {
  const r = new Reader(bytes);
  const id = readId(r);
  if (r.at !== bytes.length) throw new RangeError("trailing bytes after a record id");
  return id;
}

// ---------------------------------------------------------------- layout

const CH = { slash: 0x2f, star: 0x2a, plus: 0x2b, tilde: 0x7e, bang: 0x21, in: 0x3c, out: 0x3e } as const;

/** The direction of a graph edge key, seen from the record it is stored under. */
export type EdgeDirection = "in" | "out";

function layout(build: (w: Writer) => void): Key {
  const w = new Writer();
  build(w);
  return w.done();
}

function writeBase(w: Writer, ns?: string, db?: string, tb?: string): void {
  w.byte(CH.slash);
  for (const name of [ns, db, tb]) {
    if (name === undefined) return;
    w.byte(CH.star);
    w.string(name);
  }
}

/** `/`: the root, under which root-level definitions live. */
export function rootKey(): Key {
  return layout((w) => writeBase(w));
}

/** `/*ns\0` */
export function namespaceKey(ns: string): Key {
  return layout((w) => writeBase(w, ns));
}

/** `/*ns\0*db\0` */
export function databaseKey(ns: string, db: string): Key {
  return layout((w) => writeBase(w, ns, db));
}

/** `/*ns\0*db\0*tb\0`: everything stored under a table (records, index entries, edges, table definitions). */
export function tableKey(ns: string, db: string, tb: string): Key {
  return layout((w) => writeBase(w, ns, db, tb));
}

/** `/*ns\0*db\0*tb\0*id` */
export function recordKey(ns: string, db: string, tb: string, id: RecordIdKey): Key {
  return layout((w) => {
    writeBase(w, ns, db, tb);
    w.byte(CH.star);
    writeId(w, id);
  });
}

/** Every record of a table, in SurrealDB's key order: a table scan. */
export function tableRecordsRange(ns: string, db: string, tb: string): KeyRange {
  return prefixRange(layout((w) => (writeBase(w, ns, db, tb), w.byte(CH.star))));
}

export interface RecordKeyParts {
  readonly ns: string;
  readonly db: string;
  readonly tb: string;
  readonly id: RecordIdKey;
}

export function decodeRecordKey(key: Key): RecordKeyParts {
  const r = new Reader(key);
  r.expect(CH.slash);
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    r.expect(CH.star);
    names.push(r.string());
  }
  r.expect(CH.star);
  const id = readId(r);
  if (r.at !== key.length) throw new RangeError("trailing bytes after a record key");
  return { ns: names[0]!, db: names[1]!, tb: names[2]!, id };
}

function writeIndexBase(w: Writer, ns: string, db: string, tb: string, ix: string): void {
  writeBase(w, ns, db, tb);
  w.byte(CH.plus);
  w.string(ix);
  w.byte(CH.star);
}

/**
 * `…*tb\0+ix\0*v1v2…` for a UNIQUE index (one entry per value tuple; the record id is the stored value), and
 * `…*v1v2…id` for a non-unique one (the record id appended, so equal values stay apart and sort by id).
 */
export function indexEntryKey(ns: string, db: string, tb: string, ix: string, values: readonly Value[], id?: RecordIdKey): Key {
  return layout((w) => {
    writeIndexBase(w, ns, db, tb, ix);
    for (const v of values) writeValue(w, v);
    if (id !== undefined) writeId(w, id);
  });
}

/** Every entry of an index. */
export function indexRange(ns: string, db: string, tb: string, ix: string): KeyRange {
  return prefixRange(layout((w) => writeIndexBase(w, ns, db, tb, ix)));
}

/** The entries whose leading values equal `values` (all of them: the entries of one value tuple). */
export function indexValuesRange(ns: string, db: string, tb: string, ix: string, values: readonly Value[]): KeyRange {
  return prefixRange(indexEntryKey(ns, db, tb, ix, values));
}

/** The values and (non-unique index) the record id of an index entry key with `fields` indexed fields. */
export function decodeIndexEntryKey(key: Key, fields: number): { values: Value[]; id?: RecordIdKey } {
  const r = new Reader(key);
  r.expect(CH.slash);
  for (let i = 0; i < 3; i++) {
    r.expect(CH.star);
    r.escaped();
  }
  r.expect(CH.plus);
  r.escaped();
  r.expect(CH.star);
  const values: Value[] = [];
  for (let i = 0; i < fields; i++) values.push(readValue(r));
  if (r.at === key.length) return { values };
  return { values, id: readId(r) };
}

function writeEdgeBase(w: Writer, ns: string, db: string, tb: string, id: RecordIdKey, dir?: EdgeDirection): void {
  writeBase(w, ns, db, tb);
  w.byte(CH.tilde);
  writeId(w, id);
  if (dir !== undefined) w.byte(dir === "in" ? CH.in : CH.out);
}

/** `…*tb\0~id>ft\0fid`: record `tb:id` has an outgoing (or incoming) edge to the record `ft:fid`. */
export function edgeKey(ns: string, db: string, tb: string, id: RecordIdKey, dir: EdgeDirection, other: RecordId): Key {
  return layout((w) => {
    writeEdgeBase(w, ns, db, tb, id, dir);
    w.string(other.table);
    writeId(w, other.id);
  });
}

/** A record's edges: all, one direction, or one direction to one foreign table. */
export function edgesRange(ns: string, db: string, tb: string, id: RecordIdKey, dir?: EdgeDirection, foreignTable?: string): KeyRange {
  return prefixRange(
    layout((w) => {
      writeEdgeBase(w, ns, db, tb, id, dir);
      if (dir !== undefined && foreignTable !== undefined) w.string(foreignTable);
    }),
  );
}

export function decodeEdgeKey(key: Key): RecordKeyParts & { dir: EdgeDirection; other: RecordId } {
  const r = new Reader(key);
  r.expect(CH.slash);
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    r.expect(CH.star);
    names.push(r.string());
  }
  r.expect(CH.tilde);
  const id = readId(r);
  const dir = r.byte() === CH.in ? "in" : "out";
  const table = r.string();
  return { ns: names[0]!, db: names[1]!, tb: names[2]!, id, dir, other: new RecordId(table, readId(r)) };
}

/** `base!code name\0`: a definition under root, a namespace, a database or a table (code as SurrealDB's: "us", "ac", "tb" …). */
export function definitionKey(base: Key, code: string, name: string): Key {
  return layout((w) => {
    w.raw(base);
    w.byte(CH.bang);
    w.raw(utf8.encode(code));
    w.string(name);
  });
}

/** Every definition of one kind under a base. */
export function definitionsRange(base: Key, code: string): KeyRange {
  return prefixRange(
    layout((w) => {
      w.raw(base);
      w.byte(CH.bang);
      w.raw(utf8.encode(code));
    }),
  );
}
