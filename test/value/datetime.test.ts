import { describe, expect, it } from "vitest";
import {
  DATETIME_MAX_NANOS,
  DATETIME_MIN_NANOS,
  datetimeDiff,
  datetimeInRange,
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

// Attack pass 10, H3: SurrealDB holds datetimes in chrono's range and prints a year past 9999 (or before 0) signed;
// the `d'…'` literal reads that form back (SurrealDB itself cannot), casts keep refusing it as SurrealDB does.
describe("SurrealDB's datetime range and extended years", () => {
  it("the literal reading takes 5- and 6-digit signed years, up to the range's ends", () => {
    const ext = { extended: true };
    expect(formatDatetime(tryParseDatetime("+10014-09-09T00:00:00Z", ext)!)).toBe("+10014-09-09T00:00:00Z");
    expect(formatDatetime(tryParseDatetime("+010014-09-09T00:00:00Z", ext)!)).toBe("+10014-09-09T00:00:00Z");
    expect(formatDatetime(tryParseDatetime("-009973-12-20T00:00:00Z", ext)!)).toBe("-9973-12-20T00:00:00Z");
    expect(formatDatetime(tryParseDatetime("+262142-12-31T23:59:59.999999999Z", ext)!)).toBe("+262142-12-31T23:59:59.999999999Z");
    expect(formatDatetime(tryParseDatetime("-262143-01-01T00:00:00Z", ext)!)).toBe("-262143-01-01T00:00:00Z");
    expect(tryParseDatetime("+262143-01-01T00:00:00Z", ext)).toBeUndefined();
    expect(tryParseDatetime("-262144-12-31T23:59:59Z", ext)).toBeUndefined();
    expect(tryParseDatetime("+1000000-01-01T00:00:00Z", ext)).toBeUndefined();
    expect(tryParseDatetime("10014-09-09T00:00:00Z", ext)).toBeUndefined();
  });

  it("a cast refuses them (SurrealDB 1.5.4 and 2.6.0), but an offset may still carry a 4-digit year past 9999", () => {
    expect(tryParseDatetime("+10014-09-09T00:00:00Z")).toBeUndefined();
    expect(tryParseDatetime("+010014-09-09T00:00:00Z", { compat: 1 })).toBeUndefined();
    expect(formatDatetime(parseDatetime("9999-12-31T23:59:59-23:59"))).toBe("+10000-01-01T23:58:59Z");
  });

  it("datetimeInRange bounds every maker", () => {
    expect(datetimeInRange(DATETIME_MAX_NANOS)).toBeDefined();
    expect(datetimeInRange(DATETIME_MAX_NANOS + 1n)).toBeUndefined();
    expect(datetimeInRange(DATETIME_MIN_NANOS)).toBeDefined();
    expect(datetimeInRange(DATETIME_MIN_NANOS - 1n)).toBeUndefined();
    expect(formatDatetime(datetimeInRange(DATETIME_MAX_NANOS)!)).toBe("+262142-12-31T23:59:59.999999999Z");
    expect(formatDatetime(datetimeInRange(DATETIME_MIN_NANOS)!)).toBe("-262143-01-01T00:00:00Z");
  });
});
