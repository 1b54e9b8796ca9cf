// Literal conversion: token text → values (strings with escapes, numbers, durations, datetimes, uuids).
import { LocalError } from "../src/errors/index.js";
import { tryParseDatetime } from "../src/value/datetime.js";
import { decimalExponentTooLarge, decimalFromText, MAX_SCALE } from "../src/value/decimal.js";
import { tryParseDuration } from "../src/value/duration.js";
import { parseI64 } from "../src/value/int.js";
import { unescapeDelimited } from "../src/value/record.js";
import { Decimal, type Datetime, type Duration, type Uuid } from "../src/value/types.js";
import { tryParseUuid } from "../src/value/uuid.js";

/** Thrown by `unquote` for a malformed `\u` escape; the AST builder turns it into a ParseError at the token. */
export class InvalidEscape extends LocalError {
  constructor() {
    super("InvalidEscape", "invalid escape sequence");
  }
}

const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "0": "\0" };

/** Removes the quotes (or ⟨⟩ / backticks) and resolves backslash escapes. */
export function unquote(image: string): string {
  const inner = image.slice(1, -1);
  if (!inner.includes("\\")) return inner;
  let out = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch !== "\\" || i === inner.length - 1) {
      out += ch;
      continue;
    }
    const next = inner[++i];
    if (next === "u") {
      if (inner[i + 1] === "{") {
        const close = inner.indexOf("}", i);
        const code = close < 0 ? NaN : parseInt(inner.slice(i + 2, close), 16);
        if (!(code >= 0 && code <= 0x10ffff)) throw new InvalidEscape();
        out += String.fromCodePoint(code);
        i = close;
      } else {
        const hex = inner.slice(i + 1, i + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new InvalidEscape();
        out += String.fromCharCode(parseInt(hex, 16));
        i += 4;
      }
    } else out += escapes[next] ?? next;
  }
  return out;
}

/**
 * Body of a `…` or ⟨…⟩ identifier: `\\` and an escaped closing delimiter; inside backticks also `\n \r \t \f \u{8}`
 * (as SurrealDB 2 prints them); any other backslash stays as written (SurrealDB 1 prints backslashes raw).
 */
export function unquoteIdent(image: string): string {
  const close = image[0] === "`" ? "`" : "⟩";
  const body = image.slice(1, -1);
  // The lexer never lets an unescaped closing delimiter into the body, so this is never undefined.
  return body.includes("\\") ? (unescapeDelimited(body, close) ?? body) : body;
}

/** `1h30m` → Duration, or undefined when it overflows SurrealDB's maximum. */
export function durationFromText(text: string): Duration | undefined {
  return tryParseDuration(text);
}

/** RFC 3339 text → Datetime, or undefined if invalid; reads the signed 5–6 digit years SurrealDB prints past 9999. */
export function datetimeFromText(text: string): Datetime | undefined {
  return tryParseDatetime(text, { extended: true });
}

export function uuidFromText(text: string): Uuid | undefined {
  return tryParseUuid(text);
}

/** Thrown by `numberFromText` for a decimal rust_decimal cannot hold; the AST builder reports it at the token. */
export class InvalidNumber extends Error {}

/** `1.5dec`, `1e5dec` as rust_decimal reads them (28 fractional digits, 96 bits); never expands a huge exponent. */
function decimalFromLiteral(text: string): Decimal {
  const exp = decimalExponentTooLarge(text);
  if (exp !== undefined) throw new InvalidNumber(`Failed to parser decimal: Scale exceeds the maximum precision allowed: ${exp} > ${MAX_SCALE}`);
  const d = decimalFromText(text);
  if (d === undefined) throw new InvalidNumber("Failed to parser decimal: Invalid decimal: overflow from too many digits");
  return d;
}

/** Number token → int (bigint), float (number) or Decimal; throws InvalidNumber for a decimal out of range. */
export function numberFromText(text: string): bigint | number | Decimal {
  // 2.x reads `1_000`, `1_000.5`, `1e1_0`: underscores after the first digit are ignored
  const image = text.includes("_") ? text.replace(/_/g, "") : text;
  if (image.endsWith("dec")) return decimalFromLiteral(image.slice(0, -3));
  if (image.endsWith("f")) return Number(image.slice(0, -1));
  if (/[.eE]/.test(image)) return Number(image);
  // an integer beyond i64 does not parse (2.x's words; `-9223372036854775808` is read whole by the unary minus)
  const int = parseI64(image);
  if (int === undefined) throw new InvalidNumber("Failed to parse number: number too large to fit in target type");
  return int;
}
