import { describe, expect, it } from "vitest";
import { SurrealError } from "../../src/errors/index.js";
import {
  DURATION_MAX,
  addDurations,
  durationFromMillis,
  durationFromSeconds,
  durationToMillis,
  durationToSeconds,
  formatDuration,
  parseDuration,
  subDurations,
  tryParseDuration,
} from "../../src/value/duration.js";
import { Duration } from "../../src/value/types.js";

// Expectations observed on SurrealDB 1.5.4 and 2.6.0 (identical in both).
describe("parseDuration / formatDuration", () => {
  const normalised: [string, string][] = [
    ["30d", "4w2d"],
    ["86400s", "1d"],
    ["0ns", "0ns"],
    ["0s", "0ns"],
    ["1y2w3d4h5m6s7ms8us9ns", "1y2w3d4h5m6s7ms8µs9ns"],
    ["1µs", "1µs"],
    ["365d", "1y"],
    ["366d", "1y1d"],
    ["7d", "1w"],
    ["1000ms", "1s"],
    ["90m", "1h30m"],
    ["52w", "52w"],
    ["53w", "1y6d"],
    ["1000000000ns", "1s"],
    ["2d1h", "2d1h"],
    ["584942417355y", "584942417355y"],
  ];
  for (const [input, out] of normalised) {
    it(`${input} → ${out}`, () => expect(formatDuration(parseDuration(input))).toBe(out));
  }

  for (const bad of ["1.5h", "abc", "1h 2m", "1H", "", "-1h", "1mo", "0.5s"]) {
    it(`rejects '${bad}'`, () => {
      expect(tryParseDuration(bad)).toBeUndefined();
      expect(() => parseDuration(bad)).toThrow(SurrealError);
    });
  }

  it("accepts the greek mu too", () => expect(parseDuration("3μs").nanos).toBe(3000n));
  it("rejects durations beyond Rust's Duration::MAX", () => {
    expect(tryParseDuration("584942417356y")).toBeUndefined();
  });
});

describe("conversions and arithmetic", () => {
  it("seconds and millis", () => {
    expect(durationFromSeconds(90).nanos).toBe(90_000_000_000n);
    expect(durationFromSeconds(1.5).nanos).toBe(1_500_000_000n);
    expect(durationFromSeconds(-3).nanos).toBe(0n);
    expect(durationFromMillis(1500).nanos).toBe(1_500_000_000n);
    expect(durationToSeconds(parseDuration("90m"))).toBe(5400);
    expect(durationToSeconds(parseDuration("1s500ms"))).toBe(1.5);
    expect(durationToMillis(parseDuration("1s500ms"))).toBe(1500);
  });
  it("adds and subtracts, reporting overflow and negatives", () => {
    expect(formatDuration(addDurations(parseDuration("1h"), parseDuration("30m"))!)).toBe("1h30m");
    expect(addDurations(DURATION_MAX, new Duration(1n))).toBeUndefined();
    expect(subDurations(parseDuration("1h"), parseDuration("2h"))).toBeUndefined();
    expect(formatDuration(subDurations(parseDuration("2s"), parseDuration("1s"))!)).toBe("1s");
  });
});
