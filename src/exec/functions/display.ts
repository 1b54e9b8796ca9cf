// Minimal SurrealQL rendering of values for error messages ("… but found 'x'"); defers to value/ when it can.

import { Datetime, Decimal, Duration, RecordId, Table, Uuid, isValueObject, type Value } from "../../value/types.js";

function quoteString(s: string): string {
  if (!s.includes("'")) return `'${s.replace(/\\/g, "\\\\")}'`;
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function ident(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `⟨${s.replace(/⟩/g, "\\⟩")}⟩`;
}

/** Render a value roughly as SurrealQL prints it. */
export function render(v: Value): string {
  if (v === undefined) return "NONE";
  if (v === null) return "NULL";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    return `${formatFloat(v)}f`;
  }
  if (typeof v === "string") return quoteString(v);
  if (v instanceof Decimal) return `${v.text}dec`;
  if (v instanceof Uuid) return `u'${v.text}'`;
  if (v instanceof Table) return ident(v.name);
  if (v instanceof RecordId) return `${ident(v.table)}:${typeof v.id === "string" ? ident(v.id) : render(v.id as Value)}`;
  if (v instanceof Duration) return formatDurationText(v.nanos);
  if (v instanceof Datetime) return `d'${formatDatetimeText(v)}'`;
  if (v instanceof Uint8Array) return `encoding::base64::decode('${Buffer.from(v).toString("base64")}')`;
  if (Array.isArray(v)) return `[${v.map(render).join(", ")}]`;
  if (isValueObject(v)) {
    const keys = Object.keys(v).sort();
    if (keys.length === 0) return "{  }";
    return `{ ${keys.map((k) => `${ident(k)}: ${render(v[k])}`).join(", ")} }`;
  }
  return String(v);
}

const UNITS: [string, bigint][] = [
  ["y", 365n * 86_400n * 1_000_000_000n],
  ["w", 7n * 86_400n * 1_000_000_000n],
  ["d", 86_400n * 1_000_000_000n],
  ["h", 3_600n * 1_000_000_000n],
  ["m", 60n * 1_000_000_000n],
  ["s", 1_000_000_000n],
  ["ms", 1_000_000n],
  ["µs", 1_000n],
  ["ns", 1n],
];

/** SurrealDB's duration display: largest units first, e.g. 1h30m, 0ns for zero. */
export function formatDurationText(nanos: bigint): string {
  if (nanos === 0n) return "0ns";
  let rest = nanos;
  let out = "";
  for (const [u, size] of UNITS) {
    const q = rest / size;
    if (q > 0n) {
      out += `${q}${u}`;
      rest -= q * size;
    }
  }
  return out;
}

/** Rust's f64 Display: shortest round-trip digits, never in exponent form (1e-7 → 0.0000001). */
export function formatFloat(v: number): string {
  if (Object.is(v, -0)) return "-0";
  const text = String(v);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, frac = "", expText] = m;
  const digits = lead! + frac;
  const exp = Number(expText);
  if (exp >= 0) return sign + digits.padEnd(exp + 1, "0");
  return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
}

/** RFC 3339 in UTC as SurrealDB prints datetimes: fraction trimmed of trailing zeros, "Z". */
export function formatDatetimeText(d: Datetime): string {
  const NS = 1_000_000_000n;
  let secs = d.nanos / NS;
  let frac = d.nanos % NS;
  if (frac < 0n) {
    frac += NS;
    secs -= 1n;
  }
  const base = new Date(Number(secs) * 1000).toISOString().slice(0, 19);
  const f = frac === 0n ? "" : "." + frac.toString().padStart(9, "0").replace(/0+$/, "");
  return `${base}${f}Z`;
}
