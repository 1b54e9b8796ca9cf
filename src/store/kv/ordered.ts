// store/kv/: values and record-id keys as order-preserving bytes — bytewise order is SurrealDB 2.x's key order.
//
// Order (recorded from the oracle): NONE < NULL < bool < int < float < decimal (numbers sort by kind first, then
// value) < string (UTF-8 bytes) < duration < datetime < uuid < array < object < geometry < bytes < record id <
// table. An array ends with a marker above every element (so [1, 'a'] < [1] and [] sorts after every non-empty
// array); an object ends with a marker below every entry ({} < { a: 1 }).

import { compareStrings } from "../../value/compat.js";
import { ByteWriter } from "../../value/byte-writer.js";
import { decimalFromScaled, parseDecimalText } from "../../value/decimal.js";
import {
  Datetime,
  Decimal,
  Duration,
  Geometry,
  RecordId,
  RecordIdRange,
  Regex,
  Table,
  Uuid,
  isValueObject,
  type RecordIdKey,
  type Value,
  type ValueObject,
} from "../../value/types.js";

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
  regex: 0x13, // SurrealDB orders regex before range; 0x12 was taken by stored keys already
  range: 0x12,
} as const;
const ARRAY_END = 0xff;
const OBJECT_ENTRY = 0x01;
const OBJECT_END = 0x00;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;
const NANOS = 1_000_000_000n;

export const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** The key writer: escaped strings, fixed-width big-endian numbers, inversion for descending parts. */
export class Writer extends ByteWriter {
  constructor() {
    super(64);
  }
  /** Bytes ending at 0x00, with 0x00 → 01 01 and 0x01 → 01 02 so the terminator sorts below any content. */
  escaped(bytes: Uint8Array): void {
    this.ensure(bytes.length * 2 + 1);
    for (const b of bytes) {
      if (b <= 1) {
        this.buf[this.len++] = 1;
        this.buf[this.len++] = b + 1;
      } else this.buf[this.len++] = b;
    }
    this.buf[this.len++] = 0;
  }
  string(s: string): void {
    // ASCII above 0x01 (most names) is its own escaped UTF-8: written as it is, without a TextEncoder call
    const start = this.len;
    this.ensure(s.length + 1);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c <= 1 || c >= 0x80) {
        this.len = start;
        return this.escaped(utf8.encode(s));
      }
      this.buf[this.len++] = c;
    }
    this.buf[this.len++] = 0;
  }
  u64(n: bigint): void {
    this.fixed(8, () => this.view.setBigUint64(this.len, n));
  }
  u32(n: number): void {
    this.fixed(4, () => this.view.setUint32(this.len, n));
  }
  u16(n: number): void {
    this.fixed(2, () => this.view.setUint16(this.len, n));
  }
  f64(n: number): void {
    this.fixed(8, () => this.view.setFloat64(this.len, n));
  }
  private fixed(size: number, write: () => void): void {
    this.ensure(size);
    write();
    this.len += size;
  }
  /** Bytes [from, len) inverted (descending order for negative numbers). */
  invertFrom(from: number): void {
    for (let i = from; i < this.len; i++) this.buf[i] = 0xff - this.buf[i]!;
  }
  flipSign(at: number): void {
    this.buf[at]! ^= 0x80;
  }
  signBit(at: number): boolean {
    return (this.buf[at]! & 0x80) !== 0;
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
  if (w.signBit(at)) w.invertFrom(at);
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
  w.bytes(Buffer.from(u.text.replace(/-/g, ""), "hex"));
}

function writeObject(w: Writer, o: ValueObject): void {
  for (const key of Object.keys(o).sort(compareStrings)) {
    w.byte(OBJECT_ENTRY);
    w.string(key);
    writeValue(w, o[key]);
  }
  w.byte(OBJECT_END);
}

export function writeId(w: Writer, id: RecordIdKey): void {
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

export function writeValue(w: Writer, v: Value): void {
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
  if (v instanceof Regex) {
    w.byte(TAG.regex);
    return w.string(v.source);
  }
  if (isValueObject(v)) {
    w.byte(TAG.object);
    return writeObject(w, v);
  }
  throw new TypeError(`cannot encode ${String(v)} in a key`);
}

/** One writer for the encoders below (encoding is synchronous; result() copies): no buffer allocated per key. */
const scratch = new Writer();

/** A value as order-preserving bytes (SurrealDB's key order). */
export function encodeValue(v: Value): Uint8Array {
  scratch.len = 0;
  writeValue(scratch, v);
  return scratch.result();
}

/** A record id's key part (int, string, uuid, array, object, or a range) as order-preserving bytes. */
export function encodeRecordIdKey(id: RecordIdKey): Uint8Array {
  scratch.len = 0;
  writeId(scratch, id);
  return scratch.result();
}

// ---------------------------------------------------------------- decoding

export class Reader {
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
    // a copy with its own buffer (Buffer#slice would share the caller's bytes, and its pool's offset)
    const out = new Uint8Array(this.buf.subarray(this.at, this.at + n));
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

export function readId(r: Reader): RecordIdKey {
  if (r.peek() !== TAG.range) return readValue(r) as RecordIdKey;
  r.byte();
  const bound = (): { value: RecordIdKey; inclusive: boolean } | undefined => {
    const kind = r.byte();
    return kind === 0 ? undefined : { inclusive: kind === 1, value: readId(r) };
  };
  const begin = bound();
  return new RecordIdRange(begin, bound());
}

export function readValue(r: Reader): Value {
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
    case TAG.regex:
      return new Regex(r.string());
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

