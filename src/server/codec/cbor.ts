// CBOR wire format of RPC frames and HTTP bodies: SurrealQL values ⇄ bytes with SurrealDB's tags (protocol.md §8.2).
//
// A dedicated encoder/decoder rather than cbor-x: SurrealDB needs CBOR integers and floats kept apart
// (int ⇒ bigint, float ⇒ number), which cbor-x's decoder folds into one JS number; it also needs
// minimal-length integers, no typed-array tags and a hard error on every unknown tag.

import { LocalError, QueryError } from "../../errors/index.js";
import { ByteWriter } from "../../value/byte-writer.js";
import { decimalFromText } from "../../value/decimal.js";
import type { Compat } from "../../exec/session.js";
import { datetimeInRange, parseDatetime, parseDuration, parseRecordIdText } from "../../value/index.js";
import {
  Closure,
  Datetime,
  Decimal,
  Duration,
  Geometry,
  Range,
  Regex,
  RecordId,
  RecordIdRange,
  Table,
  Uuid,
  isValueObject,
  type RecordIdKey,
  type Value,
  type ValueObject,
} from "../../value/types.js";
import type { PieceSink } from "./pieces.js";

export const TAG = {
  specDatetime: 0,
  none: 6,
  table: 7,
  recordId: 8,
  stringUuid: 9,
  stringDecimal: 10,
  customDatetime: 12,
  stringDuration: 13,
  customDuration: 14,
  future: 15,
  specUuid: 37,
  range: 49,
  boundIncluded: 50,
  boundExcluded: 51,
  point: 88,
  line: 89,
  polygon: 90,
  multiPoint: 91,
  multiLine: 92,
  multiPolygon: 93,
  collection: 94,
} as const;

/** Undecodable bytes, or (CborValueError) a value SurrealDB would refuse. */
export class CborError extends LocalError {
  constructor(message: string) {
    super("Decode", message);
  }
}

/** Well-formed CBOR holding a value SurrealDB refuses (an unknown tag, a malformed tagged payload), in its words. */
export class CborValueError extends CborError {}

/** SurrealDB's words for the CBOR values it refuses (2.x `rpc/format/cbor/convert.rs`; 1.x the same). */
export const CBOR_REFUSED = {
  unknownTag: "Encountered an unknown CBOR tag",
  text: "Expected a CBOR text data type",
  integer: "Expected a CBOR integer data type",
  datetime: "Expected a valid Datetime value",
  pair: "Expected a CBOR array with 2 elements",
  uuid: "Expected a valid UUID value",
  uuidBytes: "Expected a CBOR byte array with 16 elements",
  decimal: "Expected a valid Decimal value",
  duration: "Expected a valid Duration value",
  durationParts: "Expected a CBOR array with at most 2 elements",
  recordId: "Expected a valid RecordID value",
  recordIdShape: "Expected a CBOR text data type, or a CBOR array with 2 elements",
  recordTable: "Expected the tb of a Record Id to be a String or Table value",
  recordKey: "Expected a CBOR integer, text, array or map",
  bound: "Expected a bound tag",
  bounds: "Expected a CBOR array with 2 bounds",
  point: "Expected a CBOR array with 2 decimal values",
  points: "Expected a CBOR array with Geometry Point values",
  lines: "Expected a CBOR array with Geometry Line values",
  polygons: "Expected a CBOR array with Geometry Polygon values",
  geometries: "Expected a CBOR array with Geometry values",
} as const;

const refused = (why: keyof typeof CBOR_REFUSED) => new CborValueError(CBOR_REFUSED[why]);

const NANOS_PER_SECOND = 1_000_000_000n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const MAX_DEPTH = 256;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------- encoding

class Writer extends ByteWriter {
  /** Major type header with the shortest argument encoding. */
  head(major: number, n: number | bigint): void {
    const m = major << 5;
    const v = typeof n === "bigint" ? n : BigInt(n);
    if (v < 24n) this.byte(m | Number(v));
    else if (v < 0x100n) {
      this.byte(m | 24);
      this.byte(Number(v));
    } else if (v < 0x10000n) {
      this.ensure(3);
      this.buf[this.len++] = m | 25;
      this.view.setUint16(this.len, Number(v));
      this.len += 2;
    } else if (v < 0x100000000n) {
      this.ensure(5);
      this.buf[this.len++] = m | 26;
      this.view.setUint32(this.len, Number(v));
      this.len += 4;
    } else {
      this.ensure(9);
      this.buf[this.len++] = m | 27;
      this.view.setBigUint64(this.len, v);
      this.len += 8;
    }
  }
  float64(x: number): void {
    this.ensure(9);
    this.buf[this.len++] = 0xfb;
    this.view.setFloat64(this.len, x);
    this.len += 8;
  }
}

const utf8 = new TextEncoder();

function writeInt(w: Writer, n: bigint): void {
  if (n >= 0n) w.head(0, n);
  else w.head(1, -1n - n);
}

function writeText(w: Writer, s: string): void {
  const b = utf8.encode(s);
  w.head(3, b.length);
  w.bytes(b);
}

function uuidBytes(u: Uuid): Uint8Array {
  const hex = u.text.replace(/-/g, "");
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function uuidFromBytes(b: Uint8Array): Uuid {
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return new Uuid(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
}

/** [seconds, nanos] with 0 ≤ nanos < 1e9 (floor division, as chrono's timestamp pair). */
function splitNanos(nanos: bigint): [bigint, bigint] {
  let s = nanos / NANOS_PER_SECOND;
  let ns = nanos % NANOS_PER_SECOND;
  if (ns < 0n) {
    ns += NANOS_PER_SECOND;
    s -= 1n;
  }
  return [s, ns];
}

function writeRecordKey(w: Writer, key: RecordIdKey, compat: Compat): void {
  if (key instanceof RecordIdRange) return writeRange(w, key, (k) => writeRecordKey(w, k, compat));
  writeValue(w, key, compat, 0);
}

/** Tag 49 `[begin, end]`: each bound `50(v)` included, `51(v)` excluded, or null when unbounded (record id keys and 2.x range values). */
function writeRange<T>(w: Writer, r: { begin?: { value: T; inclusive: boolean }; end?: { value: T; inclusive: boolean } }, write: (v: T) => void): void {
  w.head(6, TAG.range);
  w.head(4, 2);
  for (const bound of [r.begin, r.end]) {
    if (bound === undefined) w.byte(0xf6);
    else {
      w.head(6, bound.inclusive ? TAG.boundIncluded : TAG.boundExcluded);
      write(bound.value);
    }
  }
}

function writeCoordinate(w: Writer, x: unknown, compat: Compat): void {
  const n = typeof x === "bigint" ? Number(x) : Number(x);
  if (compat === 1) {
    w.head(6, TAG.stringDecimal);
    writeText(w, String(n));
  } else w.float64(n);
}

function writePoint(w: Writer, coords: unknown, compat: Compat): void {
  const [x, y] = coords as [unknown, unknown];
  w.head(6, TAG.point);
  w.head(4, 2);
  writeCoordinate(w, x, compat);
  writeCoordinate(w, y, compat);
}

function writeLine(w: Writer, coords: unknown, compat: Compat): void {
  const points = coords as unknown[];
  w.head(6, TAG.line);
  w.head(4, points.length);
  for (const p of points) writePoint(w, p, compat);
}

function writePolygon(w: Writer, coords: unknown, compat: Compat): void {
  const rings = coords as unknown[];
  w.head(6, TAG.polygon);
  w.head(4, rings.length);
  for (const r of rings) writeLine(w, r, compat);
}

function writeGeometry(w: Writer, g: Geometry, compat: Compat, depth: number): void {
  const items = g.coordinates as unknown[];
  switch (g.type) {
    case "Point":
      return writePoint(w, g.coordinates, compat);
    case "LineString":
      return writeLine(w, g.coordinates, compat);
    case "Polygon":
      return writePolygon(w, g.coordinates, compat);
    case "MultiPoint":
      w.head(6, TAG.multiPoint);
      w.head(4, items.length);
      for (const p of items) writePoint(w, p, compat);
      return;
    case "MultiLineString":
      w.head(6, TAG.multiLine);
      w.head(4, items.length);
      for (const l of items) writeLine(w, l, compat);
      return;
    case "MultiPolygon":
      w.head(6, TAG.multiPolygon);
      w.head(4, items.length);
      for (const p of items) writePolygon(w, p, compat);
      return;
    case "GeometryCollection":
      w.head(6, TAG.collection);
      w.head(4, items.length);
      for (const child of items) writeValue(w, child as Geometry, compat, depth + 1);
      return;
  }
}

function tooDeep(depth: number): void {
  if (depth > MAX_DEPTH) throw new CborError("Value nested too deeply to encode");
}

function writeValue(w: Writer, v: Value, compat: Compat, depth: number): void {
  tooDeep(depth);
  if (v === undefined) {
    w.head(6, TAG.none);
    w.byte(0xf6);
    return;
  }
  if (v === null) return w.byte(0xf6);
  switch (typeof v) {
    case "boolean":
      return w.byte(v ? 0xf5 : 0xf4);
    case "bigint":
      return writeInt(w, v);
    case "number":
      return w.float64(v);
    case "string":
      return writeText(w, v);
  }
  if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const item of v) writeValue(w, item, compat, depth + 1);
    return;
  }
  if (v instanceof Uint8Array) {
    w.head(2, v.length);
    w.bytes(v);
    return;
  }
  if (v instanceof RecordId) {
    w.head(6, TAG.recordId);
    w.head(4, 2);
    writeText(w, v.table);
    writeRecordKey(w, v.id, compat);
    return;
  }
  if (v instanceof Table) {
    w.head(6, TAG.table);
    return writeText(w, v.name);
  }
  if (v instanceof Uuid) {
    w.head(6, TAG.specUuid);
    const b = uuidBytes(v);
    w.head(2, b.length);
    return w.bytes(b);
  }
  if (v instanceof Decimal) {
    w.head(6, TAG.stringDecimal);
    return writeText(w, v.text);
  }
  if (v instanceof Datetime) {
    const [s, ns] = splitNanos(v.nanos);
    w.head(6, TAG.customDatetime);
    w.head(4, 2);
    writeInt(w, s);
    writeInt(w, ns);
    return;
  }
  if (v instanceof Duration) {
    const [s, ns] = splitNanos(v.nanos);
    w.head(6, TAG.customDuration);
    if (s === 0n && ns === 0n) return w.head(4, 0);
    w.head(4, ns === 0n ? 1 : 2);
    writeInt(w, s);
    if (ns !== 0n) writeInt(w, ns);
    return;
  }
  if (v instanceof Geometry) return writeGeometry(w, v, compat, depth);
  if (v instanceof Range) return writeRange(w, v, (x) => writeValue(w, x, compat, depth + 1));
  // SurrealDB has no CBOR form for either and fails the whole answer. A regex may be stored, so one client's value would
  // fail every CBOR read of its table (attack pass 10, H5): we send its pattern as text, as JSON does. A closure cannot be stored.
  if (v instanceof Regex) return writeText(w, v.source);
  if (v instanceof Closure) throw new QueryError("Unsupported", "Found unsupported SurrealQL value being encoded into a CBOR value");
  if (isValueObject(v)) {
    const keys = Object.keys(v).sort();
    w.head(5, keys.length);
    for (const k of keys) {
      writeText(w, k);
      writeValue(w, v[k], compat, depth + 1);
    }
    return;
  }
  throw new CborError(`Cannot encode ${Object.prototype.toString.call(v)} as CBOR`);
}

/** Encode a SurrealQL value (a whole RPC response object included) as SurrealDB does. */
export function encodeCbor(v: Value, opts: { compat?: Compat } = {}): Uint8Array {
  const w = new Writer();
  writeValue(w, v, opts.compat ?? 2, 0);
  return w.result();
}

/** encodeCbor's bytes a piece at a time (codec/pieces.ts drives it); long strings and bytes go out as pieces of their own. */
export class CborPieceSink implements PieceSink {
  private readonly w = new Writer();
  private readonly done: Uint8Array[] = [];

  constructor(private readonly compat: Compat) {}

  value(v: Value, depth: number): void {
    writeValue(this.w, v, this.compat, depth);
  }
  openArray(length: number, depth: number): void {
    tooDeep(depth);
    this.w.head(4, length);
  }
  item(): void {}
  closeArray(): void {}
  openObject(size: number, depth: number): void {
    tooDeep(depth);
    this.w.head(5, size);
  }
  key(k: string): void {
    writeText(this.w, k);
  }
  closeObject(): void {}
  /** The text's head: its UTF-8 length (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
  openText(s: string): void {
    this.w.head(3, Buffer.byteLength(s, "utf8"));
  }
  text(piece: string): void {
    this.flush();
    this.done.push(utf8.encode(piece));
  }
  closeText(): void {}
  /** A typed value goes out whole (a record id's tag, table and key: a memory copy of its text). */
  leafText(): undefined {
    return undefined;
  }
  openBytes(b: Uint8Array): void {
    this.w.head(2, b.length);
  }
  bytes(piece: Uint8Array): void {
    this.flush();
    this.done.push(piece);
  }
  closeBytes(): void {}
  take(): Uint8Array[] {
    this.flush();
    return this.done.splice(0);
  }
  private flush(): void {
    if (this.w.len === 0) return;
    this.done.push(this.w.result());
    this.w.len = 0;
  }
}

// ---------------------------------------------------------------- decoding

/** A decoded tag before its meaning is applied (only bounds 50/51 travel up as such). */
class Bound {
  constructor(
    readonly inclusive: boolean,
    readonly value: Value,
  ) {}
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** Items (scalars, arrays, maps, tags; a key counts as one) one message may hold: bounds the decoding time. */
export const MAX_ITEMS = 200_000;

class Reader {
  private pos = 0;
  private items = 0;
  private readonly view: DataView;
  constructor(
    private readonly buf: Uint8Array,
    private readonly compat: Compat,
    private readonly maxItems: number,
    /** Read on past refused values (as NONE): to find a refused request's id. */
    private readonly salvage = false,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  atEnd(): boolean {
    return this.pos >= this.buf.length;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new CborError("Unexpected end of CBOR data");
  }

  private u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  /** The argument of a header; `undefined` for indefinite length (31). */
  private argument(info: number): bigint | undefined {
    if (info < 24) return BigInt(info);
    switch (info) {
      case 24:
        return BigInt(this.u8());
      case 25: {
        this.need(2);
        const v = this.view.getUint16(this.pos);
        this.pos += 2;
        return BigInt(v);
      }
      case 26: {
        this.need(4);
        const v = this.view.getUint32(this.pos);
        this.pos += 4;
        return BigInt(v);
      }
      case 27: {
        this.need(8);
        const v = this.view.getBigUint64(this.pos);
        this.pos += 8;
        return v;
      }
      case 31:
        return undefined;
      default:
        throw new CborError(`Invalid CBOR header argument ${info}`);
    }
  }

  private length(info: number): number | undefined {
    const n = this.argument(info);
    if (n === undefined) return undefined;
    if (n > BigInt(this.buf.length - this.pos)) throw new CborError("CBOR length exceeds the data");
    return Number(n);
  }

  private isBreak(): boolean {
    this.need(1);
    if (this.buf[this.pos] === 0xff) {
      this.pos++;
      return true;
    }
    return false;
  }

  private chunks(major: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let total = 0;
    while (!this.isBreak()) {
      const h = this.u8();
      if (h >> 5 !== major) throw new CborError("Invalid chunk in indefinite-length string");
      const n = this.length(h & 0x1f);
      if (n === undefined) throw new CborError("Nested indefinite-length string");
      this.need(n);
      parts.push(this.buf.subarray(this.pos, this.pos + n));
      this.pos += n;
      total += n;
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  private rawBytes(info: number, major: number): Uint8Array {
    const n = this.length(info);
    if (n === undefined) return this.chunks(major);
    this.need(n);
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  private text(info: number): string {
    // fast path: a short definite-length ASCII text (map keys, ids) without a TextDecoder call
    if (info < 24) {
      const end = this.pos + info;
      if (end <= this.buf.length) {
        let ascii = "";
        let i = this.pos;
        for (; i < end && this.buf[i] < 0x80; i++) ascii += String.fromCharCode(this.buf[i]);
        if (i === end) {
          this.pos = end;
          return ascii;
        }
      }
    }
    try {
      return utf8Decoder.decode(this.rawBytes(info, 3));
    } catch (e) {
      if (e instanceof CborError) throw e;
      throw new CborError("Invalid UTF-8 in CBOR text");
    }
  }

  read(depth = 0): Value | Bound {
    if (depth > MAX_DEPTH) throw new CborError("CBOR nested too deeply");
    if (++this.items > this.maxItems) throw new CborError("Too many items in one message");
    const h = this.u8();
    const major = h >> 5;
    const info = h & 0x1f;
    switch (major) {
      case 0: {
        const n = this.argument(info);
        if (n === undefined) throw new CborError("Invalid indefinite integer");
        if (n > I64_MAX) throw new CborError("Integer out of range");
        return n;
      }
      case 1: {
        const n = this.argument(info);
        if (n === undefined) throw new CborError("Invalid indefinite integer");
        const v = -1n - n;
        if (v < I64_MIN) throw new CborError("Integer out of range");
        return v;
      }
      case 2:
        return this.rawBytes(info, 2);
      case 3:
        return this.text(info);
      case 4: {
        const out: Value[] = [];
        const n = this.length(info);
        if (n === undefined) while (!this.isBreak()) out.push(this.plain(this.read(depth + 1)));
        else for (let i = 0; i < n; i++) out.push(this.plain(this.read(depth + 1)));
        return out;
      }
      case 5: {
        const out: ValueObject = {};
        const n = this.length(info);
        const entry = () => {
          const k = this.read(depth + 1);
          let key: string;
          if (typeof k === "string") key = k;
          else if (typeof k === "bigint" || typeof k === "number") key = String(k);
          else throw new CborError("Expected a string as a CBOR map key");
          Object.defineProperty(out, key, { value: this.plain(this.read(depth + 1)), enumerable: true, writable: true, configurable: true });
        };
        if (n === undefined) while (!this.isBreak()) entry();
        else for (let i = 0; i < n; i++) entry();
        return out;
      }
      case 6: {
        const tag = this.argument(info);
        if (tag === undefined) throw new CborError("Invalid indefinite tag");
        return this.tagged(tag, depth);
      }
      default:
        return this.simple(info);
    }
  }

  private simple(info: number): Value {
    switch (info) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 25: {
        this.need(2);
        const v = this.view.getUint16(this.pos);
        this.pos += 2;
        return float16(v);
      }
      case 26: {
        this.need(4);
        const v = this.view.getFloat32(this.pos);
        this.pos += 4;
        return v;
      }
      case 27: {
        this.need(8);
        const v = this.view.getFloat64(this.pos);
        this.pos += 8;
        return v;
      }
      case 31:
        throw new CborError("Unexpected CBOR break");
      default:
        throw new CborError(`Unsupported CBOR simple value ${info}`);
    }
  }

  /** A bound outside a range is an unknown tag to SurrealDB. */
  private plain(v: Value | Bound): Value {
    if (!(v instanceof Bound)) return v;
    if (this.salvage) return undefined;
    throw refused("unknownTag");
  }

  private tagged(tag: bigint, depth: number): Value | Bound {
    if (!this.salvage) return this.convert(tag, depth);
    // salvaging: a record id or range is read as plain CBOR, any other refused value is NONE
    if (tag === BigInt(TAG.recordId) || tag === BigInt(TAG.range)) return void this.read(depth + 1);
    try {
      return this.convert(tag, depth);
    } catch (e) {
      if (e instanceof CborValueError) return undefined;
      throw e;
    }
  }

  private convert(tag: bigint, depth: number): Value | Bound {
    if (tag === BigInt(TAG.recordId)) return this.recordId(depth);
    if (tag === BigInt(TAG.range) && this.compat === 2) return this.range(depth, (v) => v, Range);
    const inner = this.read(depth + 1);
    if (tag === BigInt(TAG.boundIncluded) || tag === BigInt(TAG.boundExcluded)) return new Bound(tag === BigInt(TAG.boundIncluded), this.plain(inner));
    const v = this.plain(inner);
    switch (Number(tag)) {
      case TAG.specDatetime:
        if (typeof v !== "string") throw refused("text");
        return viaValueLayer(() => parseDatetime(v, { compat: this.compat }), "datetime");
      case TAG.none:
        return undefined;
      case TAG.table:
        if (typeof v !== "string") throw refused("text");
        return new Table(v);
      case TAG.stringUuid:
        if (typeof v !== "string") throw refused("text");
        if (!UUID_RE.test(v)) throw refused("uuid");
        return new Uuid(v.toLowerCase());
      case TAG.stringDecimal: {
        if (typeof v !== "string") throw refused("text");
        // read as rust_decimal reads it (28 fractional digits, 96 bits): a huge exponent is refused, never expanded
        const d = decimalFromText(v);
        if (d === undefined) throw refused("decimal");
        return d;
      }
      case TAG.customDatetime: {
        if (!Array.isArray(v) || v.length !== 2) throw refused("pair");
        if (typeof v[0] !== "bigint" || typeof v[1] !== "bigint") throw refused("integer");
        // held to SurrealDB's range (±262,142 years), as chrono's timestamp_opt is
        const dt = datetimeInRange(v[0] * NANOS_PER_SECOND + v[1]);
        if (dt === undefined) throw refused("datetime");
        return dt;
      }
      case TAG.stringDuration:
        if (typeof v !== "string") throw refused("text");
        return viaValueLayer(() => parseDuration(v), "duration");
      case TAG.customDuration: {
        if (!Array.isArray(v) || v.length > 2) throw refused("durationParts");
        if (v.some((x) => typeof x !== "bigint" || x < 0n)) throw refused("integer");
        const [s = 0n, ns = 0n] = v as bigint[];
        return new Duration(s * NANOS_PER_SECOND + ns);
      }
      case TAG.specUuid:
        if (!(v instanceof Uint8Array) || v.length !== 16) throw refused("uuidBytes");
        return uuidFromBytes(v);
      case TAG.point:
        return new Geometry("Point", pointCoords(v));
      case TAG.line:
        return new Geometry("LineString", listOf(v, "Point", "points"));
      case TAG.polygon:
        return new Geometry("Polygon", listOf(v, "LineString", "lines"));
      case TAG.multiPoint:
        return new Geometry("MultiPoint", listOf(v, "Point", "points"));
      case TAG.multiLine:
        return new Geometry("MultiLineString", listOf(v, "LineString", "lines"));
      case TAG.multiPolygon:
        return new Geometry("MultiPolygon", listOf(v, "Polygon", "polygons"));
      case TAG.collection:
        if (!Array.isArray(v) || !v.every((g) => g instanceof Geometry)) throw refused("geometries");
        return new Geometry("GeometryCollection", v);
      default:
        // 1.x knows no range (49) or future (15); futures are not values here
        throw refused("unknownTag");
    }
  }

  /** Tag 8: `"tb:id"` text or `[tb, id]`; the id may be a tag 49 range (v2). */
  private recordId(depth: number): RecordId {
    this.need(1);
    const h = this.buf[this.pos];
    if (h >> 5 === 3) {
      const text = this.text((this.u8(), h & 0x1f));
      const rid = viaValueLayer(() => parseRecordIdText(text, { compat: this.compat }), "recordId");
      if (!(rid instanceof RecordId)) throw refused("recordId");
      return rid;
    }
    if (h !== 0x82) throw refused("recordIdShape");
    this.pos++;
    const tb = this.plain(this.read(depth + 1));
    const table = typeof tb === "string" ? tb : tb instanceof Table ? tb.name : undefined;
    if (table === undefined) throw refused("recordTable");
    if (this.pos + 1 < this.buf.length && this.buf[this.pos] === 0xd8 && this.buf[this.pos + 1] === TAG.range) {
      if (this.compat === 1) throw refused("recordKey");
      this.pos += 2;
      return new RecordId(table, this.range(depth + 1, (v) => this.recordKey(v), RecordIdRange));
    }
    return new RecordId(table, this.recordKey(this.plain(this.read(depth + 1))));
  }

  /** Tag 49 payload: `[begin, end]`, each `50(v)` included, `51(v)` excluded or null (unbounded); `as` reads a bound's value. */
  private range<T, R>(depth: number, as: (v: Value) => T, Kind: new (begin: { value: T; inclusive: boolean } | undefined, end: { value: T; inclusive: boolean } | undefined) => R): R {
    if (this.u8() !== 0x82) throw refused("bounds");
    const [begin, end] = [this.read(depth + 1), this.read(depth + 1)].map((b) => {
      if (b === null) return undefined;
      if (!(b instanceof Bound)) throw refused("bound");
      return { value: as(b.value), inclusive: b.inclusive };
    });
    return new Kind(begin, end);
  }

  private recordKey(id: Value): RecordIdKey {
    if (typeof id === "bigint" || typeof id === "string" || Array.isArray(id)) return id;
    if (id instanceof Uuid) {
      if (this.compat === 1) throw refused("recordKey");
      return id;
    }
    if (isValueObject(id)) return id;
    throw refused("recordKey");
  }
}

function float16(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function coordinate(x: Value): number {
  if (typeof x === "number") return x;
  if (typeof x === "bigint") return Number(x);
  if (x instanceof Decimal) return Number(x.text);
  throw refused("point");
}

function pointCoords(v: Value): [number, number] {
  if (!Array.isArray(v) || v.length !== 2) throw refused("point");
  return [coordinate(v[0]), coordinate(v[1])];
}

/** The coordinates of an array of geometries of one type (SurrealDB's words for the list when it is not). */
function listOf(v: Value, type: Geometry["type"], why: keyof typeof CBOR_REFUSED): unknown[] {
  if (!Array.isArray(v)) throw refused(why);
  return v.map((g) => {
    if (!(g instanceof Geometry) || g.type !== type) throw refused(why);
    return g.coordinates;
  });
}

/** Run a value-layer parser; any failure is SurrealDB's refusal `why`, so a bad frame never escapes as something else. */
function viaValueLayer<T>(parse: () => T, why: keyof typeof CBOR_REFUSED): T {
  let out: T;
  try {
    out = parse();
  } catch {
    throw refused(why);
  }
  if (out === undefined) throw refused(why);
  return out;
}

/** Decode one CBOR item (trailing bytes are an error) into a SurrealQL value. Throws CborError (CborValueError for a refused value). */
export function decodeCbor(bytes: Uint8Array, opts: { compat?: Compat; maxItems?: number } = {}): Value {
  const r = new Reader(bytes, opts.compat ?? 2, opts.maxItems ?? MAX_ITEMS);
  const v = r.read();
  if (v instanceof Bound) throw refused("unknownTag");
  if (!r.atEnd()) throw new CborError("Trailing bytes after CBOR item");
  return v;
}

/**
 * The same item read on past the values SurrealDB refuses (NONE in their place): the readable rest of a refused
 * request, to answer it with its id. Undefined if the bytes themselves do not decode.
 */
export function salvageCbor(bytes: Uint8Array, opts: { compat?: Compat; maxItems?: number } = {}): Value {
  try {
    const r = new Reader(bytes, opts.compat ?? 2, opts.maxItems ?? MAX_ITEMS, true);
    const v = r.read();
    return v instanceof Bound || !r.atEnd() ? undefined : v;
  } catch {
    return undefined;
  }
}
