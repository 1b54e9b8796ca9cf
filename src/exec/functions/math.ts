// math:: builtins over SurrealDB numbers (int = bigint with i64 semantics, float = number, decimal = Decimal text).

import { queryError } from "../../errors/index.js";
import { decimalFromFloat, decimalFromText, scaledOf } from "../../value/decimal.js";
import { add as addOp, mul as mulOp, pow as powOp, sub as subOp } from "../../value/ops.js";
import { Decimal, type Value } from "../../value/types.js";
import { formatFloat } from "./display.js";
import { incorrectArguments, wrongType, fn, type BuiltinTable } from "./registry.js";
import { maxOf, minOf } from "./array.js";
import { compareValues } from "./util.js";

type Num = bigint | number | Decimal;

const wrap = (n: bigint): bigint => BigInt.asIntN(64, n);
const toF = (n: Num): number => (n instanceof Decimal ? Number(n.text) : Number(n));
/** A float result as a decimal where one holds it (rust_decimal's range), else the float: never a decimal an export cannot print back. */
const dec = (x: number): Num => decimalFromFloat(x === 0 ? 0 : x) ?? x;

/** Round half away from zero (Rust f64::round). */
const roundAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x)) || x * 0;

/** Apply `f` keeping the kind: ints unchanged, floats as floats, decimals as decimals. */
function mapKind(n: Num, f: (x: number) => number): Num {
  if (typeof n === "bigint") return n;
  if (n instanceof Decimal) return dec(f(Number(n.text)));
  return f(n);
}

/** Elements of a numeric array, or SurrealDB's "array<number>" argument error. */
function numbers(name: string, a: Value): Num[] {
  for (const v of a as Value[]) {
    if (!(typeof v === "bigint" || typeof v === "number" || v instanceof Decimal)) throw wrongType(name, 0, "array<number>", v);
  }
  return a as Num[];
}

/**
 * SurrealDB number arithmetic in sums and products: int with int wraps as i64; otherwise the operators' own rules
 * (floats win over ints, decimals over both, exactly and within rust_decimal's range: past it, the operator's error
 * where SurrealDB 2.6.0 panics).
 */
function add(a: Num, b: Num): Num {
  return typeof a === "bigint" && typeof b === "bigint" ? wrap(a + b) : (addOp(a, b) as Num);
}

function mul(a: Num, b: Num): Num {
  return typeof a === "bigint" && typeof b === "bigint" ? wrap(a * b) : (mulOp(a, b) as Num);
}

function median(ns: Num[]): Value {
  if (ns.length === 0) return undefined;
  const s = ns.map(toF).sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function fixed(v: Num, places: bigint): Num {
  if (places <= 0n) throw incorrectArguments("math::fixed", "The second argument must be an integer greater than 0.");
  if (typeof v === "bigint") return v;
  const p = Number(places > 100n ? 100n : places);
  // rust_decimal's round_dp: a decimal with no more places than asked stays as it is (never padded)
  if (v instanceof Decimal) return scaledOf(v).scale <= p ? v : (decimalFromText(Number(v.text).toFixed(p)) ?? v);
  return Number.isFinite(v) ? Number(v.toFixed(p)) : v;
}

/** Sorted copy as floats. */
const sortedFloats = (ns: Num[]): number[] => ns.map(toF).sort((x, y) => x - y);

/** Linear-interpolated percentile over (n − 1), as SurrealDB computes it. */
// SurrealDB's statistics of an empty array are NaN (median, min and max: NONE)
function percentile(ns: Num[], p: number): number {
  if (ns.length === 0) return NaN;
  const s = sortedFloats(ns);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo]! + (s[hi]! - s[lo]!) * (rank - lo);
}

/** Sample variance (n − 1); 0 for one element. */
function variance(ns: Num[]): number {
  if (ns.length === 0) return NaN;
  if (ns.length === 1) return 0;
  const xs = ns.map(toF);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
}

function sub(a: Num, b: Num): Num {
  return typeof a === "bigint" && typeof b === "bigint" ? wrap(a - b) : (subOp(a, b) as Num);
}

/** Rust's std BinaryHeap (a max-heap by `cmp`): its push and pop, so the vector keeps std's element order. */
class StdHeap<T> {
  readonly items: T[] = [];
  constructor(private readonly cmp: (a: T, b: T) => number) {}
  push(x: T): void {
    this.items.push(x);
    this.siftUp(0, this.items.length - 1);
  }
  pop(): void {
    const last = this.items.pop() as T;
    if (this.items.length === 0) return;
    this.items[0] = last;
    this.siftDownToBottom();
  }
  private siftUp(start: number, pos: number): void {
    const h = this.items;
    const el = h[pos]!;
    while (pos > start) {
      const parent = (pos - 1) >> 1;
      if (this.cmp(el, h[parent]!) <= 0) break;
      h[pos] = h[parent]!;
      pos = parent;
    }
    h[pos] = el;
  }
  /** std's pop: the hole goes to the bottom along the greater children, then the element sifts back up. */
  private siftDownToBottom(): void {
    const h = this.items;
    const end = h.length;
    const el = h[0]!;
    let pos = 0;
    let child = 1;
    while (child + 1 < end) {
      if (this.cmp(h[child]!, h[child + 1]!) <= 0) child++;
      h[pos] = h[child]!;
      pos = child;
      child = 2 * pos + 1;
    }
    if (child === end - 1) {
      h[pos] = h[child]!;
      pos = child;
    }
    h[pos] = el;
    this.siftUp(0, pos);
  }
}

/** The k largest (top) or smallest (bottom), in the order SurrealDB's heap holds them (a heap of k, popped past k). */
function extremes(name: string, ns: Num[], k: bigint, top: boolean, compat: 1 | 2): Num[] {
  if (k <= 0n) throw incorrectArguments(name, "The second argument must be an integer greater than 0.");
  const heap = new StdHeap<Num>((x, y) => compareValues(x, y, compat) * (top ? -1 : 1));
  for (const [i, n] of ns.entries()) {
    heap.push(n);
    if (BigInt(i) >= k) heap.pop();
  }
  return heap.items;
}

const trig = (f: (x: number) => number) => fn(["number"], ([n]) => f(toF(n as Num)), { compat: 2 });

export const mathFunctions: BuiltinTable = {
  "math::abs": fn(["number"], ([n], ctx) => {
    if (typeof n === "bigint") {
      if (n === -(2n ** 63n)) {
        if (ctx.compat === 1) return n;
        throw queryError("ArithmeticOverflow", `math::abs(${n})`);
      }
      return n < 0n ? -n : n;
    }
    return mapKind(n as Num, Math.abs);
  }),
  "math::ceil": fn(["number"], ([n]) => mapKind(n as Num, Math.ceil)),
  "math::floor": fn(["number"], ([n]) => mapKind(n as Num, Math.floor)),
  "math::round": fn(["number"], ([n]) => mapKind(n as Num, roundAway)),
  "math::fixed": fn(["number", "i64"], ([n, p]) => fixed(n as Num, p as bigint)),
  "math::max": fn(["array"], ([a]) => maxOf(numbers("math::max", a))),
  "math::min": fn(["array"], ([a]) => minOf(numbers("math::min", a))),
  "math::sum": fn(["array"], ([a]) => numbers("math::sum", a).reduce<Num>((s, n) => add(s, n), 0n)),
  "math::product": fn(["array"], ([a]) => numbers("math::product", a).reduce<Num>((s, n) => mul(s, n), 1n)),
  "math::mean": fn(["array"], ([a]) => {
    const ns = numbers("math::mean", a);
    return ns.length === 0 ? NaN : ns.reduce<number>((s, n) => s + toF(n), 0) / ns.length;
  }),
  "math::median": fn(["array"], ([a]) => median(numbers("math::median", a))),
  "math::sqrt": fn(["number"], ([n]) => {
    const x = toF(n as Num);
    if (x < 0) return undefined;
    return n instanceof Decimal ? dec(Math.sqrt(x)) : Math.sqrt(x);
  }),
  "math::pow": fn(["number", "number"], ([a, b]) => powOp(a, b)),
  "math::spread": fn(["array"], ([a], ctx) => {
    const ns = numbers("math::spread", a);
    return ns.length === 0 ? NaN : sub(maxOf(ns, ctx.compat) as Num, minOf(ns, ctx.compat) as Num);
  }),
  "math::variance": fn(["array"], ([a]) => variance(numbers("math::variance", a))),
  "math::stddev": fn(["array"], ([a]) => {
    return Math.sqrt(variance(numbers("math::stddev", a)));
  }),
  "math::mode": fn(["array"], ([a], ctx) => {
    const ns = numbers("math::mode", a);
    if (ns.length === 0) return NaN;
    // Most frequent value; among ties the largest.
    const s = [...ns].sort((x, y) => compareValues(x, y, ctx.compat));
    let best = s[0]!;
    let bestCount = 0;
    for (let i = 0; i < s.length; ) {
      let j = i;
      while (j < s.length && compareValues(s[j]!, s[i]!, ctx.compat) === 0) j++;
      if (j - i >= bestCount) {
        best = s[j - 1]!;
        bestCount = j - i;
      }
      i = j;
    }
    return best;
  }),
  "math::bottom": fn(["array", "i64"], ([a, k], ctx) => extremes("math::bottom", numbers("math::bottom", a), k as bigint, false, ctx.compat)),
  "math::top": fn(["array", "i64"], ([a, k], ctx) => extremes("math::top", numbers("math::top", a), k as bigint, true, ctx.compat)),
  "math::percentile": fn(["array", "number"], ([a, p]) => percentile(numbers("math::percentile", a), toF(p as Num))),
  "math::nearestrank": fn(["array", "number"], ([a, p], ctx) => {
    const ns = numbers("math::nearestrank", a);
    if (ns.length === 0) return NaN;
    const s = [...ns].sort((x, y) => compareValues(x, y, ctx.compat));
    const i = Math.min(Math.max(Math.round((toF(p as Num) / 100) * s.length), 0), s.length - 1);
    return s[i];
  }),
  "math::interquartile": fn(["array"], ([a]) => {
    const ns = numbers("math::interquartile", a);
    return percentile(ns, 75) - percentile(ns, 25);
  }),
  "math::midhinge": fn(["array"], ([a]) => {
    const ns = numbers("math::midhinge", a);
    return (percentile(ns, 75) + percentile(ns, 25)) / 2;
  }),
  "math::trimean": fn(["array"], ([a]) => {
    const ns = numbers("math::trimean", a);
    return (percentile(ns, 25) + 2 * percentile(ns, 50) + percentile(ns, 75)) / 4;
  }),
  // SurrealDB 2 additions.
  "math::sign": fn(["number"], ([n]) => {
    const x = n as Num;
    if (typeof x === "bigint") return x > 0n ? 1n : x < 0n ? -1n : 0n;
    const s = Math.sign(toF(x));
    return x instanceof Decimal ? dec(s) : s;
  }, { compat: 2 }),
  "math::clamp": fn(["number", "number", "number"], ([n, lo, hi], ctx) => {
    // SurrealDB's words, typo included
    if (compareValues(lo, hi, ctx.compat) > 0) throw incorrectArguments("math::clamp", "Lowerbound for clamp must be smaller the the upperbound");
    if (compareValues(n, lo, ctx.compat) < 0) return lo;
    if (compareValues(n, hi, ctx.compat) > 0) return hi;
    return n;
  }, { compat: 2 }),
  // from `a` by the share `t` of the unsigned shortest turn towards `b` (SurrealDB 2.6's reading, checked with the oracle)
  "math::lerpangle": fn(["number", "number", "number"], ([a, b, t]) => {
    const from = toF(a as Num);
    const d = (toF(b as Num) - from) % 360;
    const x = from + Math.abs(((2 * d) % 360) - d) * toF(t as Num);
    return a instanceof Decimal ? dec(x) : x;
  }, { compat: 2 }),
  "math::lerp": fn(["number", "number", "number"], ([a, b, t]) => toF(a as Num) + (toF(b as Num) - toF(a as Num)) * toF(t as Num), { compat: 2 }),
  "math::deg2rad": trig((x) => (x * Math.PI) / 180),
  "math::rad2deg": trig((x) => (x * 180) / Math.PI),
  "math::cos": trig(Math.cos),
  "math::sin": trig(Math.sin),
  "math::tan": trig(Math.tan),
  "math::acos": trig(Math.acos),
  "math::asin": trig(Math.asin),
  "math::atan": trig(Math.atan),
  "math::cot": trig((x) => 1 / Math.tan(x)),
  "math::acot": trig((x) => Math.atan(1 / x)),
  "math::log": fn(["number", "number"], ([n, b]) => Math.log(toF(n as Num)) / Math.log(toF(b as Num)), { compat: 2 }),
  "math::ln": fn(["number"], ([n]) => Math.log(toF(n as Num)), { compat: 2 }),
  "math::log10": fn(["number"], ([n]) => Math.log10(toF(n as Num)), { compat: 2 }),
  "math::log2": fn(["number"], ([n]) => Math.log2(toF(n as Num)), { compat: 2 }),
};
