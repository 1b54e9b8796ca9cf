// The compat switch every value operation takes: 1 = SurrealDB 1.5.x, 2 = SurrealDB 2.x (default).
export type Compat = 1 | 2;
export interface CompatOpts {
  readonly compat?: Compat;
}
export function compatOf(opts: CompatOpts | undefined): Compat {
  return opts?.compat ?? 2;
}

/** Orders strings by Unicode code point (= UTF-8 byte order, as Rust's String and BTreeMap). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // a surrogate (astral code point) sorts above every BMP unit
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
