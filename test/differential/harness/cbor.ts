// Differential harness: a small, independent CBOR codec for talking to real SurrealDB engines.
// Deliberately separate from src/server/codec so a bug there cannot hide on both sides of a comparison.

import { ByteWriter } from "../../../src/value/byte-writer.js";
import { Datetime, Decimal, Duration, RecordId, Table, Uuid, type Value } from "../../../src/value/types.js";

/** A CBOR tag the harness does not map to a value type. */
export class Tagged {
  constructor(
    readonly tag: number,
    readonly value: unknown,
  ) {}
}

// ── encoding (requests: strings, numbers, arrays, objects, NONE/NULL, record ids, tables) ──

class Writer extends ByteWriter {
  head(major: number, n: number | bigint): void {
    const v = BigInt(n);
    const m = major << 5;
    if (v < 24n) this.byte(m | Number(v));
    else if (v < 0x100n) this.bytes(Uint8Array.of(m | 24, Number(v)));
    else if (v < 0x10000n) this.bytes(Uint8Array.of(m | 25, Number(v >> 8n), Number(v & 0xffn)));
    else if (v < 0x100000000n) {
      this.byte(m | 26);
      for (let s = 24n; s >= 0n; s -= 8n) this.byte(Number((v >> s) & 0xffn));
    } else {
      this.byte(m | 27);
      for (let s = 56n; s >= 0n; s -= 8n) this.byte(Number((v >> s) & 0xffn));
    }
  }
  done(): Uint8Array {
    return this.result();
  }
}

function encodeInto(w: Writer, v: unknown): void {
  if (v === undefined) return w.bytes(Uint8Array.of(0xc6, 0xf6)); // 6(null) = NONE
  if (v === null) return w.byte(0xf6);
  if (v === true) return w.byte(0xf5);
  if (v === false) return w.byte(0xf4);
  if (typeof v === "bigint") return v >= 0n ? w.head(0, v) : w.head(1, -1n - v);
  if (typeof v === "number") {
    if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return encodeInto(w, BigInt(v));
    const b = new Uint8Array(9);
    b[0] = 0xfb;
    new DataView(b.buffer).setFloat64(1, v);
    return w.bytes(b);
  }
  if (typeof v === "string") {
    const b = new TextEncoder().encode(v);
    w.head(3, b.length);
    return w.bytes(b);
  }
  if (v instanceof Uint8Array) {
    w.head(2, v.length);
    return w.bytes(v);
  }
  if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const x of v) encodeInto(w, x);
    return;
  }
  if (v instanceof Tagged) {
    w.head(6, v.tag);
    return encodeInto(w, v.value);
  }
  if (v instanceof RecordId) {
    w.head(6, 8);
    return encodeInto(w, [v.table, v.id]);
  }
  if (v instanceof Table) {
    w.head(6, 7);
    return encodeInto(w, v.name);
  }
  if (v instanceof Uuid) {
    w.head(6, 9);
    return encodeInto(w, v.text);
  }
  if (v instanceof Duration) {
    w.head(6, 14);
    const s = v.nanos / 1_000_000_000n;
    const ns = v.nanos % 1_000_000_000n;
    return encodeInto(w, ns === 0n ? (s === 0n ? [] : [s]) : [s, ns]);
  }
  if (v instanceof Datetime) {
    w.head(6, 12);
    let s = v.nanos / 1_000_000_000n;
    let ns = v.nanos % 1_000_000_000n;
    if (ns < 0n) {
      ns += 1_000_000_000n;
      s -= 1n;
    }
    return encodeInto(w, [s, ns]);
  }
  if (v instanceof Decimal) {
    w.head(6, 10);
    return encodeInto(w, v.text);
  }
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    w.head(5, entries.length);
    for (const [k, x] of entries) {
      encodeInto(w, k);
      encodeInto(w, x);
    }
    return;
  }
  throw new TypeError(`cannot CBOR-encode ${typeof v}`);
}

export function encode(v: unknown): Uint8Array {
  const w = new Writer();
  encodeInto(w, v);
  return w.done();
}

// ── decoding (responses) into the surql-auth value model ──

export function decode(bytes: Uint8Array): Value {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const arg = (info: number): bigint => {
    if (info < 24) return BigInt(info);
    if (info === 24) return BigInt(view.getUint8(pos++));
    if (info === 25) {
      const x = view.getUint16(pos);
      pos += 2;
      return BigInt(x);
    }
    if (info === 26) {
      const x = view.getUint32(pos);
      pos += 4;
      return BigInt(x);
    }
    if (info === 27) {
      const x = view.getBigUint64(pos);
      pos += 8;
      return x;
    }
    throw new Error(`unsupported CBOR length encoding ${info}`);
  };
  const item = (): unknown => {
    const first = view.getUint8(pos++);
    const major = first >> 5;
    const info = first & 31;
    switch (major) {
      case 0:
        return arg(info);
      case 1:
        return -1n - arg(info);
      case 2: {
        const n = Number(arg(info));
        const b = bytes.slice(pos, pos + n);
        pos += n;
        return b;
      }
      case 3: {
        const n = Number(arg(info));
        const s = new TextDecoder().decode(bytes.subarray(pos, pos + n));
        pos += n;
        return s;
      }
      case 4: {
        const n = Number(arg(info));
        const out: unknown[] = [];
        for (let i = 0; i < n; i++) out.push(item());
        return out;
      }
      case 5: {
        const n = Number(arg(info));
        const out: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = String(item());
          out[k] = item();
        }
        return out;
      }
      case 6: {
        const tag = Number(arg(info));
        return tagged(tag, item());
      }
      default: {
        if (info === 20) return false;
        if (info === 21) return true;
        if (info === 22) return null;
        if (info === 23) return undefined;
        if (info === 25) {
          const x = half(view.getUint16(pos));
          pos += 2;
          return x;
        }
        if (info === 26) {
          const x = view.getFloat32(pos);
          pos += 4;
          return x;
        }
        if (info === 27) {
          const x = view.getFloat64(pos);
          pos += 8;
          return x;
        }
        throw new Error(`unsupported CBOR simple value ${info}`);
      }
    }
  };
  return item() as Value;
}

function half(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

function tagged(tag: number, v: unknown): unknown {
  switch (tag) {
    case 6:
      return undefined;
    case 7:
      return new Table(String(v));
    case 8: {
      const [tb, id] = v as [unknown, unknown];
      return new RecordId(tb instanceof Table ? tb.name : String(tb), typeof id === "number" ? BigInt(id) : (id as never));
    }
    case 9:
      return new Uuid(String(v));
    case 37: {
      const h = hex(v as Uint8Array);
      return new Uuid(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
    }
    case 10:
      return new Decimal(String(v));
    case 12: {
      const [s = 0n, ns = 0n] = v as bigint[];
      return new Datetime(BigInt(s) * 1_000_000_000n + BigInt(ns));
    }
    case 14: {
      const [s = 0n, ns = 0n] = v as bigint[];
      return new Duration(BigInt(s) * 1_000_000_000n + BigInt(ns));
    }
    default:
      return new Tagged(tag, v);
  }
}
