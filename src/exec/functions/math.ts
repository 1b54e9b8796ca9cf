// math:: builtins over SurrealDB numbers (int = bigint with i64 semantics, float = number, decimal = Decimal text).

import { QueryError } from "../../errors/index.js";
import { Decimal, type Value } from "../../value/types.js";
import { formatFloat } from "./display.js";
import { incorrectArguments, wrongType, fn, type BuiltinTable } from "./registry.js";
import { maxOf, minOf } from "./array.js";

type Num = bigint | number | Decimal;

const wrap = (n: bigint): bigint => BigInt.asIntN(64, n);
const toF = (n: Num): number => (n instanceof Decimal ? Number(n.text) : Number(n));
const dec = (x: number): Decimal => new Decimal(formatFloat(x).replace(/^-0$/, "0"));

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

/** SurrealDB number addition: int+int wraps as i64 in sums, floats win over ints, decimals over both. */
function add(a: Num, b: Num): Num {
  if (typeof a === "bigint" && typeof b === "bigint") return wrap(a + b);
  if (a instanceof Decimal || b instanceof Decimal) return dec(toF(a) + toF(b));
  return toF(a) + toF(b);
}

function mul(a: Num, b: Num): Num {
  if (typeof a === "bigint" && typeof b === "bigint") return wrap(a * b);
  if (a instanceof Decimal || b instanceof Decimal) return dec(toF(a) * toF(b));
  return toF(a) * toF(b);
}

function median(ns: Num[]): Value {
  if (ns.length === 0) return undefined;
  const s = ns.map(toF).sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function pow(a: Num, b: Num): Num {
  if (typeof a === "bigint" && typeof b === "bigint") {
    const fail = () => new QueryError("TryPow", `Cannot raise the value '${a}' with '${b}'`);
    if (b < 0n) throw fail();
    const r = a ** b;
    if (r !== BigInt.asIntN(64, r)) throw fail();
    return r;
  }
  if (a instanceof Decimal || b instanceof Decimal) return dec(toF(a) ** toF(b));
  return toF(a) ** toF(b);
}

function fixed(v: Num, places: bigint): Num {
  if (places <= 0n) throw incorrectArguments("math::fixed", "The second argument must be an integer greater than 0.");
  if (typeof v === "bigint") return v;
  const p = Number(places > 100n ? 100n : places);
  if (v instanceof Decimal) return new Decimal(Number(v.text).toFixed(p));
  return Number.isFinite(v) ? Number(v.toFixed(p)) : v;
}

export const mathFunctions: BuiltinTable = {
  "math::abs": fn(["number"], ([n], ctx) => {
    if (typeof n === "bigint") {
      if (n === -(2n ** 63n)) {
        if (ctx.compat === 1) return n;
        throw new QueryError("ArithmeticOverflow", `Failed to compute: "math::abs(${n})", as the operation results in an arithmetic overflow.`);
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
    return ns.length === 0 ? undefined : ns.reduce<number>((s, n) => s + toF(n), 0) / ns.length;
  }),
  "math::median": fn(["array"], ([a]) => median(numbers("math::median", a))),
  "math::sqrt": fn(["number"], ([n]) => {
    const x = toF(n as Num);
    if (x < 0) return undefined;
    return n instanceof Decimal ? new Decimal(Math.sqrt(x).toFixed(27)) : Math.sqrt(x);
  }),
  "math::pow": fn(["number", "number"], ([a, b]) => pow(a as Num, b as Num)),
  "math::ln": fn(["number"], ([n]) => Math.log(toF(n as Num)), { compat: 2 }),
  "math::log10": fn(["number"], ([n]) => Math.log10(toF(n as Num)), { compat: 2 }),
  "math::log2": fn(["number"], ([n]) => Math.log2(toF(n as Num)), { compat: 2 }),
};
