// time:: builtins over Datetime (nanoseconds since the epoch); `now` comes from ctx.clock so tests control it.

import { Datetime, Duration, Uuid, type Value } from "../../value/types.js";
import type { FunctionContext } from "./context.js";
import { compareValues } from "./util.js";
import { civilFromNanos, formatCivil, isoWeek, utc } from "./strftime.js";
import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { isLeap } from "./validate.js";

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

function floorTo(d: Datetime, dur: Duration): Datetime {
  if (dur.nanos === 0n) return d;
  return new Datetime(floorDiv(d.nanos, dur.nanos) * dur.nanos);
}

function roundTo(d: Datetime, dur: Duration): Datetime {
  if (dur.nanos === 0n) return d;
  const floor = floorDiv(d.nanos, dur.nanos) * dur.nanos;
  const rem = d.nanos - floor;
  return new Datetime(rem * 2n >= dur.nanos ? floor + dur.nanos : floor);
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

const fromScaled = (scale: bigint) => fn(["i64"], ([n]) => new Datetime((n as bigint) * scale));

const part = (get: (c: ReturnType<typeof civilFromNanos>) => number) =>
  fn(["datetime?"], (args, ctx) => BigInt(get(civil(args, ctx))));

export const timeFunctions: BuiltinTable = {
  "time::now": fn([], (_a, ctx) => nowDatetime(ctx)),
  "time::unix": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, NS_PER_S)),
  "time::millis": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, NS_PER_MS)),
  "time::micros": fn(["datetime?"], (args, ctx) => floorDiv(at(args, ctx).nanos, 1_000n)),
  "time::nano": fn(["datetime?"], (args, ctx) => at(args, ctx).nanos),
  "time::format": fn(["datetime", "string"], ([d, f]) => {
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
  "time::from::unix": fromScaled(NS_PER_S),
  "time::from::secs": fromScaled(NS_PER_S),
  "time::from::millis": fromScaled(NS_PER_MS),
  "time::from::micros": fromScaled(1_000n),
  "time::from::nanos": fromScaled(1n),
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
