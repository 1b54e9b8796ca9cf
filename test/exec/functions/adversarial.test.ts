// Functions that read client text answer long hostile arguments without super-linear work: string::trim used a
// `\p{White_Space}+$` regex (quadratic on inner runs), string::is::datetime lower-cased the rest of the text per
// month/day-name field. No timings: a quadratic path trips vitest's timeout (bench/adversarial.ts prints figures).
import { describe, expect, it } from "vitest";
import { MiB, datetimeFormats, fill, textFunctions, textInputs } from "../../../bench/adversarial.js";
import { call } from "./helpers.js";

describe("every text function answers 256 KiB hostile arguments (a value or an error)", () => {
  for (const name of textFunctions) {
    it(name, async () => {
      for (const input of textInputs) {
        const answered = await call(name, [input.text(MiB / 4)]).then(
          () => true,
          (e: Error) => e.message.length > 0,
        );
        expect(answered, input.name).toBe(true);
      }
    });
  }
});

describe("the two paths that were quadratic, at 1 MiB, both compats", () => {
  for (const compat of [1, 2] as const) {
    it(`string::trim keeps inner whitespace runs (compat ${compat})`, async () => {
      const inner = fill(" \t\u3000", MiB);
      expect(await call("string::trim", [` \u00a0a${inner}b\n\u2029`], compat)).toBe(`a${inner}b`);
      expect(await call("string::trim", [fill(" ", MiB)], compat)).toBe("");
      expect(await call("string::trim", ["\ufeffa\u0085"], compat)).toBe("\ufeffa"); // U+FEFF is not White_Space, U+0085 is
    });
    it(`string::is::datetime with a long format (compat ${compat})`, async () => {
      for (const f of datetimeFormats) expect(await call("string::is::datetime", [f.text(MiB), f.format(MiB)], compat), f.name).toBe(false);
      expect(await call("string::is::datetime", ["Tuesday 2 January 2024 03:04:05", "%A %e %B %Y %H:%M:%S"], compat)).toBe(true);
    });
  }
});
