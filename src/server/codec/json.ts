// JSON wire format of RPC frames and HTTP bodies: text ⇄ SurrealQL values (protocol.md §8.1).
//
// Input keeps SurrealDB's number kinds (`1` ⇒ int/bigint, `1.0` / `1e3` ⇒ float), which JSON.parse cannot,
// and RPC params get the legacy string coercion (`"person:1"` ⇒ record id, datetimes, UUIDs).
// Output walks plain data itself and hands the typed leaves (record ids, datetimes …) to value/toJson.

import { LocalError } from "../../errors/index.js";
import type { Compat } from "../../exec/session.js";
import { legacyStrand, parseI64, toJson } from "../../value/index.js";
import { isValueObject, type Value, type ValueObject } from "../../value/types.js";
import type { PieceSink } from "./pieces.js";

export class JsonError extends LocalError {
  constructor(message: string) {
    super("Decode", message);
  }
}

const MAX_DEPTH = 256;
/** Values (scalars, arrays, objects and object keys) one document may hold: bounds the decoding time. */
export const MAX_VALUES = 200_000;

export interface JsonParseOptions {
  /** Most values the document may hold (default MAX_VALUES); beyond, a JsonError before anything else is built. */
  readonly maxValues?: number;
  /** Apply SurrealDB's legacy JSON-RPC string coercion to string values (not keys) as they are read. */
  readonly coerce?: Compat;
}

/** The value of a hex digit's char code, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

class Parser {
  private pos = 0;
  private values = 0;
  private readonly maxValues: number;
  constructor(
    private readonly text: string,
    private readonly opts: JsonParseOptions,
  ) {
    this.maxValues = opts.maxValues ?? MAX_VALUES;
  }

  parseDocument(): Value {
    const v = this.value(0);
    this.ws();
    if (this.pos !== this.text.length) this.fail("Unexpected trailing characters");
    return v;
  }

  private fail(msg: string): never {
    throw new JsonError(`${msg} at offset ${this.pos}`);
  }

  private ws(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  private value(depth: number): Value {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply");
    if (++this.values > this.maxValues) this.fail("Too many values in one message");
    this.ws();
    const c = this.text[this.pos];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"': {
        const s = this.string();
        return this.opts.coerce === undefined ? s : coerceLegacyString(s, this.opts.coerce);
      }
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
        return this.fail("Unexpected character");
    }
  }

  private literal<T extends Value>(word: string, v: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail("Invalid literal");
    this.pos += word.length;
    return v;
  }

  private number(): Value {
    // fast path: a short plain integer
    const t = this.text;
    let end = this.pos + (t.charCodeAt(this.pos) === 0x2d ? 1 : 0);
    const digits = end;
    while (end < t.length && end - digits < 19) {
      const c = t.charCodeAt(end);
      if (c < 0x30 || c > 0x39) break;
      end++;
    }
    const next = t.charCodeAt(end);
    // at most 18 digits: always an i64
    const plain = end > digits && end - digits < 19 && (t.charCodeAt(digits) !== 0x30 || end - digits === 1);
    if (plain && next !== 0x2e && next !== 0x65 && next !== 0x45 && !(next >= 0x30 && next <= 0x39)) {
      const n = end - digits < 16 ? BigInt(Number(t.slice(this.pos, end))) : BigInt(t.slice(this.pos, end));
      this.pos = end;
      return n;
    }
    const m = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.text);
    if (!r) return this.fail("Invalid number");
    this.pos += r[0].length;
    if (r[2] === undefined && r[3] === undefined) {
      const n = parseI64(r[0]);
      if (n !== undefined) return n;
    }
    return Number(r[0]);
  }

  private string(): string {
    const t = this.text;
    this.pos++;
    let out = "";
    let start = this.pos;
    for (;;) {
      if (this.pos >= t.length) this.fail("Unterminated string");
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail("Control character in string");
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += t.slice(start, this.pos);
      const e = t[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          let code = 0;
          for (let i = 0; i < 4; i++) {
            const d = hexDigit(t.charCodeAt(this.pos + i));
            if (d < 0) this.fail("Invalid unicode escape");
            code = code * 16 + d;
          }
          out += String.fromCharCode(code);
          this.pos += 4;
          break;
        }
        default:
          this.fail("Invalid escape");
      }
      start = this.pos;
    }
  }

  private array(depth: number): Value[] {
    this.pos++;
    const out: Value[] = [];
    this.ws();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail("Expected ',' or ']'");
    }
  }

  private object(depth: number): ValueObject {
    this.pos++;
    const out: ValueObject = {};
    this.ws();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') this.fail("Expected a string key");
      if (++this.values > this.maxValues) this.fail("Too many values in one message");
      const key = this.string();
      this.ws();
      if (this.text[this.pos++] !== ":") this.fail("Expected ':'");
      const v = this.value(depth + 1);
      // `__proto__` would set the prototype: define it as an own key; others assign (much faster on repeats)
      if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      this.ws();
      const c = this.text[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail("Expected ',' or '}'");
    }
  }
}

/** Parse JSON text into a SurrealQL value: integers ⇒ bigint, other numbers ⇒ float. Throws JsonError. */
export function parseJsonText(text: string, opts: JsonParseOptions = {}): Value {
  return new Parser(text, opts).parseDocument();
}

/** A string SurrealDB's legacy JSON reading turns into a datetime, UUID or record id; else the string itself. */
export function coerceLegacyString(s: string, compat: Compat = 2): Value {
  // a value-layer parser failing on odd text must leave the string as it is, never fail the request
  try {
    return legacyStrand(s, { compat });
  } catch {
    return s;
  }
}

/** Apply the legacy string coercion everywhere inside a decoded value (object keys stay strings). */
export function coerceLegacyStrings(v: Value, compat: Compat = 2): Value {
  if (typeof v === "string") return coerceLegacyString(v, compat);
  if (Array.isArray(v)) return v.map((x) => coerceLegacyStrings(x, compat));
  if (isValueObject(v)) {
    const out: ValueObject = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: coerceLegacyStrings(v[k], compat), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/** Decode an RPC JSON frame: parse with the legacy string coercion of SurrealDB's JSON-RPC. */
export function decodeJsonRpc(text: string, compat: Compat = 2, maxValues?: number): Value {
  return parseJsonText(text, { coerce: compat, ...(maxValues === undefined ? {} : { maxValues }) });
}

// ---------------------------------------------------------------- output

function floatText(n: number): string {
  if (!Number.isFinite(n)) return "null";
  // serde_json prints f64 with a fraction: 1.0, not 1
  if (Object.is(n, -0)) return "-0.0";
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : JSON.stringify(n);
}

function tooDeep(depth: number): void {
  if (depth > MAX_DEPTH) throw new JsonError("Value nested too deeply to encode");
}

function write(v: Value, compat: Compat, depth: number, out: string[]): void {
  tooDeep(depth);
  if (v === undefined || v === null) {
    out.push("null");
    return;
  }
  switch (typeof v) {
    case "boolean":
      out.push(v ? "true" : "false");
      return;
    case "bigint":
      out.push(v.toString());
      return;
    case "number":
      out.push(floatText(v));
      return;
    case "string":
      out.push(JSON.stringify(v));
      return;
  }
  if (Array.isArray(v)) {
    out.push("[");
    v.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, compat, depth + 1, out);
    });
    out.push("]");
    return;
  }
  if (v instanceof Uint8Array) {
    out.push(`[${Array.from(v).join(",")}]`);
    return;
  }
  if (isValueObject(v)) {
    out.push("{");
    Object.keys(v).sort().forEach((k, i) => {
      if (i > 0) out.push(",");
      out.push(JSON.stringify(k), ":");
      write(v[k], compat, depth + 1, out);
    });
    out.push("}");
    return;
  }
  // record ids, datetimes, durations, uuids, decimals, tables, geometries
  out.push(JSON.stringify(toJson(v, { compat }), (_k, x: unknown) => (typeof x === "bigint" ? Number(x) : x)));
}

/** Encode a SurrealQL value as SurrealDB's JSON output text. */
export function stringifyJson(v: Value, opts: { compat?: Compat } = {}): string {
  const out: string[] = [];
  write(v, opts.compat ?? 2, 0, out);
  return out.join("");
}

/** stringifyJson's text a piece at a time (codec/pieces.ts drives it), as UTF-8 bytes. */
export class JsonPieceSink implements PieceSink {
  private out: string[] = [];

  constructor(private readonly compat: Compat) {}

  value(v: Value, depth: number): void {
    write(v, this.compat, depth, this.out);
  }
  openArray(_length: number, depth: number): void {
    tooDeep(depth);
    this.out.push("[");
  }
  item(i: number): void {
    if (i > 0) this.out.push(",");
  }
  closeArray(): void {
    this.out.push("]");
  }
  openObject(_size: number, depth: number): void {
    tooDeep(depth);
    this.out.push("{");
  }
  key(k: string, i: number): void {
    if (i > 0) this.out.push(",");
    this.out.push(JSON.stringify(k), ":");
  }
  closeObject(): void {
    this.out.push("}");
  }
  openText(): void {
    this.out.push('"');
  }
  /** A piece of a string, cut outside surrogate pairs: its escapes are those of the whole. */
  text(piece: string): void {
    this.out.push(JSON.stringify(piece).slice(1, -1));
  }
  closeText(): void {
    this.out.push('"');
  }
  /** A typed value whose JSON is a string (a record id, a datetime…): write() sends that string. */
  leafText(v: Value): string | undefined {
    const j = toJson(v, { compat: this.compat });
    return typeof j === "string" ? j : undefined;
  }
  openBytes(): void {
    this.out.push("[");
  }
  bytes(piece: Uint8Array, first: boolean): void {
    this.out.push(first ? "" : ",", Array.from(piece).join(","));
  }
  closeBytes(): void {
    this.out.push("]");
  }
  take(): Buffer[] {
    const text = this.out.join("");
    this.out = [];
    return text === "" ? [] : [Buffer.from(text, "utf8")];
  }
}
