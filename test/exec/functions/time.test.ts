import { describe, expect, it } from "vitest";
import { isBuiltin } from "../../../src/exec/functions/index.js";
import { Datetime, Duration, Uuid, type Value } from "../../../src/value/types.js";
import { FIXED_MS, call, errorOf } from "./helpers.js";

const d = (iso: string): Datetime => {
  const m = /\.(\d+)Z$/.exec(iso);
  const frac = m ? BigInt(m[1]!.padEnd(9, "0")) : 0n;
  const ms = Date.parse(iso.replace(/\.\d+Z$/, "Z"));
  return new Datetime(BigInt(ms) * 1_000_000n + frac);
};
const H = 3_600_000_000_000n;
const T = d("2024-01-02T03:04:05.678Z");

// Expected values from SurrealDB 1.5.4 and 2.6.0 (identical).
const TABLE: [string, Value[], Value][] = [
  ["time::unix", [T], 1704164645n],
  ["time::millis", [T], 1704164645678n],
  ["time::micros", [T], 1704164645678000n],
  ["time::nano", [T], 1704164645678000000n],
  ["time::unix", [d("1969-12-31T23:59:59.5Z")], -1n],
  ["time::millis", [d("1969-12-31T23:59:59.5Z")], -500n],
  ["time::floor", [T, new Duration(H)], d("2024-01-02T03:00:00Z")],
  ["time::floor", [T, new Duration(7n * 24n * H)], d("2023-12-28T00:00:00Z")],
  ["time::round", [d("2024-01-02T03:34:05.678Z"), new Duration(H)], d("2024-01-02T04:00:00Z")],
  ["time::round", [T, new Duration(7n * 24n * H)], d("2024-01-04T00:00:00Z")],
  ["time::floor", [T, new Duration(0n)], T],
  ["time::floor", [d("1969-12-31T23:59:59.5Z"), new Duration(1_000_000_000n)], d("1969-12-31T23:59:59Z")],
  ["time::day", [T], 2n],
  ["time::hour", [T], 3n],
  ["time::minute", [T], 4n],
  ["time::second", [T], 5n],
  ["time::month", [T], 1n],
  ["time::year", [T], 2024n],
  ["time::wday", [d("2024-01-07T03:04:05.678Z")], 7n],
  ["time::yday", [d("2024-12-31T03:04:05.678Z")], 366n],
  ["time::week", [d("2024-12-31T03:04:05.678Z")], 1n],
  ["time::group", [T, "hour"], d("2024-01-02T03:00:00Z")],
  ["time::from::unix", [1704164645n], d("2024-01-02T03:04:05Z")],
  ["time::from::millis", [1704164645678n], T],
  ["time::from::secs", [1704164645n], d("2024-01-02T03:04:05Z")],
  ["time::from::micros", [1704164645678901n], d("2024-01-02T03:04:05.678901Z")],
  ["time::from::nanos", [1704164645678901234n], d("2024-01-02T03:04:05.678901234Z")],
  ["time::from::unix", [-1n], d("1969-12-31T23:59:59Z")],
  ["time::from::millis", [-1n], d("1969-12-31T23:59:59.999Z")],
  ["time::max", [[d("2024-01-02T03:04:05Z"), d("2025-01-02T03:04:05Z")]], d("2025-01-02T03:04:05Z")],
  ["time::min", [[d("2024-01-02T03:04:05Z"), d("2025-01-02T03:04:05Z")]], d("2024-01-02T03:04:05Z")],
  [
    "time::format",
    [T, "%Y-%m-%d %H:%M:%S%.f %a %A %b %B %j %e %+ %s %Z %z %:z %U %W %V %G %u %w %I %p %c %D %F %T %R %r %x %X %C %y %k %l %P %f %3f %.3f %% %-d %_m"],
    "2024-01-02 03:04:05.678 Tue Tuesday Jan January 002  2 2024-01-02T03:04:05.678+00:00 1704164645 UTC +0000 +00:00 00 01 01 2024 2 2 03 AM Tue Jan  2 03:04:05 2024 01/02/24 2024-01-02 03:04:05 03:04 03:04:05 AM 01/02/24 03:04:05 20 24  3  3 am 678000000 678 .678 % 2  1",
  ],
  ["time::format", [d("2024-01-02T03:04:05Z"), "%.f|%+"], "|2024-01-02T03:04:05+00:00"],
];

describe("time:: (oracle, both versions)", () => {
  it.each(TABLE)("%s #%#", async (name, args, expected) => {
    expect(await call(name, args, 2)).toEqual(expected);
    expect(await call(name, args, 1)).toEqual(expected);
  });
  it("now and argument-less parts read ctx.clock", async () => {
    expect(await call("time::now", [])).toEqual(new Datetime(BigInt(FIXED_MS) * 1_000_000n));
    expect(await call("time::unix", [])).toBe(BigInt(Math.floor(FIXED_MS / 1000)));
    expect(await call("time::day", [])).toBe(2n);
    expect(await call("time::millis", [])).toBe(BigInt(FIXED_MS));
  });
  it("v2 only: from::uuid, is::leap_year", async () => {
    expect(await call("time::from::uuid", [new Uuid("0190d8d4-2d4f-7a5c-b000-000000000000")])).toEqual(d("2024-07-22T05:05:02.287Z"));
    expect(await call("time::is::leap_year", [T])).toBe(true);
    expect(isBuiltin("time::from::uuid", 1)).toBe(false);
  });
  it("errors", async () => {
    expect(await errorOf("time::now", [1n])).toBe("Incorrect arguments for function time::now(). Expected no arguments.");
    expect(await errorOf("time::day", ["x"])).toBe(
      "Incorrect arguments for function time::day(). Argument 1 was the wrong type. Expected a datetime but found 'x'",
    );
    expect(await errorOf("time::format", ["x", "%Y"])).toBe(
      "Incorrect arguments for function time::format(). Argument 1 was the wrong type. Expected a datetime but found 'x'",
    );
    expect(await errorOf("time::floor", [T, "1h"])).toBe(
      "Incorrect arguments for function time::floor(). Argument 2 was the wrong type. Expected a duration but found '1h'",
    );
    expect(await errorOf("time::from::unix", [1.5])).toBe(
      "Incorrect arguments for function time::from::unix(). Argument 1 was the wrong type. Expected a i64 but found 1.5f",
    );
    expect(await errorOf("time::from::unix", ["1"])).toBe(
      "Incorrect arguments for function time::from::unix(). Argument 1 was the wrong type. Expected a i64 but found '1'",
    );
  });
});

// Attack pass 10, H3: datetimes are held to chrono's range (±262,142 years) where a function makes one, with
// 2.6.0's and 1.5.4's words (oracle); a datetime outside it printed an export that no import could read.
describe("time:: held to SurrealDB's datetime range", () => {
  const MAX_S = 8210266876799n; // +262142-12-31T23:59:59Z
  const MIN_S = -8334601228800n; // -262143-01-01T00:00:00Z
  const v2 = (fn: string, unit: string) =>
    `Incorrect arguments for function ${fn}(). The argument must be a number of ${unit} relative to January 1, 1970 0:00:00 UTC that produces a datetime between -262143-01-01T00:00:00Z and +262142-12-31T23:59:59Z.`;
  const v1 = (fn: string, unit: string) =>
    `Incorrect arguments for function ${fn}(). The first argument must be an in-bounds number of ${unit} relative to January 1, 1970 0:00:00 UTC.`;

  it.each([
    ["time::from::secs", 1n, "seconds"],
    ["time::from::unix", 1n, "seconds"],
    ["time::from::millis", 1000n, "milliseconds"],
    ["time::from::micros", 1_000_000n, "microseconds"],
  ] as const)("%s: the range's ends are made, one unit past them is refused", async (fn, perSec, unit) => {
    expect(await call(fn, [MAX_S * perSec])).toEqual(new Datetime(MAX_S * 1_000_000_000n));
    expect(await call(fn, [MIN_S * perSec], 1)).toEqual(new Datetime(MIN_S * 1_000_000_000n));
    expect(await errorOf(fn, [(MAX_S + 1n) * perSec])).toBe(v2(fn, unit));
    expect(await errorOf(fn, [MIN_S * perSec - 1n])).toBe(v2(fn, unit));
    expect(await errorOf(fn, [9223372036854775807n], 1)).toBe(v1(fn, unit));
  });

  it("time::from::nanos takes every i64 (1677–2262)", async () => {
    expect(await call("time::from::nanos", [9223372036854775807n])).toEqual(new Datetime(9223372036854775807n));
  });

  it("time::nano is 0 past i64 nanoseconds; floor / round refuse a datetime or a duration past them", async () => {
    for (const compat of [1, 2] as const) {
      expect(await call("time::nano", [d("2300-01-01T00:00:00Z")], compat)).toBe(0n);
      expect(await call("time::nano", [d("1600-01-01T00:00:00Z")], compat)).toBe(0n);
      const msg = (fn: string) => `Incorrect arguments for function ${fn}(). The second argument must be a duration, and must be able to be represented as nanoseconds.`;
      expect(await errorOf("time::floor", [d("2300-01-01T00:00:00Z"), new Duration(H)], compat)).toBe(msg("time::floor"));
      expect(await errorOf("time::round", [new Datetime(MIN_S * 1_000_000_000n), new Duration(H)], compat)).toBe(msg("time::round"));
      // 293 years of nanoseconds do not fit an i64 (292 do)
      expect(await errorOf("time::floor", [T, new Duration(293n * 365n * 24n * H)], compat)).toBe(msg("time::floor"));
      expect(await call("time::floor", [T, new Duration(292n * 365n * 24n * H)], compat)).toEqual(d("1970-01-01T00:00:00Z"));
    }
  });

  it("time::format pads a year outside 0–9999 to four digits after its sign, as chrono", async () => {
    expect(await call("time::format", [d("0000-05-05T00:00:01Z"), "%Y"])).toBe("0000");
    expect(await call("time::format", [d("-000001-05-05T00:00:01Z"), "%Y"])).toBe("-0001");
    expect(await call("time::format", [new Datetime(MAX_S * 1_000_000_000n), "%Y"], 1)).toBe("+262142");
  });

  it("rand::time refuses bounds past the range (each version's words; 1.5.4 takes 1 … 8210298412799 and panics past the range)", async () => {
    const msg =
      "Incorrect arguments for function rand::time(). To generate a random time, the 2 arguments must be numbers between -8334601228800 and 8210266876799 seconds from the UNIX epoch or a 'datetime' within the range d'-262143-01-01T00:00:00Z' and +262142-12-31T23:59:59Z'.";
    const v1msg = "Incorrect arguments for function rand::time(). To generate a time between X and Y seconds, the 2 arguments must be positive numbers and no higher than 8210298412799.";
    for (const compat of [1, 2] as const) expect(await call("rand::time", [MAX_S, MAX_S], compat)).toEqual(new Datetime(MAX_S * 1_000_000_000n));
    expect(await call("rand::time", [MIN_S, MIN_S])).toEqual(new Datetime(MIN_S * 1_000_000_000n));
    expect(await errorOf("rand::time", [MIN_S - 1n, 0n])).toBe(msg);
    expect(await errorOf("rand::time", [0n, MAX_S + 1n])).toBe(msg);
    expect(await errorOf("rand::time", [0n, 0n], 1)).toBe(v1msg);
    expect(await errorOf("rand::time", [1n, MAX_S + 1n], 1)).toBe(v1msg);
  });
});
