// time:: builtins over Datetime (nanoseconds since the epoch); `now` comes from ctx.clock so tests control it.

import { datetimeInRange, DATETIME_RANGE_TEXT } from "../../value/datetime.js";
import { Datetime, Duration, Uuid, type Value } from "../../value/types.js";
import type { FunctionContext } from "./context.js";
import { compareValues } from "./util.js";
import { civilFromNanos, formatCivil, isoWeek, utc } from "./strftime.js";
import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { isLeap } from "./validate.js";

/**
 * The longest time::format format string (ours: SurrealDB has none). Formatting costs each character of it on the
 * event loop: 4 Mi characters of `%Y` held it for 6 s (attack pass 11, I5); this many take a few ms.
 */
export const MAX_TIME_FORMAT = 16 * 1024;

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

export function nowDatetime(ctx: FunctionContext): Datetime {
  return new Datetime(BigInt(Math.floor(ctx.clock.now())) * NS_PER_MS);
}

/** Floor division for bigint (rounds toward −∞, as chrono's timestamp accessors do). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

const dt = (v: Value): Datetime => v as Datetime;
/** Datetime argument or, when absent, now. */
const at = (args: Value[], ctx: FunctionContext): Datetime => (args.length > 0 ? dt(args[0]) : nowDatetime(ctx));
const civil = (args: Value[], ctx: FunctionContext) => civilFromNanos(at(args, ctx).nanos);

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const fitsI64 = (n: bigint): boolean => n >= I64_MIN && n <= I64_MAX;

/** chrono's duration_trunc / duration_round work in i64 nanoseconds: the datetime (1677–2262) and the duration must fit. */
function roundingSpan(name: string, d: Datetime, dur: Duration): bigint {
  if (!fitsI64(d.nanos) || !fitsI64(dur.nanos)) {
    throw incorrectArguments(name, "The second argument must be a duration, and must be able to be represented as nanoseconds.");
  }
  return dur.nanos;
}

function floorTo(d: Datetime, dur: Duration): Datetime {
  const span = roundingSpan("time::floor", d, dur);
  if (span === 0n) return d;
  return new Datetime(floorDiv(d.nanos, span) * span);
}

function roundTo(d: Datetime, dur: Duration): Datetime {
  const span = roundingSpan("time::round", d, dur);
  if (span === 0n) return d;
  const floor = floorDiv(d.nanos, span) * span;
  const rem = d.nanos - floor;
  return new Datetime(rem * 2n >= span ? floor + span : floor);
}

const GROUPS: Record<string, (c: ReturnType<typeof civilFromNanos>) => number> = {
  year: (c) => utc(c.year, 0, 1),
  month: (c) => utc(c.year, c.month - 1, 1),
  day: (c) => utc(c.year, c.month - 1, c.day),
  hour: (c) => utc(c.year, c.month - 1, c.day, c.hour),
  minute: (c) => utc(c.year, c.month - 1, c.day, c.hour, c.minute),
  second: (c) => utc(c.year, c.month - 1, c.day, c.hour, c.minute, c.second),
};

function timezone(): string {
  const off = -new Date().getTimezoneOffset();
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}

const UNIT_NAMES: Record<string, string> = { "1000000000": "seconds", "1000000": "milliseconds", "1000": "microseconds" };

/** `time::from::<unit>(n)`: n units after the epoch, held to SurrealDB's range (2.6.0's and 1.5.4's words). */
const fromScaled = (name: string, scale: bigint) =>
  fn(["i64"], ([n], ctx) => {
    const d = datetimeInRange((n as bigint) * scale);
    if (d !== undefined) return d;
    const unit = UNIT_NAMES[String(scale)];
    const relative = `relative to January 1, 1970 0:00:00 UTC`;
    throw incorrectArguments(
      name,
      ctx.compat === 1
        ? `The first argument must be an in-bounds number of ${unit} ${relative}.`
        : `The argument must be a number of ${unit} ${relative} that produces a datetime between ${DATETIME_RANGE_TEXT}.`,
    );
  });

const part = (get: (c: ReturnType<typeof civilFromNanos>) => number) =>
  fn(["datetime?"], (args, ctx) => BigInt(get(civil(args, ctx))));

export const timeFunctions: BuiltinTable = {
  "time::now": fn([], (_a, ctx) => nowDatetime(ctx)),
  "time::unix": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, NS_PER_S)),
  "time::millis": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, NS_PER_MS)),
  "time::micros": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, 1_000n)),
  // past i64 nanoseconds (before 1677, after 2262) chrono has no answer and SurrealDB gives 0
  "time::nano": fn(["datetime?"], (args, ctx) => {
    const n = at(args, ctx).nanos;
    return fitsI64(n) ? n : 0n;
  }),
  "time::format": fn(["datetime", "string"], ([d, f]) => {
    // each specifier writes up to ~30 characters, one character at a time: a long format is refused before it runs
    if ((f as string).length > MAX_TIME_FORMAT) throw incorrectArguments("time::format", `Format string must not exceed ${MAX_TIME_FORMAT} characters.`);
    const out = formatCivil(civilFromNanos(dt(d).nanos), f as string);
    if (out === undefined) throw incorrectArguments("time::format", "Invalid format string");
    return out;
  }),
  "time::floor": fn(["datetime", "duration"], ([d, dur]) => floorTo(dt(d), dur as Duration)),
  "time::round": fn(["datetime", "duration"], ([d, dur]) => roundTo(dt(d), dur as Duration)),
  "time::group": fn(["datetime", "string"], ([d, g]) => {
    const group = GROUPS[g as string];
    if (!group) {
      throw incorrectArguments(
        "time::group",
        "The second argument must be a string, and can be one of 'year', 'month', 'day', 'hour', 'minute', or 'second'.",
      );
    }
    return new Datetime(BigInt(group(civilFromNanos(dt(d).nanos))) * NS_PER_MS);
  }),
  "time::day": part((c) => c.day),
  "time::hour": part((c) => c.hour),
  "time::minute": part((c) => c.minute),
  "time::second": part((c) => c.second),
  "time::month": part((c) => c.month),
  "time::year": part((c) => c.year),
  "time::wday": part((c) => (c.weekday === 0 ? 7 : c.weekday)),
  "time::yday": part((c) => c.yday),
  "time::week": part((c) => isoWeek(c).week),
  "time::timezone": fn([], () => timezone()),
  "time::max": fn(["array"], ([a]) => maxDatetime(a as Value[], 1)),
  "time::min": fn(["array"], ([a]) => maxDatetime(a as Value[], -1)),
  "time::from::unix": fromScaled("time::from::unix", NS_PER_S),
  "time::from::secs": fromScaled("time::from::secs", NS_PER_S),
  "time::from::millis": fromScaled("time::from::millis", NS_PER_MS),
  "time::from::micros": fromScaled("time::from::micros", 1_000n),
  // every i64 of nanoseconds is in range (1677–2262)
  "time::from::nanos": fn(["i64"], ([n]) => new Datetime(n as bigint)),
  "time::from::uuid": fn(
    ["uuid"],
    ([u]) => new Datetime(BigInt("0x" + (u as Uuid).text.replace(/-/g, "").slice(0, 12)) * NS_PER_MS),
    { compat: 2 },
  ),
  "time::from::ulid": fn(["string"], ([s]) => {
    const text = (s as string).toUpperCase();
    if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(text)) throw incorrectArguments("time::from::ulid", "The first argument must be a string, containing a valid ULID.");
    let ms = 0n;
    for (const ch of text.slice(0, 10)) ms = ms * 32n + BigInt("0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(ch));
    return new Datetime(ms * NS_PER_MS);
  }, { compat: 2 }),
  "time::is::leap_year": fn(["datetime?"], (args, ctx) => isLeap(civil(args, ctx).year), { compat: 2 }),
};

/** Largest (sign 1) or smallest (sign −1) datetime in an array; NONE when there is none. */
function maxDatetime(items: Value[], sign: 1 | -1): Value {
  let best: Datetime | undefined;
  for (const v of items) {
    if (!(v instanceof Datetime)) continue;
    if (best === undefined || compareValues(v, best) * sign > 0) best = v;
  }
  return best;
}
