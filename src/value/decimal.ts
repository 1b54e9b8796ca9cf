// Decimal arithmetic on exact scaled integers (SurrealDB: rust_decimal, 28 fractional digits at most).
import { Decimal } from "./types.js";

/** A decimal as `unscaled × 10^-scale`. */
export interface ScaledDecimal {
  readonly unscaled: bigint;
  readonly scale: number;
}

/** rust_decimal's most fractional digits, and its largest exponent in text. */
export const MAX_SCALE = 28;

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

const U96 = 1n << 96n;

/**
 * rust_decimal's reading of digit text (cast from a string): a 96-bit mantissa and at most 28 fractional
 * digits; fractional digits beyond what fits round half away from zero on the first dropped digit
 * (`0.…15` → `0.…2`); undefined when the integer part alone overflows. Builds BigInts of ≤ 29 digits only.
 */
export function decimalFromDigits(negative: boolean, int: string, frac: string): Decimal | undefined {
  let i = 0;
  while (i < int.length && int[i] === "0") i++;
  const whole = int.slice(i);
  if (whole.length > 29 || (whole !== "" && BigInt(whole) >= U96)) return undefined;
  let scale = Math.min(frac.length, MAX_SCALE);
  let unscaled = BigInt(whole + frac.slice(0, scale) || "0");
  while (scale > 0 && unscaled >= U96) {
    unscaled /= 10n;
    scale--;
  }
  if (scale < frac.length && frac[scale]! >= "5") unscaled++;
  if (unscaled >= U96) return undefined;
  return decimalFromScaled({ unscaled: negative ? -unscaled : unscaled, scale });
}

/**
 * Decimal text (`-1.5`, `1e5`, `2.5E-3`) as rust_decimal reads it: 28 fractional digits, 96 bits; undefined when it
 * cannot hold it. An exponent beyond ±28 is refused before any digit is expanded (attack pass 7, E3: a CBOR decimal
 * `1e30000000` took 37 s of arithmetic on the event loop). The parser's `dec` literals and every decoder read decimals here.
 */
export function decimalFromText(text: string): Decimal | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const [, sign, int = "", frac = "", expText] = m;
  const negative = sign === "-";
  if (expText === undefined) return decimalFromDigits(negative, int, frac);
  const exp = Number(expText);
  if (Math.abs(exp) > MAX_SCALE) return undefined;
  // move the point: at most 28 places, so the padding stays small
  const digits = int + frac;
  const point = int.length + exp;
  if (point >= digits.length) return decimalFromDigits(negative, digits + "0".repeat(point - digits.length), "");
  if (point <= 0) return decimalFromDigits(negative, "", "0".repeat(-point) + digits);
  return decimalFromDigits(negative, digits.slice(0, point), digits.slice(point));
}

/** Does decimal text carry an exponent beyond rust_decimal's ±28 (the parser names that error apart)? */
export function decimalExponentTooLarge(text: string): number | undefined {
  const exp = /[eE]([+-]?\d+)$/.exec(text)?.[1];
  return exp !== undefined && Math.abs(Number(exp)) > MAX_SCALE ? Math.abs(Number(exp)) : undefined;
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
  const text = String(n);
  // a float past 2^96 has no decimal (SurrealDB: "Expected a decimal but cannot convert …"); read no digits of it
  if (Math.abs(n) >= 2 ** 96) return undefined;
  const s = parseDecimalText(text);
  if (!s) return undefined;
  return fitted(s);
}

export function decimalToNumber(d: Decimal): number {
  return Number(d.text);
}

/** `s` at `scale` digits, rounding half away from zero (a decimal read from text) or half to even (a result). */
function rescale(s: ScaledDecimal, scale: number, halfEven = false): ScaledDecimal {
  if (scale >= s.scale) return { unscaled: s.unscaled * 10n ** BigInt(scale - s.scale), scale };
  const div = 10n ** BigInt(s.scale - scale);
  const q = s.unscaled / div;
  const r = s.unscaled % div;
  const twice = (r < 0n ? -r : r) * 2n;
  const up = twice > div || (twice === div && (!halfEven || (q & 1n) === 1n));
  return { unscaled: up ? q + (s.unscaled < 0n ? -1n : 1n) : q, scale };
}

function align(a: ScaledDecimal, b: ScaledDecimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [rescale(a, scale).unscaled, rescale(b, scale).unscaled, scale];
}

export function compareScaled(a: ScaledDecimal, b: ScaledDecimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A result as rust_decimal holds it: at most 28 fractional digits, then fractional digits dropped (rounded) while the
 * mantissa passes 96 bits; undefined when even the integer part does not fit (SurrealDB's "Cannot perform …"). Every
 * sum, difference, product and float conversion passes here, so no decimal grows past 29 digits (attack pass 8, F3:
 * `$d = $d * $d` doubled its digits each step, one uninterruptible BigInt product at a time).
 */
function fitted(s: ScaledDecimal): Decimal | undefined {
  // rust_decimal rounds a result's dropped digits half to even (`0.…01 * 0.5` → `0.…00`)
  let r = s.scale > MAX_SCALE ? rescale(s, MAX_SCALE, true) : s;
  const over = (u: bigint): boolean => (u < 0n ? -u : u) >= U96;
  while (over(r.unscaled) && r.scale > 0) r = rescale(r, r.scale - 1, true);
  return over(r.unscaled) ? undefined : decimalFromScaled(r);
}

export function decimalAdd(a: Decimal, b: Decimal): Decimal | undefined {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return fitted({ unscaled: x + y, scale });
}

export function decimalSub(a: Decimal, b: Decimal): Decimal | undefined {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return fitted({ unscaled: x - y, scale });
}

export function decimalMul(a: Decimal, b: Decimal): Decimal | undefined {
  const x = scaledOf(a);
  const y = scaledOf(b);
  return fitted({ unscaled: x.unscaled * y.unscaled, scale: x.scale + y.scale });
}

/** Largest x ≤ 9 (and ≤ 28 - scale) with q × 10^x still inside rust_decimal's 96-bit mantissa. */
function findScale(q: bigint, scale: number): number {
  let x = Math.min(9, MAX_SCALE - scale);
  while (x > 0 && q * 10n ** BigInt(x) >= U96) x--;
  return x;
}

/** rust_decimal's `unscale`: strips 10^8 while the low 32 bits are zero, then 10^4, 10^2, 10^1 once each. */
function unscale(q: bigint, scale: number): [bigint, number] {
  while ((q & 0xffffffffn) === 0n && q !== 0n && scale >= 8 && q % 100000000n === 0n) {
    q /= 100000000n;
    scale -= 8;
  }
  for (const [digits, pow] of [[4, 10000n], [2, 100n], [1, 10n]] as const) {
    if (scale >= digits && q % pow === 0n) {
      q /= pow;
      scale -= digits;
    }
  }
  return [q, scale];
}

/**
 * Quotient as rust_decimal computes it (`7 / 2` → `3.50`, `1 / 3` → 28 digits, `6 / 3` → `2`);
 * undefined on division by zero.
 */
export function decimalDiv(a: Decimal, b: Decimal): Decimal | undefined {
  const x = scaledOf(a);
  const y = scaledOf(b);
  if (y.unscaled === 0n) return undefined;
  if (x.unscaled === 0n) return new Decimal("0");
  const negative = x.unscaled < 0n !== y.unscaled < 0n;
  const divisor = y.unscaled < 0n ? -y.unscaled : y.unscaled;
  const dividend = x.unscaled < 0n ? -x.unscaled : x.unscaled;
  let scale = x.scale - y.scale;
  let q = dividend / divisor;
  let r = dividend % divisor;
  let requireUnscale = false;
  for (;;) {
    let power: number;
    if (r === 0n) {
      if (scale >= 0) break;
      power = Math.min(9, -scale);
    } else {
      requireUnscale = true;
      power = scale === MAX_SCALE ? 0 : findScale(q, scale);
      if (power === 0) {
        // no room left: round half to even on the remainder
        const twice = r * 2n;
        if (twice > divisor || (twice === divisor && (q & 1n) === 1n)) q += 1n;
        break;
      }
    }
    const p = 10n ** BigInt(power);
    scale += power;
    q *= p;
    const rs = r * p;
    q += rs / divisor;
    r = rs % divisor;
  }
  if (requireUnscale) [q, scale] = unscale(q, scale);
  return decimalFromScaled({ unscaled: negative ? -q : q, scale });
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
