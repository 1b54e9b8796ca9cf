import { describe, expect, it } from "vitest";
import {
  datetimeDiff,
  datetimeFromMillis,
  datetimeFromSeconds,
  datetimeToMillis,
  datetimeToSeconds,
  formatDatetime,
  parseDatetime,
  tryParseDatetime,
} from "../../src/value/datetime.js";

// `<datetime>"…"` then `<string>` on SurrealDB 1.5.4 and 2.6.0.
describe("parseDatetime / formatDatetime", () => {
  const cases: [string, string][] = [
    ["2024-01-01", "2024-01-01T00:00:00Z"],
    ["2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z"],
    ["2024-01-01T10:00:00+02:00", "2024-01-01T08:00:00Z"],
    ["2024-01-01T10:00:00-00:00", "2024-01-01T10:00:00Z"],
    ["2024-01-01T10:00:00.123456789Z", "2024-01-01T10:00:00.123456789Z"],
    ["2024-01-01T10:00:00.120Z", "2024-01-01T10:00:00.120Z"],
    ["2024-01-01T10:00:00.5Z", "2024-01-01T10:00:00.500Z"],
    ["2024-01-01T10:00:00.000001Z", "2024-01-01T10:00:00.000001Z"],
    ["2024-01-01T10:00:00.000000001Z", "2024-01-01T10:00:00.000000001Z"],
    ["2024-01-01T10:00:00.123456789+01:00", "2024-01-01T09:00:00.123456789Z"],
    ["1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"],
    ["-0001-01-01T00:00:00Z", "-0001-01-01T00:00:00Z"],
    ["0099-01-01T00:00:00.000001Z", "0099-01-01T00:00:00.000001Z"],
    ["2024-02-29", "2024-02-29T00:00:00Z"],
  ];
  for (const [input, out] of cases) {
    it(`${input} → ${out}`, () => expect(formatDatetime(parseDatetime(input))).toBe(out));
  }

  const rejected = [
    "nope",
    "2024-01-01T10:00:00",
    "2024-01-01T10:00Z",
    "2024-01-01 10:00:00Z",
    "2024-01-01t10:00:00z",
    "+10000-01-01T00:00:00Z",
    "2024-02-30",
    "2023-02-29",
    "2024-01-01T24:00:00Z",
    "2024-01-01T23:59:60Z",
    "2024-01-01T10:00:00,5Z",
    "2024-1-1",
    "2024-01-01T10:00:00+0200",
    "2024-01-01T10:00:00+02",
  ];
  for (const bad of rejected) it(`rejects ${bad}`, () => expect(tryParseDatetime(bad)).toBeUndefined());

  it("more than 9 fraction digits: 2.x rejects, 1.x truncates", () => {
    const text = "2024-01-01T10:00:00.1234567891Z";
    expect(tryParseDatetime(text)).toBeUndefined();
    expect(formatDatetime(parseDatetime(text, { compat: 1 }))).toBe("2024-01-01T10:00:00.123456789Z");
  });
});

describe("epoch conversions", () => {
  it("seconds and millis, floored for instants before 1970", () => {
    expect(datetimeToSeconds(parseDatetime("2024-01-01"))).toBe(1704067200);
    expect(datetimeToMillis(parseDatetime("1969-12-31T23:59:59.5Z"))).toBe(-500);
    expect(datetimeToSeconds(parseDatetime("1969-12-31T23:59:59.5Z"))).toBe(-1);
    expect(formatDatetime(datetimeFromMillis(1704067200123))).toBe("2024-01-01T00:00:00.123Z");
    expect(formatDatetime(datetimeFromSeconds(1704067200))).toBe("2024-01-01T00:00:00Z");
    expect(formatDatetime(datetimeFromMillis(-1))).toBe("1969-12-31T23:59:59.999Z");
  });
  it("difference of two datetimes", () => {
    expect(datetimeDiff(parseDatetime("2024-01-02"), parseDatetime("2024-01-01")).nanos).toBe(86_400_000_000_000n);
  });
});
