// Decimal arithmetic on exact scaled integers (SurrealDB: rust_decimal, 28 fractional digits at most).
import { Decimal } from "./types.js";

/** A decimal as `unscaled × 10^-scale`. */
export interface ScaledDecimal {
  readonly unscaled: bigint;
  readonly scale: number;
}

const MAX_SCALE = 28;

/** Parses plain decimal text (`-1.50`, `3`, `1e3`); undefined when not a decimal. */
export function parseDecimalText(text: string): ScaledDecimal | undefined {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = "", exp] = m;
  let unscaled = BigInt(int! + frac);
  let scale = frac.length;
  if (exp !== undefined) {
    scale -= Number(exp);
    if (scale < 0) {
      unscaled *= 10n ** BigInt(-scale);
      scale = 0;
    }
  }
  return { unscaled: sign === "-" ? -unscaled : unscaled, scale };
}

export function scaledOf(d: Decimal): ScaledDecimal {
  return parseDecimalText(d.text) ?? { unscaled: 0n, scale: 0 };
}

export function decimalFromScaled(s: ScaledDecimal): Decimal {
  let u = s.unscaled;
  const neg = u < 0n;
  if (neg) u = -u;
  let digits = u.toString();
  if (s.scale > 0) {
    digits = digits.padStart(s.scale + 1, "0");
    digits = `${digits.slice(0, digits.length - s.scale)}.${digits.slice(digits.length - s.scale)}`;
  }
  return new Decimal(neg && u !== 0n ? `-${digits}` : digits);
}

export function decimalFromBigint(n: bigint): Decimal {
  return new Decimal(n.toString());
}

/** A float as a decimal, via its shortest round-trip text (as rust_decimal's from_f64 does for short values). */
export function decimalFromFloat(n: number): Decimal | undefined {
  if (!Number.isFinite(n)) return undefined;
  const s = parseDecimalText(String(n));
  if (!s) return undefined;
  return decimalFromScaled(s.scale > MAX_SCALE ? rescale(s, MAX_SCALE) : s);
}

export function decimalToNumber(d: Decimal): number {
  return Number(d.text);
}

function rescale(s: ScaledDecimal, scale: number): ScaledDecimal {
  if (scale >= s.scale) return { unscaled: s.unscaled * 10n ** BigInt(scale - s.scale), scale };
  const div = 10n ** BigInt(s.scale - scale);
  // round half away from zero
  const q = s.unscaled / div;
  const r = s.unscaled % div;
  const twice = (r < 0n ? -r : r) * 2n;
  return { unscaled: twice >= div ? q + (s.unscaled < 0n ? -1n : 1n) : q, scale };
}

function align(a: ScaledDecimal, b: ScaledDecimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [rescale(a, scale).unscaled, rescale(b, scale).unscaled, scale];
}

export function compareScaled(a: ScaledDecimal, b: ScaledDecimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function decimalAdd(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return decimalFromScaled({ unscaled: x + y, scale });
}

export function decimalSub(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return decimalFromScaled({ unscaled: x - y, scale });
}

export function decimalMul(a: Decimal, b: Decimal): Decimal {
  const x = scaledOf(a);
  const y = scaledOf(b);
  const r = { unscaled: x.unscaled * y.unscaled, scale: x.scale + y.scale };
  return decimalFromScaled(r.scale > MAX_SCALE ? rescale(r, MAX_SCALE) : r);
}

/** Quotient; undefined on division by zero. Exact quotients keep the dividend's scale at least. */
export function decimalDiv(a: Decimal, b: Decimal): Decimal | undefined {
  const x = scaledOf(a);
  const y = scaledOf(b);
  if (y.unscaled === 0n) return undefined;
  // quotient with MAX_SCALE fractional digits, then drop trailing zeros beyond the natural scale
  const num = x.unscaled * 10n ** BigInt(MAX_SCALE + y.scale);
  const den = y.unscaled * 10n ** BigInt(x.scale);
  let q = num / den;
  let scale = MAX_SCALE;
  const exact = num % den === 0n;
  const minScale = exact ? Math.max(0, x.scale - y.scale) : MAX_SCALE;
  while (scale > minScale && q % 10n === 0n) {
    q /= 10n;
    scale--;
  }
  return decimalFromScaled({ unscaled: q, scale });
}

/** Remainder with the sign of the dividend; undefined on division by zero. */
export function decimalRem(a: Decimal, b: Decimal): Decimal | undefined {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  if (y === 0n) return undefined;
  return decimalFromScaled({ unscaled: x % y, scale });
}

export function decimalNeg(a: Decimal): Decimal {
  const s = scaledOf(a);
  return decimalFromScaled({ unscaled: -s.unscaled, scale: s.scale });
}

export function decimalIsZero(a: Decimal): boolean {
  return scaledOf(a).unscaled === 0n;
}

/** Truncates toward zero to an integer. */
export function decimalTrunc(a: Decimal): bigint {
  const s = scaledOf(a);
  return s.unscaled / 10n ** BigInt(s.scale);
}

export function decimalIsInteger(a: Decimal): boolean {
  const s = scaledOf(a);
  return s.unscaled % 10n ** BigInt(s.scale) === 0n;
}
