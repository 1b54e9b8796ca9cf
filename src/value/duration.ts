// Duration parsing, SurrealDB-normalised printing and arithmetic; used by grammar literals, display, cast and ops.
import { QUERY_MESSAGES } from "../errors/catalogue.js";
import { SurrealError } from "../errors/index.js";
import { Duration } from "./types.js";

const NS_PER_US = 1_000n;
const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;
const NS_PER_M = 60n * NS_PER_S;
const NS_PER_H = 60n * NS_PER_M;
const NS_PER_D = 24n * NS_PER_H;
const NS_PER_W = 7n * NS_PER_D;
const NS_PER_Y = 365n * NS_PER_D;

/** Largest duration SurrealDB can hold (Rust's Duration::MAX: u64 seconds + 999_999_999 ns). */
export const DURATION_MAX = new Duration(18446744073709551615n * NS_PER_S + 999_999_999n);
export const DURATION_ZERO = new Duration(0n);

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: NS_PER_US,
  "µs": NS_PER_US, // micro sign U+00B5
  "μs": NS_PER_US, // greek mu U+03BC
  ms: NS_PER_MS,
  s: NS_PER_S,
  m: NS_PER_M,
  h: NS_PER_H,
  d: NS_PER_D,
  w: NS_PER_W,
  y: NS_PER_Y,
};

const PART = /(\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/y;

/** Parses duration text, returns undefined when it is not a valid duration. */
export function tryParseDuration(text: string): Duration | undefined {
  if (text.length === 0) return undefined;
  let total = 0n;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const m = PART.exec(text);
    if (!m) return undefined;
    // more than 30 significant digits overflows anyway: spare BigInt an unbounded digit run
    if (m[1]!.replace(/^0+/, "").length > 30) return undefined;
    total += BigInt(m[1]!) * UNIT_NANOS[m[2]!]!;
  }
  if (total > DURATION_MAX.nanos) return undefined;
  return new Duration(total);
}

/** `1y2w3d4h5m6s7ms8us9ns`; throws a SurrealError on bad text. */
export function parseDuration(text: string): Duration {
  const d = tryParseDuration(text);
  if (d === undefined) throw new SurrealError("InvalidDuration", QUERY_MESSAGES.InvalidDuration(text));
  return d;
}

/** SurrealDB's normalised text: largest units first, y = 365d, zero → `0ns`. */
export function formatDuration(d: Duration): string {
  let secs = d.nanos / NS_PER_S;
  let nanos = d.nanos % NS_PER_S;
  if (secs === 0n && nanos === 0n) return "0ns";
  let out = "";
  const take = (unitSecs: bigint, suffix: string): void => {
    const q = secs / unitSecs;
    secs %= unitSecs;
    if (q) out += `${q}${suffix}`;
  };
  take(365n * 86400n, "y");
  take(604800n, "w");
  take(86400n, "d");
  take(3600n, "h");
  take(60n, "m");
  take(1n, "s");
  const ms = nanos / NS_PER_MS;
  nanos %= NS_PER_MS;
  const us = nanos / NS_PER_US;
  nanos %= NS_PER_US;
  if (ms) out += `${ms}ms`;
  if (us) out += `${us}µs`;
  if (nanos) out += `${nanos}ns`;
  return out;
}

function clampDuration(n: bigint): Duration {
  if (n < 0n) return DURATION_ZERO;
  return n > DURATION_MAX.nanos ? DURATION_MAX : new Duration(n);
}

/** Seconds (may be fractional) to a duration, truncated to nanoseconds; negative clamps to zero. */
export function durationFromSeconds(n: number): Duration {
  if (!Number.isFinite(n)) return n > 0 ? DURATION_MAX : DURATION_ZERO;
  const whole = Math.trunc(n);
  return clampDuration(BigInt(whole) * NS_PER_S + BigInt(Math.round((n - whole) * 1e9)));
}

export function durationFromMillis(n: number): Duration {
  if (!Number.isFinite(n)) return n > 0 ? DURATION_MAX : DURATION_ZERO;
  const whole = Math.trunc(n);
  return clampDuration(BigInt(whole) * NS_PER_MS + BigInt(Math.round((n - whole) * 1e6)));
}

export function durationFromNanos(n: bigint): Duration {
  return clampDuration(n);
}

/** Whole and fractional seconds as a float. */
export function durationToSeconds(d: Duration): number {
  return Number(d.nanos / NS_PER_S) + Number(d.nanos % NS_PER_S) / 1e9;
}

export function durationToMillis(d: Duration): number {
  return Number(d.nanos / NS_PER_MS) + Number(d.nanos % NS_PER_MS) / 1e6;
}

/** Sum; undefined on overflow (SurrealDB then reports the operation as failed). */
export function addDurations(a: Duration, b: Duration): Duration | undefined {
  const n = a.nanos + b.nanos;
  return n > DURATION_MAX.nanos ? undefined : new Duration(n);
}

/** Difference; undefined when negative (1.x saturates to 0ns instead: the caller decides). */
export function subDurations(a: Duration, b: Duration): Duration | undefined {
  const n = a.nanos - b.nanos;
  return n < 0n ? undefined : new Duration(n);
}
