import { describe, expect, it } from "vitest";
import { Datetime } from "../../../src/value/types.js";
import { call } from "./helpers.js";

const d = (iso: string): Datetime => {
  const m = /\.(\d+)Z$/.exec(iso);
  const frac = m ? BigInt(m[1]!.padEnd(9, "0")) : 0n;
  const ms = Date.parse(iso.replace(/\.\d+Z$/, "Z"));
  return new Datetime(BigInt(ms) * 1_000_000n + frac);
};

// string::is::datetime(text, format): chrono's NaiveDateTime::parse_from_str, as SurrealDB 1.5.4 and 2.6.0 answer.
const PARSE: [string, string, boolean][] = [
  ["2024-01-02 03:04", "%Y-%m-%d %H:%M", true],
  ["2024-01-02", "%Y-%m-%d", false],
  ["03:04:05", "%H:%M:%S", false],
  ["2024-1-2 3:4:5", "%Y-%m-%d %H:%M:%S", true],
  ["2024-01-02T03:04:05Z", "%Y-%m-%dT%H:%M:%SZ", true],
  ["2024-01-02T03:04:05+01:00", "%+", true],
  ["2024-01-02T03:04:05", "%FT%T", true],
  ["2024-02-30 03:04:05", "%Y-%m-%d %H:%M:%S", false],
  ["2024-01-02  03:04:05", "%Y-%m-%d %H:%M:%S", true],
  ["2024-01-0203:04:05", "%Y-%m-%d %H:%M:%S", true],
  ["Jan 2 2024 3:04 PM", "%b %d %Y %I:%M %p", true],
  ["1704164645", "%s", true],
  ["2024-01-02 03:04:05.123", "%Y-%m-%d %H:%M:%S%.f", true],
  ["2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S%.f", true],
  ["2024-01-02 24:04:05", "%Y-%m-%d %H:%M:%S", false],
  ["2024-01-02 03:04:60", "%Y-%m-%d %H:%M:%S", true],
  ["2024-001 03:04", "%Y-%j %H:%M", true],
  ["24-01-02 03:04", "%y-%m-%d %H:%M", true],
  ["2024-01-02 03:04:05 +0100", "%Y-%m-%d %H:%M:%S %z", true],
  ["x", "%Q", false],
  ["2024-01-02 03", "%Y-%m-%d %H", false],
  ["Tuesday 2024-01-02 03:04", "%A %Y-%m-%d %H:%M", true],
  ["Monday 2024-01-02 03:04", "%A %Y-%m-%d %H:%M", false],
  ["2024-01-02", "", false],
];

// string::is::datetime(text) in SurrealDB 2.6.0.
const PLAIN: [string, boolean][] = [
  ["2024-01-02T03:04:05Z", true],
  ["2024-01-02", true],
  ["2024-01-02T03:04:05", false],
  ["2024-01-02T03:04:05.123456789Z", true],
  ["2024-01-02T03:04:05+25:00", false],
  ["+2024-01-02T03:04:05Z", true],
  ["2024-01-02T03:04Z", false],
  ["2024-01-02t03:04:05z", false],
  ["2024-01-02 03:04:05Z", false],
];

// time::format, identical in both versions.
const FORMAT: [string, string, string][] = [
  ["2024-01-02T03:04:05.678901Z", "%.f %.6f %6f %9f %.9f", ".678901 .678901 678901 678901000 .678901000"],
  ["2024-01-02T03:04:05.000001Z", "%.f|%+", ".000001|2024-01-02T03:04:05.000001+00:00"],
  ["0099-01-02T03:04:05Z", "%Y %C %y %G", "0099 00 99 0099"],
  ["2024-01-02T13:04:05Z", "%I %l %p %P %r", "01  1 PM pm 01:04:05 PM"],
  ["2024-01-02T03:04:05Z", "%e|%-e|%_d|%0e|%-m|%_H", " 2|2| 2|02|1| 3"],
  ["2024-12-30T03:04:05Z", "%G %g %V %U %W %a %u %w", "2025 25 01 52 53 Mon 1 1"],
  ["2024-01-02T03:04:05Z", "%v %h %n %t", " 2-Jan-2024 Jan \n \t"],
  ["2024-01-02T03:04:05Z", "", ""],
];

describe("strftime (oracle)", () => {
  it.each(PARSE)("is::datetime(%j, %j) → %s", async (text, fmt, expected) => {
    expect(await call("string::is::datetime", [text, fmt], 1)).toBe(expected);
    expect(await call("string::is::datetime", [text, fmt], 2)).toBe(expected);
  });
  it.each(PLAIN)("is::datetime(%j) → %s (v2)", async (text, expected) => {
    expect(await call("string::is::datetime", [text], 2)).toBe(expected);
  });
  it.each(FORMAT)("time::format(%s, %j)", async (iso, fmt, expected) => {
    expect(await call("time::format", [d(iso), fmt], 1)).toBe(expected);
    expect(await call("time::format", [d(iso), fmt], 2)).toBe(expected);
  });
});
