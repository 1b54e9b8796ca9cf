// cli/limits.ts and iam/throttle-limits.ts: the limits file read into throttle settings, flags laid over it, mistakes named.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadThrottleLimits } from "../../src/cli/limits.js";
import { throttleLimitsFromFile } from "../../src/iam/throttle-limits.js";

const dir = mkdtempSync(join(tmpdir(), "limits-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("limits file", () => {
  it("reads the throttle section (durations as text or ms); flags and environment override it", async () => {
    const path = file(
      "ok.json",
      JSON.stringify({ throttle: { signin: { maxFailures: 5, window: "10m", backoffAfter: 2, backoffBase: 500 }, ip: { maxAttempts: 100, window: "2m" } } }),
    );
    expect(await loadThrottleLimits(path, { ipMaxAttempts: 7 })).toEqual({
      signinMaxFailures: 5,
      signinWindowMs: 600_000,
      backoffAfter: 2,
      backoffBaseMs: 500,
      ipMaxAttempts: 7,
      ipWindowMs: 120_000,
    });
    expect(await loadThrottleLimits(undefined, { enabled: false })).toEqual({ enabled: false });
    expect(throttleLimitsFromFile({ throttle: { enabled: false } })).toEqual({ enabled: false });
    expect(throttleLimitsFromFile({})).toEqual({});
  });

  it("names the file and the setting of a mistake; unknown settings are refused", async () => {
    await expect(loadThrottleLimits(file("typo.json", '{"throttle":{"signin":{"maxFailure":3}}}'), {})).rejects.toThrow(/typo\.json: unknown setting throttle\.signin\.maxFailure/);
    await expect(loadThrottleLimits(file("bad.json", '{"throttle":{"ip":{"window":"soon"}}}'), {})).rejects.toThrow("throttle.ip.window must be a duration");
    await expect(loadThrottleLimits(file("neg.json", '{"throttle":{"ip":{"maxAttempts":-1}}}'), {})).rejects.toThrow("throttle.ip.maxAttempts must be a whole number");
    await expect(loadThrottleLimits(file("broken.json", "{"), {})).rejects.toThrow(/cannot read the limits file/);
    await expect(loadThrottleLimits(join(dir, "absent.json"), {})).rejects.toThrow(/ENOENT/);
  });
});
