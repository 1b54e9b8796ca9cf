// Literal conversion: token text → values (strings with escapes, numbers, durations, datetimes, uuids).
import { Datetime, Decimal, Duration, Uuid } from "../src/value/types.js";

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
        out += String.fromCodePoint(parseInt(inner.slice(i + 2, close), 16));
        i = close;
      } else {
        out += String.fromCharCode(parseInt(inner.slice(i + 1, i + 5), 16));
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
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[i + 1];
    if (n === close || n === "\\") {
      out += n;
      i++;
    } else if (close === "`" && "nrtf".includes(n)) {
      out += n === "n" ? "\n" : n === "r" ? "\r" : n === "t" ? "\t" : "\f";
      i++;
    } else if (close === "`" && body.startsWith("u{8}", i + 1)) {
      out += "\b";
      i += 4;
    } else out += c;
  }
  return out;
}

const unitNanos: Record<string, bigint> = {
  ns: 1n, us: 1_000n, "µs": 1_000n, "μs": 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n,
  h: 3_600_000_000_000n, d: 86_400_000_000_000n, w: 604_800_000_000_000n, y: 31_536_000_000_000_000n,
};

/** `1h30m` → Duration. */
export function durationFromText(text: string): Duration {
  let total = 0n;
  for (const m of text.matchAll(/(\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/g)) total += BigInt(m[1]) * unitNanos[m[2]];
  return new Duration(total);
}

const datetimeRe = /^(-?\d{4,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** RFC 3339 text → Datetime, or undefined if invalid. */
export function datetimeFromText(text: string): Datetime | undefined {
  const m = datetimeRe.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = "Z"] = m;
  const month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, 0);
  let nanos = BigInt(date.getTime()) * 1_000_000n + BigInt((frac + "000000000").slice(0, 9));
  if (zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1n : 1n;
    const off = BigInt(Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000_000_000n;
    nanos -= sign * off;
  }
  return new Datetime(nanos);
}

const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidFromText(text: string): Uuid | undefined {
  return uuidRe.test(text) ? new Uuid(text.toLowerCase()) : undefined;
}

/** Number token → int (bigint), float (number) or Decimal. */
export function numberFromText(image: string): bigint | number | Decimal {
  if (image.endsWith("dec")) return new Decimal(image.slice(0, -3));
  if (image.endsWith("f")) return Number(image.slice(0, -1));
  if (/[.eE]/.test(image)) return Number(image);
  const n = BigInt(image);
  // Beyond i64 SurrealDB falls back to a float.
  return n > 9223372036854775807n ? Number(image) : n;
}
