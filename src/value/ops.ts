// Binary and unary operators with SurrealDB semantics (arithmetic, containment, comparison).
import type { BinaryOp } from "../ast/nodes.js";
import { QueryError, queryError } from "../errors/index.js";
import { compatOf, type CompatOpts } from "./compat.js";
import { compareValues, valueEquals, valueExact } from "./compare.js";
import { datetimeAddDuration, datetimeDiff, datetimeSubDuration } from "./datetime.js";
import {
  decimalAdd,
  decimalDiv,
  decimalFromBigint,
  decimalFromFloat,
  decimalMul,
  decimalNeg,
  decimalRem,
  decimalSub,
  decimalToNumber,
} from "./decimal.js";
import { toRawString, toSql } from "./display.js";
import { MAX_STRING_LENGTH } from "./size.js";
import { bucketKey, ValueSet } from "./value-set.js";
import { DURATION_MAX, addDurations, subDurations } from "./duration.js";
import { Datetime, Decimal, Duration, isValueObject, Range, Regex, type Value } from "./types.js";
import { regexMatches } from "./regex.js";
import { rangeHas } from "./range.js";

export type OpOpts = CompatOpts;

const I64_MAX = 9223372036854775807n;
const I64_MIN = -9223372036854775808n;

type Num = bigint | number | Decimal;

function isNum(v: Value): v is Num {
  return typeof v === "bigint" || typeof v === "number" || v instanceof Decimal;
}

function fits(n: bigint): boolean {
  return n >= I64_MIN && n <= I64_MAX;
}

/** The longest string `+` builds (value/size.ts: the longest string a value holds). */
export { MAX_STRING_LENGTH };

/** An operand as SurrealDB's arithmetic errors print it: an overflow prints a decimal without its `dec` suffix. */
function operand(v: Value, overflow: boolean, opts?: CompatOpts): string {
  return overflow && v instanceof Decimal ? v.text : toRawString(v, opts);
}

function fail(code: "TryAdd" | "TrySub" | "TryMul" | "TryDiv" | "TryRem", a: Value, b: Value, opts?: CompatOpts, overflow = false): never {
  throw queryError(code, operand(a, overflow, opts), operand(b, overflow, opts));
}

function negativeResult(op: string, a: Value, b: Value, opts?: CompatOpts): never {
  throw queryError("ArithmeticNegativeOverflow", `${toSql(a, opts)} ${op} ${toSql(b, opts)}`);
}

/**
 * A datetime moved past SurrealDB's range (±262,142 years). 2.6.0 names the duration first whatever the order;
 * 1.5.4 answers the current time or panics, so compat 1 answers its overflow error instead (stricter).
 */
function outOfRange(op: "+" | "-", a: Value, b: Value, opts?: CompatOpts): never {
  if (compatOf(opts) === 1) fail(op === "+" ? "TryAdd" : "TrySub", a, b, opts);
  const [dt, dur] = a instanceof Datetime ? [a, b] : [b, a];
  const text = `${toSql(dur, opts)} ${op} ${toSql(dt, opts)}`;
  throw queryError(op === "+" ? "ArithmeticOverflow" : "ArithmeticNegativeOverflow", text);
}

/** A duration sum past the maximum: 1.x saturates, 2.x reports the overflow. */
function durationOverflow(a: Duration, b: Duration, opts?: CompatOpts): Duration {
  if (compatOf(opts) === 1) return DURATION_MAX;
  throw queryError("ArithmeticOverflow", `${toSql(a, opts)} + ${toSql(b, opts)}`);
}

function toDecimal(n: Num): Decimal | undefined {
  if (n instanceof Decimal) return n;
  if (typeof n === "bigint") return decimalFromBigint(n);
  return decimalFromFloat(n);
}

/** Numeric promotion: int op int stays int, any decimal makes decimal, else float. */
function numeric(
  a: Num,
  b: Num,
  int: (x: bigint, y: bigint) => Value | undefined,
  float: (x: number, y: number) => number,
  dec: (x: Decimal, y: Decimal) => Value | undefined,
): Value | undefined {
  if (typeof a === "bigint" && typeof b === "bigint") return int(a, b);
  if (a instanceof Decimal || b instanceof Decimal) {
    const x = toDecimal(a);
    const y = toDecimal(b);
    if (x === undefined || y === undefined) return float(Number(a instanceof Decimal ? decimalToNumber(a) : a), Number(b instanceof Decimal ? decimalToNumber(b) : b));
    return dec(x, y);
  }
  return float(Number(a), Number(b));
}

const checked = (n: bigint): bigint | undefined => (fits(n) ? n : undefined);

export function add(a: Value, b: Value, opts?: OpOpts): Value {
  if (isNum(a) && isNum(b)) {
    const r = numeric(a, b, (x, y) => checked(x + y), (x, y) => x + y, decimalAdd);
    return r === undefined ? fail("TryAdd", a, b, opts, true) : r;
  }
  if (typeof a === "string" && typeof b === "string") {
    // a doubling loop (`$acc + $acc`) would otherwise exhaust the process's memory (attack re-check R10; stricter than SurrealDB)
    if (a.length + b.length > MAX_STRING_LENGTH) throw queryError("StringTooLong", MAX_STRING_LENGTH);
    return a + b;
  }
  if (a instanceof Duration && b instanceof Duration) return addDurations(a, b) ?? durationOverflow(a, b, opts);
  if (a instanceof Datetime && b instanceof Duration) return datetimeAddDuration(a, b) ?? outOfRange("+", a, b, opts);
  if (a instanceof Duration && b instanceof Datetime) return datetimeAddDuration(b, a) ?? outOfRange("+", a, b, opts);
  return fail("TryAdd", a, b, opts);
}

export function sub(a: Value, b: Value, opts?: OpOpts): Value {
  const compat = compatOf(opts);
  if (isNum(a) && isNum(b)) {
    const r = numeric(a, b, (x, y) => checked(x - y), (x, y) => x - y, decimalSub);
    return r === undefined ? fail("TrySub", a, b, opts, true) : r;
  }
  if (a instanceof Duration && b instanceof Duration) {
    const r = subDurations(a, b);
    if (r !== undefined) return r;
    return compat === 1 ? new Duration(0n) : negativeResult("-", a, b, opts);
  }
  if (a instanceof Datetime && b instanceof Duration) return datetimeSubDuration(a, b) ?? outOfRange("-", a, b, opts);
  if (a instanceof Datetime && b instanceof Datetime) {
    if (a.nanos >= b.nanos) return datetimeDiff(a, b);
    return compat === 1 ? new Duration(0n) : negativeResult("-", a, b, opts);
  }
  return fail("TrySub", a, b, opts);
}

export function mul(a: Value, b: Value, opts?: OpOpts): Value {
  if (isNum(a) && isNum(b)) {
    const r = numeric(a, b, (x, y) => checked(x * y), (x, y) => x * y, decimalMul);
    return r === undefined ? fail("TryMul", a, b, opts, true) : r;
  }
  return fail("TryMul", a, b, opts);
}

/**
 * `/`: int / int truncates toward zero. Division by zero and unsupported operands fail in 1.x;
 * 2.x answers NaN instead.
 */
export function div(a: Value, b: Value, opts?: OpOpts): Value {
  const compat = compatOf(opts);
  const bad = (): Value => (compat === 1 ? fail("TryDiv", a, b, opts) : NaN);
  if (isNum(a) && isNum(b)) {
    const r = numeric(
      a,
      b,
      (x, y) => (y === 0n ? undefined : checked(x / y)),
      (x, y) => x / y,
      decimalDiv,
    );
    return r === undefined ? bad() : r;
  }
  return bad();
}

/** `%`: sign of the dividend; an int or decimal remainder by zero fails in both versions. */
export function rem(a: Value, b: Value, opts?: OpOpts): Value {
  if (isNum(a) && isNum(b)) {
    const r = numeric(
      a,
      b,
      (x, y) => (y === 0n ? undefined : checked(x % y)),
      (x, y) => x % y,
      decimalRem,
    );
    return r === undefined ? fail("TryRem", a, b, opts) : r;
  }
  return fail("TryRem", a, b, opts);
}

function powFail(a: Value, b: Value, opts?: CompatOpts, overflow = false): never {
  throw queryError("TryPow", operand(a, overflow, opts), operand(b, overflow, opts));
}

/** `**`: int ** non-negative int stays int (overflow fails); decimal ** int stays decimal; else float. */
export function pow(a: Value, b: Value, opts?: OpOpts): Value {
  if (!isNum(a) || !isNum(b)) return powFail(a, b, opts);
  if (typeof a === "bigint" && typeof b === "bigint") {
    if (b < 0n) return powFail(a, b, opts);
    let r = 1n;
    for (let i = 0n; i < b; i++) {
      r *= a;
      if (!fits(r)) return powFail(a, b, opts);
      if (r === 0n || r === 1n) break;
      if (r === -1n) return b % 2n === 0n ? 1n : -1n;
    }
    return r;
  }
  if (a instanceof Decimal && typeof b === "bigint" && b >= 0n && b <= 1000n) {
    let r: Decimal | undefined = new Decimal("1");
    for (let i = 0n; i < b && r !== undefined; i++) r = decimalMul(r, a);
    return r ?? powFail(a, b, opts, true);
  }
  const x = a instanceof Decimal ? decimalToNumber(a) : Number(a);
  const y = b instanceof Decimal ? decimalToNumber(b) : Number(b);
  const r = Math.pow(x, y);
  if (a instanceof Decimal) return decimalFromFloat(r) ?? r;
  return r;
}

export function neg(a: Value, opts?: OpOpts): Value {
  if (typeof a === "bigint") {
    if (a === I64_MIN) throw queryError("TryNeg", toSql(a, opts));
    return -a;
  }
  if (typeof a === "number") return -a;
  if (a instanceof Decimal) return decimalNeg(a);
  throw queryError("TryNeg", toSql(a, opts));
}

/** `=` itself: value equality, and a regex on either side matches a string on the other (only at the top: `[/a/] = ["a"]` is false). */
export function looseEquals(a: Value, b: Value, opts?: OpOpts): boolean {
  if (a instanceof Regex && typeof b === "string") return regexMatches(a, b);
  if (b instanceof Regex && typeof a === "string") return regexMatches(b, a);
  return valueEquals(a, b, opts);
}

/** `CONTAINS`: array membership (by `=`), substring, and in 2.x an object's key. */
export function contains(a: Value, b: Value, opts?: OpOpts): boolean {
  if (a instanceof Range) return rangeHas(a, b, opts);
  if (Array.isArray(a)) return a.some((x) => looseEquals(x, b, opts));
  if (typeof a === "string") return typeof b === "string" && a.includes(b);
  if (compatOf(opts) === 2 && isValueObject(a)) return typeof b === "string" && Object.prototype.hasOwnProperty.call(a, b);
  return false;
}

/** `IN` / `INSIDE`. */
export function inside(a: Value, b: Value, opts?: OpOpts): boolean {
  return contains(b, a, opts);
}

/** Whether `a` can hold items of `b` for the *ALL / *ANY operators (strings only in 2.x). */
function holder(a: Value, opts?: OpOpts): boolean {
  return Array.isArray(a) || (compatOf(opts) === 2 && typeof a === "string");
}

/**
 * `contains(a, ·)` for each item of `b`: an array `a` is hashed once when both are long, so `a CONTAINSANY b` costs about
 * |a| + |b|, not |a| · |b| comparisons (two 20,000-element arrays took 16 s without yielding).
 */
function containedIn(a: Value, b: Value[], opts?: OpOpts): (x: Value) => boolean {
  if (!Array.isArray(a) || a.length < 16 || b.length < 2) return (x) => contains(a, x, opts);
  const set = new ValueSet((x, y) => valueEquals(x, y, opts), a, bucketKey);
  return (x) => set.has(x);
}

export function containsAll(a: Value, b: Value, opts?: OpOpts): boolean {
  if (!holder(a, opts)) return false;
  if (Array.isArray(b)) return b.every(containedIn(a, b, opts));
  return typeof a === "string" && contains(a, b, opts);
}

export function containsAny(a: Value, b: Value, opts?: OpOpts): boolean {
  if (!holder(a, opts)) return false;
  if (Array.isArray(b)) return b.some(containedIn(a, b, opts));
  return typeof a === "string" && contains(a, b, opts);
}

export function containsNone(a: Value, b: Value, opts?: OpOpts): boolean {
  if (Array.isArray(b)) return !b.some(containedIn(a, b, opts));
  return !contains(a, b, opts);
}

export function allInside(a: Value, b: Value, opts?: OpOpts): boolean {
  return containsAll(b, a, opts);
}

export function anyInside(a: Value, b: Value, opts?: OpOpts): boolean {
  return containsAny(b, a, opts);
}

export function noneInside(a: Value, b: Value, opts?: OpOpts): boolean {
  return containsNone(b, a, opts);
}

/**
 * `~`: case-insensitive fuzzy match — every character of `b` appears in `a`, in order.
 * A non-string left side falls back to `=`; a string against a non-string is false.
 */
export function fuzzyMatch(a: Value, b: Value, opts?: OpOpts): boolean {
  if (typeof a !== "string") return looseEquals(a, b, opts);
  if (typeof b !== "string") return false;
  const hay = a.toLowerCase();
  let i = 0;
  for (const c of b.toLowerCase()) {
    i = hay.indexOf(c, i);
    if (i < 0) return false;
    i += c.length;
  }
  return true;
}

/** 1.x: `<`, `<=`, `>`, `>=` are true whenever either side is NONE or NULL (`NONE > 0` and `NONE < 0` alike; not inside arrays). */
function nullishOrdered(a: Value, b: Value, opts?: OpOpts): boolean {
  return compatOf(opts) === 1 && (a === undefined || a === null || b === undefined || b === null);
}

/** Every BinaryOp except the short-circuit ones (`||`, `&&`, `??`, `?:`), which the evaluator handles. */
export function applyBinary(op: BinaryOp, a: Value, b: Value, opts?: OpOpts): Value {
  switch (op) {
    case "=":
      return looseEquals(a, b, opts);
    case "==":
      return valueExact(a, b, opts);
    case "!=":
      return !looseEquals(a, b, opts);
    // the any/all forms fall back to the plain operator on a non-array left side
    case "?=":
      return Array.isArray(a) ? a.some((x) => looseEquals(x, b, opts)) : looseEquals(a, b, opts);
    case "*=":
      return Array.isArray(a) ? a.every((x) => looseEquals(x, b, opts)) : looseEquals(a, b, opts);
    case "~":
      return fuzzyMatch(a, b, opts);
    case "!~":
      return !fuzzyMatch(a, b, opts);
    case "?~":
      return Array.isArray(a) ? a.some((x) => fuzzyMatch(x, b, opts)) : fuzzyMatch(a, b, opts);
    case "*~":
      return Array.isArray(a) ? a.every((x) => fuzzyMatch(x, b, opts)) : fuzzyMatch(a, b, opts);
    case "<":
      return nullishOrdered(a, b, opts) || compareValues(a, b, opts) < 0;
    case "<=":
      return nullishOrdered(a, b, opts) || compareValues(a, b, opts) <= 0;
    case ">":
      return nullishOrdered(a, b, opts) || compareValues(a, b, opts) > 0;
    case ">=":
      return nullishOrdered(a, b, opts) || compareValues(a, b, opts) >= 0;
    case "+":
      return add(a, b, opts);
    case "-":
      return sub(a, b, opts);
    case "*":
      return mul(a, b, opts);
    case "/":
      return div(a, b, opts);
    case "%":
      return rem(a, b, opts);
    case "**":
      return pow(a, b, opts);
    case "CONTAINS":
      return contains(a, b, opts);
    case "CONTAINSNOT":
      return !contains(a, b, opts);
    case "CONTAINSALL":
      return containsAll(a, b, opts);
    case "CONTAINSANY":
      return containsAny(a, b, opts);
    case "CONTAINSNONE":
      return containsNone(a, b, opts);
    case "INSIDE":
      return inside(a, b, opts);
    case "NOTINSIDE":
      return !inside(a, b, opts);
    case "ALLINSIDE":
      return allInside(a, b, opts);
    case "ANYINSIDE":
      return anyInside(a, b, opts);
    case "NONEINSIDE":
      return noneInside(a, b, opts);
    // geometry relations are not modelled; outside non-geometries behaves as NOT INSIDE
    case "OUTSIDE":
      return !inside(a, b, opts);
    case "INTERSECTS":
      return false;
    case "||":
    case "&&":
    case "??":
    case "?:":
    case "MATCHES":
      throw new QueryError("Unreachable", `Operator ${op} is evaluated by the executor, not applyBinary`);
  }
}
