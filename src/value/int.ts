// Integer text → i64 without building a BigInt from an unbounded digit run (BigInt parsing is super-linear).

export const I64_MAX = 9223372036854775807n;
export const I64_MIN = -9223372036854775808n;

/** `[+-]?\d+` text → bigint when it fits an i64, else undefined; never parses more than 20 significant digits. */
export function parseI64(text: string): bigint | undefined {
  let i = text[0] === "+" || text[0] === "-" ? 1 : 0;
  while (i < text.length - 1 && text[i] === "0") i++;
  if (text.length - i > 19) return undefined;
  const n = BigInt(text[0] === "-" ? "-" + text.slice(i) : text.slice(i));
  return n >= I64_MIN && n <= I64_MAX ? n : undefined;
}
