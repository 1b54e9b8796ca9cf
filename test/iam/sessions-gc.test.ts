// The session registry's sync timer holds its registry weakly: an engine dropped without close() is collected
// (a strong hold kept every engine a fuzz run opened alive, and the noninterference run ran out of memory).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("session registry timer", () => {
  it("does not keep a dropped engine alive", () => {
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "fixtures/dropped-engine.ts")], { encoding: "utf8", timeout: 60_000 });
    expect(out.trim()).toBe("collected");
  });
});
