// Datetime parsing and SurrealDB-style printing; used by grammar literals, display, JSON, cast and ops.
import { QUERY_MESSAGES } from "../errors/catalogue.js";
import { SurrealError } from "../errors/index.js";
import type { Compat } from "./compat.js";
import { Datetime, Duration } from "./types.js";

const NS_PER_S = 1_000_000_000n;
const NS_PER_MS = 1_000_000n;
const SECS_PER_DAY = 86400n;

// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's days_from_civil).
function daysFromCivil(y: bigint, m: bigint, d: bigint): bigint {
  y -= m <= 2n ? 1n : 0n;
  const era = (y >= 0n ? y : y - 399n) / 400n;
  const yoe = y - era * 400n;
  const mp = (m + 9n) % 12n;
  const doy = (153n * mp + 2n) / 5n + d - 1n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

function civilFromDays(z: bigint): [bigint, bigint, bigint] {
  z += 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  return [m <= 2n ? y + 1n : y, m, d];
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** The first instant SurrealDB holds (chrono's range): -262143-01-01T00:00:00Z. */
export const DATETIME_MIN_NANOS = -8334601228800n * NS_PER_S;
/** The last: +262142-12-31T23:59:59.999999999Z. */
export const DATETIME_MAX_NANOS = 8210266876799n * NS_PER_S + 999_999_999n;
/** How SurrealDB 2.6 names the range in its errors. */
export const DATETIME_RANGE_TEXT = "-262143-01-01T00:00:00Z and +262142-12-31T23:59:59Z";

/** The datetime at `nanos` since the epoch, or undefined outside SurrealDB's range. */
export function datetimeInRange(nanos: bigint): Datetime | undefined {
  return nanos >= DATETIME_MIN_NANOS && nanos <= DATETIME_MAX_NANOS ? new Datetime(nanos) : undefined;
}

const DATETIME =
  /^([+-]?\d{4}|[+-]\d{5,6})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * RFC 3339 as SurrealDB accepts it: `2024-01-01`, `2024-01-01T10:00:00Z`, offsets `+02:00`,
 * up to 9 fraction digits (1.x also accepts more and truncates). Upper-case `T` and `Z` only.
 * `extended` also reads a signed year of 5 or 6 digits (`+10014-…`, `-009973-…`): what SurrealDB prints for a
 * year past 9999 or before 0 and itself cannot read back; only the `d'…'` literal takes it (casts refuse it, as
 * SurrealDB). The result is held to SurrealDB's range.
 */
export function tryParseDatetime(text: string, opts?: { compat?: Compat; extended?: boolean }): Datetime | undefined {
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  if (!opts?.extended && ys!.replace(/^[+-]/, "").length > 4) return undefined;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  let secs = daysFromCivil(BigInt(y), BigInt(mo), BigInt(d)) * SECS_PER_DAY;
  let nanos = 0n;
  if (hs !== undefined) {
    const h = Number(hs);
    const mi = Number(mis);
    const s = Number(ss);
    if (h > 23 || mi > 59 || s > 59) return undefined;
    secs += BigInt(h * 3600 + mi * 60 + s);
    if (frac !== undefined) {
      if (frac.length > 9 && (opts?.compat ?? 2) !== 1) return undefined;
      nanos = BigInt(frac.slice(0, 9).padEnd(9, "0"));
    }
    if (zone !== "Z") {
      const sign = zone![0] === "-" ? -1n : 1n;
      const oh = Number(zone!.slice(1, 3));
      const om = Number(zone!.slice(4, 6));
      if (oh > 23 || om > 59) return undefined;
      secs -= sign * BigInt(oh * 3600 + om * 60);
    }
  }
  return datetimeInRange(secs * NS_PER_S + nanos);
}

/** Throws a SurrealError when the text is not a datetime SurrealDB accepts. */
export function parseDatetime(text: string, opts?: { compat?: Compat }): Datetime {
  const d = tryParseDatetime(text, opts);
  if (d === undefined) throw new SurrealError("InvalidDatetime", QUERY_MESSAGES.InvalidDatetime(text));
  return d;
}

function pad(n: bigint | number, width: number): string {
  return String(n).padStart(width, "0");
}

/** As SurrealDB prints it (chrono AutoSi): UTC, `Z`, fraction in 0/3/6/9 digits. */
export function formatDatetime(d: Datetime): string {
  let secs = d.nanos / NS_PER_S;
  let nanos = d.nanos % NS_PER_S;
  if (nanos < 0n) {
    nanos += NS_PER_S;
    secs -= 1n;
  }
  let days = secs / SECS_PER_DAY;
  let sod = secs % SECS_PER_DAY;
  if (sod < 0n) {
    sod += SECS_PER_DAY;
    days -= 1n;
  }
  const [y, m, dd] = civilFromDays(days);
  const year = y >= 0n && y <= 9999n ? pad(y, 4) : `${y < 0n ? "-" : "+"}${pad(y < 0n ? -y : y, 4)}`;
  const h = sod / 3600n;
  const mi = (sod % 3600n) / 60n;
  const s = sod % 60n;
  let frac = "";
  if (nanos !== 0n) {
    if (nanos % 1_000_000n === 0n) frac = `.${pad(nanos / 1_000_000n, 3)}`;
    else if (nanos % 1000n === 0n) frac = `.${pad(nanos / 1000n, 6)}`;
    else frac = `.${pad(nanos, 9)}`;
  }
  return `${year}-${pad(m, 2)}-${pad(dd, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac}Z`;
}


export function datetimeFromMillis(ms: number): Datetime {
  const whole = Math.floor(ms);
  return new Datetime(BigInt(whole) * NS_PER_MS + BigInt(Math.round((ms - whole) * 1e6)));
}

/** Milliseconds since the epoch (floored), as `Date` uses. */
export function datetimeToMillis(d: Datetime): number {
  let q = d.nanos / NS_PER_MS;
  if (d.nanos % NS_PER_MS < 0n) q -= 1n;
  return Number(q);
}


export function datetimeFromSeconds(s: number): Datetime {
  const whole = Math.floor(s);
  return new Datetime(BigInt(whole) * NS_PER_S + BigInt(Math.round((s - whole) * 1e9)));
}

/** Whole seconds since the epoch (floored), as `time::unix` returns. */
export function datetimeToSeconds(d: Datetime): number {
  let q = d.nanos / NS_PER_S;
  if (d.nanos % NS_PER_S < 0n) q -= 1n;
  return Number(q);
}

/** `a + b`, or undefined past SurrealDB's range. */
export function datetimeAddDuration(a: Datetime, b: Duration): Datetime | undefined {
  return datetimeInRange(a.nanos + b.nanos);
}

/** `a - b`, or undefined before SurrealDB's range. */
export function datetimeSubDuration(a: Datetime, b: Duration): Datetime | undefined {
  return datetimeInRange(a.nanos - b.nanos);
}

/** `a - b` for datetimes: SurrealDB returns the absolute difference as a duration. */
export function datetimeDiff(a: Datetime, b: Datetime): Duration {
  const n = a.nanos - b.nanos;
  return new Duration(n < 0n ? -n : n);
}
