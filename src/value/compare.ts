// SurrealDB's total order and equality across all value types; used by ORDER BY, comparison ops and sets.
import { compareStrings, compatOf, type CompatOpts } from "./compat.js";
import { compareScaled, decimalToNumber, scaledOf } from "./decimal.js";
import { formatRecordId } from "./record.js";
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
} from "./types.js";

/**
 * Rank of a value's type in SurrealDB's order (the order of its Value enum):
 * NONE < NULL < bool < number < string < duration < datetime < uuid < array < object
 * < geometry < bytes < record id < table < regex < range < closure.
 */
export function typeRank(v: Value): number {
  if (v === undefined) return 0;
  if (v === null) return 1;
  switch (typeof v) {
    case "boolean":
      return 2;
    case "bigint":
    case "number":
      return 3;
    case "string":
      return 4;
  }
  if (v instanceof Decimal) return 3;
  if (v instanceof Duration) return 5;
  if (v instanceof Datetime) return 6;
  if (v instanceof Uuid) return 7;
  if (Array.isArray(v)) return 8;
  if (v instanceof Geometry) return 10;
  if (v instanceof Uint8Array) return 11;
  if (v instanceof RecordId) return 12;
  if (v instanceof Table) return 13;
  if (v instanceof Regex) return 14;
  if (v instanceof Range) return 15;
  if (v instanceof Closure) return 16;
  return 9; // object
}

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);
const cmpBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

function cmpFloat(a: number, b: number): number {
  // NaN equals NaN and sorts above every other number (Rust's total_cmp)
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** int vs float, exactly (2.x); 1.x converts the int to a float first. */
function cmpIntFloat(a: bigint, b: number, compat: 1 | 2): number {
  if (compat === 1 || Number.isNaN(b) || !Number.isFinite(b)) return cmpFloat(Number(a), b);
  if (Number.isInteger(b)) return cmpBig(a, BigInt(b));
  const fl = BigInt(Math.floor(b));
  return a <= fl ? -1 : 1;
}

export function compareNumbers(a: bigint | number | Decimal, b: bigint | number | Decimal, opts?: CompatOpts): number {
  const compat = compatOf(opts);
  if (typeof a === "bigint") {
    if (typeof b === "bigint") return cmpBig(a, b);
    if (typeof b === "number") return cmpIntFloat(a, b, compat);
    return compareScaled({ unscaled: a, scale: 0 }, scaledOf(b));
  }
  if (typeof a === "number") {
    if (typeof b === "bigint") return -cmpIntFloat(b, a, compat);
    if (typeof b === "number") return cmpFloat(a, b);
    return cmpFloat(a, decimalToNumber(b));
  }
  if (typeof b === "bigint") return compareScaled(scaledOf(a), { unscaled: b, scale: 0 });
  if (typeof b === "number") return cmpFloat(decimalToNumber(a), b);
  return compareScaled(scaledOf(a), scaledOf(b));
}

function keyRank(k: RecordIdKey): number {
  if (typeof k === "bigint") return 0;
  if (typeof k === "string") return 1;
  if (k instanceof Uuid) return 2;
  if (Array.isArray(k)) return 3;
  if (k instanceof RecordIdRange) return 5;
  return 4;
}

function compareKeys(a: RecordIdKey, b: RecordIdKey, opts?: CompatOpts): number {
  const ra = keyRank(a);
  const rb = keyRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (a instanceof RecordIdRange || b instanceof RecordIdRange) {
    return compareStrings(formatRecordId(new RecordId("", a), opts), formatRecordId(new RecordId("", b), opts));
  }
  return compareValues(a as Value, b as Value, opts);
}

/** SurrealDB's total order over all values: -1, 0 or 1. */
export function compareValues(a: Value, b: Value, opts?: CompatOpts): number {
  // one value shared in both (a DAG of sub-values) is equal without a walk
  if (a === b) return 0;
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
    case 1:
      return 0;
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3:
      return compareNumbers(a as bigint | number | Decimal, b as bigint | number | Decimal, opts);
    case 4:
      return sign(compareStrings(a as string, b as string));
    case 5:
      return cmpBig((a as Duration).nanos, (b as Duration).nanos);
    case 6:
      return cmpBig((a as Datetime).nanos, (b as Datetime).nanos);
    case 7:
      return sign(compareStrings((a as Uuid).text, (b as Uuid).text));
    case 8: {
      const x = a as Value[];
      const y = b as Value[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(x[i], y[i], opts);
        if (c !== 0) return c;
      }
      return cmpBig(BigInt(x.length), BigInt(y.length));
    }
    case 9: {
      if (!isValueObject(a) || !isValueObject(b)) return 0;
      const ka = Object.keys(a).sort(compareStrings);
      const kb = Object.keys(b).sort(compareStrings);
      const n = Math.min(ka.length, kb.length);
      for (let i = 0; i < n; i++) {
        const c = sign(compareStrings(ka[i]!, kb[i]!));
        if (c !== 0) return c;
        const d = compareValues(a[ka[i]!], b[kb[i]!], opts);
        if (d !== 0) return d;
      }
      return cmpBig(BigInt(ka.length), BigInt(kb.length));
    }
    case 10:
      return sign(compareStrings(JSON.stringify(a), JSON.stringify(b)));
    case 11: {
      const x = a as Uint8Array;
      const y = b as Uint8Array;
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return cmpBig(BigInt(x.length), BigInt(y.length));
    }
    case 12: {
      const x = a as RecordId;
      const y = b as RecordId;
      const c = sign(compareStrings(x.table, y.table));
      return c !== 0 ? c : compareKeys(x.id, y.id, opts);
    }
    case 13:
      return sign(compareStrings((a as Table).name, (b as Table).name));
    case 14:
      return sign(compareStrings((a as Regex).source, (b as Regex).source));
    case 16:
      return sign(compareStrings((a as Closure).text, (b as Closure).text));
    default: {
      const x = a as Range;
      const y = b as Range;
      return compareBounds(x.begin, y.begin, -1, opts) || compareBounds(x.end, y.end, 1, opts);
    }
  }
}

/**
 * Two begins (side -1) or two ends (side 1) by the position they mark (as 2.6.0 orders `1..5 < 1..=5`, `..5 < 1..5`):
 * unbounded is outermost; at one value an excluded begin sits after an included one, an excluded end before.
 */
function compareBounds(a: Range["begin"], b: Range["begin"], side: 1 | -1, opts?: CompatOpts): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? side : -side;
  const c = compareValues(a.value, b.value, opts);
  if (c !== 0 || a.inclusive === b.inclusive) return c;
  return a.inclusive ? side : -side;
}

/**
 * `=`: numbers compare by value across int/float/decimal (1 = 1.0 = 1dec), recursively in arrays
 * and objects. 1.x also treats a string and a record id with the same text as equal.
 */
export function valueEquals(a: Value, b: Value, opts?: CompatOpts): boolean {
  // (1.x's `'user:ann' = user:ann` is true because the parse reads that literal as a record id; a computed string is not)
  return compareValues(a, b, opts) === 0;
}

/** `==`: SurrealDB's exact equality, which for every case we could observe matches `=`. */
export function valueExact(a: Value, b: Value, opts?: CompatOpts): boolean {
  return valueEquals(a, b, opts);
}

/**
 * A sorted copy in SurrealDB's order. Use this rather than `Array.prototype.sort`, which moves
 * `undefined` (NONE) to the end without consulting the comparator.
 */
export function sortValues(xs: readonly Value[], opts?: CompatOpts): Value[] {
  const boxed = xs.map((v) => ({ v }));
  boxed.sort((a, b) => compareValues(a.v, b.v, opts));
  return boxed.map((b) => b.v);
}
