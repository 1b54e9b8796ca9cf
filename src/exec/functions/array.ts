// array:: builtins; closures (v2 map/filter/find/fold/any/all) are called back through ctx.invoke.

import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { ALLOCATION_LIMIT } from "./string.js";
import type { FunctionContext } from "./context.js";
import { asRawString, compareValues, isTruthy, valueEquals } from "./util.js";
import { checkStringLength } from "../../value/size.js";
import type { Value } from "../../value/types.js";
import { I64_MAX } from "../../value/int.js";
import { shuffleInPlace } from "../random.js";
import anyAscii from "any-ascii";
import { ValueSet } from "../../value/value-set.js";

const arr = (v: Value): Value[] => v as Value[];
const int = (v: Value): number => Number(v as bigint);
const equals = (a: Value, b: Value): boolean => valueEquals(a, b);
/** The elements of `a` that `b` has (`keep`) or has not, in `a`'s order. */
const filterBy = (a: Value[], b: Value[], keep: boolean): Value[] => {
  const inB = new ValueSet(equals, b);
  return a.filter((x) => inB.has(x) === keep);
};

/** Exact equality (kind-sensitive): 1 and 1.0 stay distinct, as in array::distinct. */
const exactEquals = (a: Value, b: Value): boolean => typeof a === typeof b && valueEquals(a, b);

function distinct(a: Value[]): Value[] {
  const seen = new ValueSet(exactEquals);
  return a.filter((v) => seen.add(v));
}

function flatten(a: Value[], name = "array::flatten"): Value[] {
  checkLength(name, a.reduce((n: number, v) => n + (Array.isArray(v) ? v.length : 1), 0));
  return a.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** Rust's Iterator::max (last of equal maxima) / min (first of equal minima). */
export function maxOf(a: Value[], compat: 1 | 2 = 2): Value {
  let best: Value = undefined;
  a.forEach((v, i) => {
    if (i === 0 || compareValues(v, best, compat) >= 0) best = v;
  });
  return best;
}

export function minOf(a: Value[], compat: 1 | 2 = 2): Value {
  let best: Value = undefined;
  a.forEach((v, i) => {
    if (i === 0 || compareValues(v, best, compat) < 0) best = v;
  });
  return best;
}

/** Index from a possibly negative position; undefined when out of range. */
function position(len: number, i: number): number | undefined {
  const p = i < 0 ? len + i : i;
  return p >= 0 && p < len ? p : undefined;
}

function slice(a: Value[], args: Value[]): Value[] {
  const len = a.length;
  let start = 0;
  if (args.length >= 2) {
    const b = int(args[1]);
    start = b < 0 ? Math.max(len + b, 0) : Math.min(b, len);
  }
  if (args.length < 3) return a.slice(start);
  const l = int(args[2]);
  const end = l < 0 ? Math.max(len + l, start) : Math.min(start + l, len);
  return a.slice(start, end);
}

/** Stable sort that also orders NONE (JS's sort would move `undefined` to the end untouched). */
function sorted(a: Value[], desc: boolean, compat: 1 | 2, cmp = (x: Value, y: Value) => compareValues(x, y, compat)): Value[] {
  return a
    .map((v) => ({ v }))
    .sort((x, y) => (desc ? cmp(y.v, x.v) : cmp(x.v, y.v)))
    .map((w) => w.v);
}

/** sort_lexical's order: strings by their ASCII-folded lower case (`a` < `á` < `a10` < `B` < `b`), ties by code points. */
function lexical(compat: 1 | 2): (x: Value, y: Value) => number {
  const fold = (s: string): string => anyAscii(s).toLowerCase();
  return (x, y) => {
    if (typeof x !== "string" || typeof y !== "string") return compareValues(x, y, compat);
    const a = fold(x), b = fold(y);
    return a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0;
  };
}

function sortDescending(arg: Value): boolean {
  return arg === false || arg === "desc";
}

/** Element-wise combination of two arrays padded with NONE (boolean_* / logical_*). */
function zipWith(a: Value[], b: Value[], f: (x: Value, y: Value) => Value): Value[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => f(a[i], b[i]));
}

/**
 * One element of array::logical_*: the operand whose truthiness is the result's (the left one first), else the
 * result as a bool (only `xor` of two truthy values) — SurrealDB 1.5.4 and 2.6.0.
 */
function logical(op: (x: boolean, y: boolean) => boolean, compat: 1 | 2): (x: Value, y: Value) => Value {
  return (x, y) => {
    const [tx, ty] = [isTruthy(x, compat), isTruthy(y, compat)];
    const truth = op(tx, ty);
    return tx === truth ? x : ty === truth ? y : truth;
  };
}

/** Call a closure, or compare against a plain value (v2 `array::filter([…], 2)`). */
async function matcher(ctx: FunctionContext, f: Value, v: Value, i: number): Promise<boolean> {
  if (ctx.isClosure?.(f) && ctx.invoke) return isTruthy(await ctx.invoke(f, [v, BigInt(i)]), ctx.compat);
  return valueEquals(v, f, ctx.compat);
}

function checkLength(name: string, n: number): void {
  if (n * 8 > ALLOCATION_LIMIT) throw incorrectArguments(name, `Output must not exceed ${ALLOCATION_LIMIT} bytes.`);
}

export const arrayFunctions: BuiltinTable = {
  "array::add": fn(["array", "any"], ([a, v]) => {
    const out = [...arr(a)];
    const seen = new ValueSet(equals, out);
    for (const x of Array.isArray(v) ? v : [v]) if (seen.add(x)) out.push(x);
    return out;
  }),
  "array::all": fn(["array", "any?"], async (args, ctx) => {
    const a = arr(args[0]);
    if (args.length === 1) return a.every((x) => isTruthy(x, ctx.compat));
    for (let i = 0; i < a.length; i++) if (!(await matcher(ctx, args[1], a[i], i))) return false;
    return true;
  }, { v1: fn(["array"], ([a]) => arr(a).every((x) => isTruthy(x, 1))) }),
  "array::any": fn(["array", "any?"], async (args, ctx) => {
    const a = arr(args[0]);
    if (args.length === 1) return a.some((x) => isTruthy(x, ctx.compat));
    for (let i = 0; i < a.length; i++) if (await matcher(ctx, args[1], a[i], i)) return true;
    return false;
  }, { v1: fn(["array"], ([a]) => arr(a).some((x) => isTruthy(x, 1))) }),
  "array::append": fn(["array", "any"], ([a, v]) => [...arr(a), v]),
  "array::at": fn(["array", "i64"], ([a, i]) => {
    const p = position(arr(a).length, int(i));
    return p === undefined ? undefined : arr(a)[p];
  }),
  "array::boolean_and": fn(["array", "array"], ([a, b]) => zipWith(arr(a), arr(b), (x, y) => isTruthy(x) && isTruthy(y))),
  "array::boolean_or": fn(["array", "array"], ([a, b]) => zipWith(arr(a), arr(b), (x, y) => isTruthy(x) || isTruthy(y))),
  "array::boolean_xor": fn(["array", "array"], ([a, b]) => zipWith(arr(a), arr(b), (x, y) => isTruthy(x) !== isTruthy(y))),
  "array::boolean_not": fn(["array"], ([a]) => arr(a).map((x) => !isTruthy(x))),
  "array::clump": fn(["array", "i64"], ([a, n]) => {
    const size = int(n);
    if (size < 1) throw incorrectArguments("array::clump", "The second argument must be an integer greater than 0");
    const out: Value[] = [];
    for (let i = 0; i < arr(a).length; i += size) out.push(arr(a).slice(i, i + size));
    return out;
  }),
  "array::combine": fn(["array", "array"], ([a, b]) => {
    checkLength("array::combine", arr(a).length * arr(b).length);
    return arr(a).flatMap((x) => arr(b).map((y) => [x, y]));
  }),
  "array::complement": fn(["array", "array"], ([a, b]) => filterBy(arr(a), arr(b), false)),
  "array::concat": fn(["...array"], (args) => {
    if (args.length === 0) throw incorrectArguments("array::concat", "Expected at least one argument");
    checkLength("array::concat", args.reduce((n: number, a) => n + arr(a).length, 0));
    return args.flatMap((a) => arr(a));
  }),
  "array::difference": fn(["array", "array"], ([a, b]) => [...filterBy(arr(a), arr(b), false), ...filterBy(arr(b), arr(a), false)]),
  "array::distinct": fn(["array"], ([a]) => distinct(arr(a))),
  "array::filter_index": fn(["array", "any"], async ([a, v], ctx) => {
    const out: Value[] = [];
    for (const [i, x] of arr(a).entries()) if (await matcher(ctx, v, x, i)) out.push(BigInt(i));
    return out;
  }),
  "array::find_index": fn(["array", "any"], async ([a, v], ctx) => {
    for (const [i, x] of arr(a).entries()) if (await matcher(ctx, v, x, i)) return BigInt(i);
    return null;
  }),
  "array::first": fn(["array"], ([a]) => arr(a)[0]),
  "array::flatten": fn(["array"], ([a]) => flatten(arr(a))),
  "array::group": fn(["array"], ([a]) => distinct(flatten(arr(a), "array::group"))),
  "array::insert": fn(["array", "any", "i64?"], (args) => {
    const out = [...arr(args[0])];
    if (args.length < 3) return [...out, args[1]];
    const i = int(args[2]);
    const p = i < 0 ? out.length + i : i;
    if (p < 0 || p > out.length) return out;
    out.splice(p, 0, args[1]);
    return out;
  }),
  "array::intersect": fn(["array", "array"], ([a, b]) => {
    // each element of b matches at most once
    const rest = new ValueSet(equals, arr(b));
    return arr(a).filter((x) => rest.take(x));
  }),
  "array::join": fn(["array", "string"], ([a, sep], ctx) => {
    // the separator repeats once per element: the length is checked before the string is built (ours; SurrealDB has none)
    const parts = arr(a).map((x) => asRawString(x, ctx.compat));
    checkStringLength(parts.reduce((n, p) => n + p.length, 0) + Math.max(0, parts.length - 1) * (sep as string).length);
    return parts.join(sep as string);
  }),
  "array::last": fn(["array"], ([a]) => arr(a)[arr(a).length - 1]),
  "array::len": fn(["array"], ([a]) => BigInt(arr(a).length)),
  "array::logical_and": fn(["array", "array"], ([a, b], ctx) => zipWith(arr(a), arr(b), logical((x, y) => x && y, ctx.compat))),
  "array::logical_or": fn(["array", "array"], ([a, b], ctx) => zipWith(arr(a), arr(b), logical((x, y) => x || y, ctx.compat))),
  "array::logical_xor": fn(["array", "array"], ([a, b], ctx) => zipWith(arr(a), arr(b), logical((x, y) => x !== y, ctx.compat))),
  "array::matches": fn(["array", "any"], ([a, v]) => arr(a).map((x) => valueEquals(x, v))),
  "array::max": fn(["array"], ([a], ctx) => maxOf(arr(a), ctx.compat)),
  "array::min": fn(["array"], ([a], ctx) => minOf(arr(a), ctx.compat)),
  "array::pop": fn(["array"], ([a]) => arr(a)[arr(a).length - 1]),
  "array::prepend": fn(["array", "any"], ([a, v]) => [v, ...arr(a)]),
  "array::push": fn(["array", "any"], ([a, v]) => [...arr(a), v]),
  "array::remove": fn(["array", "i64"], ([a, i]) => {
    const p = position(arr(a).length, int(i));
    return p === undefined ? arr(a) : arr(a).filter((_, j) => j !== p);
  }),
  "array::reverse": fn(["array"], ([a]) => [...arr(a)].reverse()),
  "array::slice": fn(["array", "i64?", "i64?"], (args) => slice(arr(args[0]), args)),
  "array::sort": fn(["array", "any?"], (args, ctx) => sorted(arr(args[0]), args.length > 1 && sortDescending(args[1]), ctx.compat)),
  "array::sort::asc": fn(["array"], ([a], ctx) => sorted(arr(a), false, ctx.compat)),
  "array::sort::desc": fn(["array"], ([a], ctx) => sorted(arr(a), true, ctx.compat)),
  // short rows are padded with NONE in 2.x ([[1], [2, 3]] → [[1, 2], [NONE, 3]]), skipped in 1.x (→ [[1, 2], [3]])
  "array::transpose": fn(["array"], ([a], ctx) => {
    const rows = arr(a).map((r) => (Array.isArray(r) ? r : [r]));
    const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
    checkLength("array::transpose", width * rows.length);
    if (ctx.compat === 1) return Array.from({ length: width }, (_, i) => rows.flatMap((r) => (i < r.length ? [r[i]] : [])));
    return Array.from({ length: width }, (_, i) => rows.map((r) => r[i]));
  }),
  "array::union": fn(["array", "array"], ([a, b]) => {
    checkLength("array::union", arr(a).length + arr(b).length);
    return distinct([...arr(a), ...arr(b)]);
  }),

  // SurrealDB 2 additions.
  // the value over [start, end) (a negative start counts from the end; a range past the end changes nothing)
  "array::fill": fn(["array", "any", "i64?", "i64?"], ([a, v, start, end]) => {
    const out = [...arr(a)];
    const n = out.length;
    const at = (x: Value, dflt: number): number => {
      if (typeof x !== "bigint") return dflt;
      const i = Number(x);
      return Math.min(n, Math.max(0, i < 0 ? n + i : i));
    };
    const from = at(start, 0);
    const to = at(end, n);
    for (let i = from; i < to; i++) out[i] = v;
    return out;
  }, { compat: 2, arity: "2, 3 or 4 arguments" }),
  "array::sort_lexical": fn(["array", "any?"], (args, ctx) => sorted(arr(args[0]), args.length > 1 && sortDescending(args[1]), ctx.compat, lexical(ctx.compat)), { compat: 2 }),
  // In SurrealDB 2 array::includes is array::any under another name (array::includes([1]) is true).
  "array::includes": fn(["array", "any?"], async (args, ctx) => {
    const a = arr(args[0]);
    if (args.length === 1) return a.some((x) => isTruthy(x, ctx.compat));
    for (let i = 0; i < a.length; i++) if (await matcher(ctx, args[1], a[i], i)) return true;
    return false;
  }, { compat: 2 }),
  "array::is_empty": fn(["array"], ([a]) => arr(a).length === 0, { compat: 2 }),
  "array::windows": fn(["array", "i64"], ([a, n]) => {
    const size = int(n);
    if (size < 1) throw incorrectArguments("array::windows", "The second argument must be an integer greater than 0");
    checkLength("array::windows", Math.max(0, arr(a).length - size + 1) * size);
    const out: Value[] = [];
    for (let i = 0; i + size <= arr(a).length; i++) out.push(arr(a).slice(i, i + size));
    return out;
  }, { compat: 2 }),
  "array::range": fn(["i64", "i64"], ([s, n]) => {
    const [start, count] = [s as bigint, n as bigint];
    // SurrealDB's texts: a negative count is "argument 1", and the last element must stay within i64
    if (count < 0n) throw incorrectArguments("array::range", `Argument 1 was the wrong type. Expected a positive number but found ${count}`);
    if (count > 0n && start + count - 1n > I64_MAX) throw incorrectArguments("array::range", "The range overflowed the maximum value for an integer");
    checkLength("array::range", Number(count));
    return Array.from({ length: Number(count) }, (_, i) => start + BigInt(i));
  }, { compat: 2 }),
  "array::repeat": fn(["any", "u64"], ([v, n]) => {
    // a negative count reads as a huge u64, past the limit
    checkLength("array::repeat", n as bigint < 0n ? Infinity : int(n));
    return Array.from({ length: int(n) }, () => v);
  }, { compat: 2 }),
  "array::shuffle": fn(["array"], ([a]) => {
    return shuffleInPlace([...arr(a)]);
  }, { compat: 2 }),
  "array::swap": fn(["array", "i64", "i64"], ([a, x, y]) => {
    const out = [...arr(a)];
    // each index within -len..len-1; SurrealDB numbers the two indexes 1 and 2 in its message
    const at = (n: Value, k: number) => {
      const i = position(out.length, int(n));
      if (i === undefined) throw incorrectArguments("array::swap", `Argument ${k} is out of range. Expected a number between ${out.length ? "-" : ""}${out.length} and ${out.length}`);
      return i;
    };
    const [i, j] = [at(x, 1), at(y, 2)];
    [out[i], out[j]] = [out[j], out[i]];
    return out;
  }, { compat: 2 }),
  "array::map": fn(["array", "closure"], async ([a, f], ctx) => {
    const out: Value[] = [];
    for (const [i, v] of arr(a).entries()) out.push(await ctx.invoke!(f, [v, BigInt(i)]));
    return out;
  }, { compat: 2 }),
  "array::filter": fn(["array", "any"], async ([a, f], ctx) => {
    const out: Value[] = [];
    for (const [i, v] of arr(a).entries()) if (await matcher(ctx, f, v, i)) out.push(v);
    return out;
  }, { compat: 2 }),
  "array::find": fn(["array", "any"], async ([a, f], ctx) => {
    for (const [i, v] of arr(a).entries()) if (await matcher(ctx, f, v, i)) return v;
    return undefined;
  }, { compat: 2 }),
  "array::fold": fn(["array", "any", "closure"], async ([a, init, f], ctx) => {
    let acc = init;
    for (const [i, v] of arr(a).entries()) acc = await ctx.invoke!(f, [acc, v, BigInt(i)]);
    return acc;
  }, { compat: 2 }),
  // fold seeded with the first element; the index counts the steps from 0; an empty array gives NONE
  "array::reduce": fn(["array", "closure"], async ([a, f], ctx) => {
    let acc = arr(a)[0];
    for (const [i, v] of arr(a).slice(1).entries()) acc = await ctx.invoke!(f, [acc, v, BigInt(i)]);
    return acc;
  }, { compat: 2 }),
};
