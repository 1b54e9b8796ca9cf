// Small value helpers shared by the builtin namespaces (private stand-ins until value/ provides them).

import { Datetime, Decimal, Duration, Geometry, RecordId, Table, Uuid, isValueObject, type Value } from "../../value/types.js";
import { CastError } from "../../errors/index.js";
import { render } from "./display.js";
import { isDatetimeText, isRustFloat } from "./validate.js";

/** SurrealDB truthiness: NONE, NULL, false, 0, "", [], {} are falsy; everything else is truthy. */
export function isTruthy(v: Value): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (typeof v === "string") return v.length > 0;
  if (v instanceof Decimal) return Number(v.text) !== 0;
  if (v instanceof Duration) return v.nanos !== 0n;
  if (v instanceof Datetime || v instanceof Uuid || v instanceof RecordId || v instanceof Table || v instanceof Geometry) return true;
  if (v instanceof Uint8Array) return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isValueObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** SurrealDB's `as_raw_string`: strings as they are, anything else as SurrealQL text. */
export function asRawString(v: Value): string {
  return typeof v === "string" ? v : render(v);
}

const IDENT = /^[A-Za-z0-9_]+$/;

/** Minimal record-id text parser (`tb:key`, ⟨…⟩ / backtick escapes, numeric, uuid, array and object keys kept as text). */
export function parseRecordIdText(text: string): RecordId | undefined {
  let i = 0;
  const readPart = (stopAtColon: boolean): string | undefined => {
    const open = text[i];
    if (open === "⟨" || open === "`") {
      const close = open === "⟨" ? "⟩" : "`";
      let out = "";
      i++;
      while (i < text.length && text[i] !== close) {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        out += text[i++];
      }
      if (text[i] !== close) return undefined;
      i++;
      return out;
    }
    const start = i;
    while (i < text.length && (stopAtColon ? text[i] !== ":" : true)) i++;
    const raw = text.slice(start, i);
    return raw;
  };
  const table = readPart(true);
  if (table === undefined || table === "" || text[i] !== ":") return undefined;
  if (!text.startsWith("⟨") && !text.startsWith("`") && !IDENT.test(table)) return undefined;
  i++;
  const rest = text.slice(i);
  if (rest === "") return undefined;
  if (rest.startsWith("⟨") || rest.startsWith("`")) {
    const key = readPart(false);
    return key !== undefined && i === text.length ? new RecordId(table, key) : undefined;
  }
  if (/^[+-]?\d+$/.test(rest)) {
    const n = BigInt(rest);
    return n >= -(2n ** 63n) && n < 2n ** 63n ? new RecordId(table, n) : new RecordId(table, rest);
  }
  if (IDENT.test(rest)) return new RecordId(table, rest);
  const uuid = /^u['"]([0-9a-fA-F-]{36})['"]$/.exec(rest);
  if (uuid) return new RecordId(table, new Uuid(uuid[1]!.toLowerCase()));
  if ((rest.startsWith("[") && rest.endsWith("]")) || (rest.startsWith("{") && rest.endsWith("}"))) {
    return new RecordId(table, rest);
  }
  return undefined;
}

/** Rank of a value's kind in SurrealDB's ordering (enum order of `Value`). */
function rank(v: Value): number {
  if (v === undefined) return 0;
  if (v === null) return 1;
  if (typeof v === "boolean") return 2;
  if (typeof v === "bigint" || typeof v === "number" || v instanceof Decimal) return 3;
  if (typeof v === "string") return 4;
  if (v instanceof Duration) return 5;
  if (v instanceof Datetime) return 6;
  if (v instanceof Uuid) return 7;
  if (Array.isArray(v)) return 8;
  if (isValueObject(v)) return 9;
  if (v instanceof Geometry) return 10;
  if (v instanceof Uint8Array) return 11;
  if (v instanceof RecordId) return 12;
  if (v instanceof Table) return 13;
  return 14;
}

function compareNumbers(a: bigint | number | Decimal, b: bigint | number | Decimal): number {
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  const x = a instanceof Decimal ? Number(a.text) : Number(a);
  const y = b instanceof Decimal ? Number(b.text) : Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

const cmp = <T>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/** Total order over values, following SurrealDB (kinds first, then contents). */
export function compareValues(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 2: return cmp(Number(a), Number(b));
    case 3: return compareNumbers(a as bigint, b as bigint);
    case 4: return cmp(a as string, b as string);
    case 5: return cmp((a as Duration).nanos, (b as Duration).nanos);
    case 6: return cmp((a as Datetime).nanos, (b as Datetime).nanos);
    case 7: return cmp((a as Uuid).text, (b as Uuid).text);
    case 8: {
      const x = a as Value[];
      const y = b as Value[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return cmp(x.length, y.length);
    }
    case 9: {
      const x = a as Record<string, Value>;
      const y = b as Record<string, Value>;
      const kx = Object.keys(x).sort();
      const ky = Object.keys(y).sort();
      for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
        const c = cmp(kx[i]!, ky[i]!) || compareValues(x[kx[i]!], y[ky[i]!]);
        if (c !== 0) return c;
      }
      return cmp(kx.length, ky.length);
    }
    case 11: return Buffer.compare(Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array));
    case 12: {
      const x = a as RecordId;
      const y = b as RecordId;
      return cmp(x.table, y.table) || compareValues(x.id as Value, y.id as Value);
    }
    case 13: return cmp((a as Table).name, (b as Table).name);
    default: return 0;
  }
}

/** SurrealDB `=` on values (numbers compare across int/float/decimal). */
export function valueEquals(a: Value, b: Value): boolean {
  return rank(a) === rank(b) && compareValues(a, b) === 0;
}

/** SurrealDB's ConvertTo error: "Expected a X but cannot convert V into a X". */
export function convertError(v: Value, into: string): CastError {
  return new CastError(`Expected a ${into} but cannot convert ${render(v)} into a ${into}`);
}

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  "µs": 1_000n,
  "μs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
  y: 31_536_000_000_000_000n,
};

/** Duration text such as "1h30m" or "250ms"; undefined when malformed. */
export function parseDurationText(text: string): Duration | undefined {
  const re = /(\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/y;
  let pos = 0;
  let total = 0n;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    total += BigInt(m[1]!) * DURATION_UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos === 0 || total >= 2n ** 64n * 1_000_000_000n) return undefined;
  return new Duration(total);
}

/** RFC 3339 datetime (or a bare date) to a Datetime; undefined when malformed. */
export function parseDatetimeText(text: string): Datetime | undefined {
  const m = /^([+-]?\d{4,6})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d))?$/.exec(text);
  if (!m || !isDatetimeText(text)) return undefined;
  const d = new Date(Date.UTC(2000, Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)));
  d.setUTCFullYear(Number(m[1]));
  let ms = d.getTime();
  if (m[8] && m[8] !== "Z") {
    const sign = m[8][0] === "-" ? -1 : 1;
    ms -= sign * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(4))) * 60_000;
  }
  const frac = BigInt((m[7] ?? "").padEnd(9, "0") || "0");
  return new Datetime(BigInt(ms) * 1_000_000n + frac);
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Rust i64::from_str: optional sign, digits only, in range. */
export function parseIntText(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n >= I64_MIN && n <= I64_MAX ? n : undefined;
}

/** Rust f64::from_str. */
export function parseFloatText(text: string): number | undefined {
  if (!isRustFloat(text)) return undefined;
  const t = text.toLowerCase().replace(/^([+-]?)inf(inity)?$/, "$1Infinity");
  return t.endsWith("nan") ? NaN : Number(t);
}
