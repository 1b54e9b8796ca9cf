// exec/functions/string.ts: builtins over a long string work a PIECE at a time with a checkpoint of the query's budget
// between pieces (attack pass 11, I5: one string::slug of 8 Mi characters held the event loop for 10 s), and answer as
// the whole-string computation does, across piece boundaries (hyphen runs, surrogate pairs, whitespace runs).

import { describe, expect, it } from "vitest";
import type { Budget } from "../../../src/exec/budget.js";
import { PIECE, slug } from "../../../src/exec/functions/string.js";
import { MAX_TIME_FORMAT } from "../../../src/exec/functions/time.js";
import { Datetime } from "../../../src/value/types.js";
import { call, errorOf, makeCtx } from "./helpers.js";

/** A context whose budget counts its checkpoints. */
function counting(): { ctx: ReturnType<typeof makeCtx>; checkpoints: () => number } {
  let n = 0;
  const budget = { checkpointNow: () => void n++ } as unknown as Budget;
  return { ctx: makeCtx(2, {}, { budget }), checkpoints: () => n };
}

// hyphen runs and a surrogate pair straddle the piece boundaries
const LONG = ("aB c-" + "-".repeat(7) + "😀é ").repeat(Math.ceil((3 * PIECE) / 16));

describe("string builtins over a long string (attack pass 11, I5)", () => {
  for (const [name, whole] of [
    ["string::slug", (s: string) => slug(s)],
    ["string::reverse", (s: string) => [...s].reverse().join("")],
    ["string::html::encode", (s: string) => s.replace(/[ <>&"'`/=\t\n\f\r\0]/g, (c) => `&#${c === "\0" ? 65533 : c.charCodeAt(0)};`)],
  ] as const) {
    it(`${name} checkpoints once a piece and answers as over the whole string`, async () => {
      const { ctx, checkpoints } = counting();
      const out = await call(name, [LONG], 2, ctx);
      expect(checkpoints()).toBeGreaterThanOrEqual(Math.floor(LONG.length / PIECE));
      if (name !== "string::html::encode") expect(out).toBe(whole(LONG));
      else expect(String(out).length).toBeGreaterThan(LONG.length);
    });
  }

  it("string::replace checkpoints once a piece and answers as replaceAll over the whole string ($ kept literal)", async () => {
    for (const [search, repl] of [["-", "$&x"], ["😀", "="], ["--", ""], ["c-", "c-c-"]] as const) {
      const { ctx, checkpoints } = counting();
      const out = await call("string::replace", [LONG, search, repl], 2, ctx);
      expect(out).toBe(LONG.split(search).join(repl));
      expect(checkpoints()).toBeGreaterThanOrEqual(Math.floor(LONG.length / PIECE) - 1);
    }
  });

  it("string::slug keeps SurrealDB's answer for short strings (no checkpoint)", async () => {
    const { ctx, checkpoints } = counting();
    expect(await call("string::slug", ["--Héllo,  Wörld!--"], 2, ctx)).toBe("hello-world");
    expect(checkpoints()).toBe(0);
  });

  it("string::split and string::words checkpoint as they cut a long string, with the short-string answers", async () => {
    for (const [name, args, whole] of [
      ["string::split", [LONG, "-"], LONG.split("-")],
      ["string::words", [LONG], LONG.split(/\p{White_Space}+/u).filter((w) => w !== "")],
    ] as const) {
      const { ctx, checkpoints } = counting();
      expect(await call(name, [...args], 2, ctx)).toEqual(whole);
      expect(checkpoints()).toBeGreaterThanOrEqual(2);
    }
  });

  it("string::split on '' refuses an array past the value size before making it", async () => {
    expect(await errorOf("string::split", ["a".repeat(2 * 1024 * 1024), ""])).toMatch(/The value is too large/);
  });

  it("string::len / slice count code points without making them; replace keeps `$` literal", async () => {
    expect(await call("string::len", ["a😀b"])).toBe(3n);
    expect(await call("string::slice", ["a😀bcd", 1, 2])).toBe("😀b");
    expect(await call("string::slice", ["a😀bcd", -2])).toBe("cd");
    expect(await call("string::slice", ["a😀bcd", 9])).toBe("");
    expect(await call("string::replace", ["a-b-c", "-", "$&$$"])).toBe("a$&$$b$&$$c");
  });

  it("time::format refuses a format string past MAX_TIME_FORMAT before formatting", async () => {
    const d = new Datetime(0n);
    expect(await call("time::format", [d, "%Y".repeat(MAX_TIME_FORMAT / 2)])).toHaveLength(2 * MAX_TIME_FORMAT);
    expect(await errorOf("time::format", [d, "%Y".repeat(MAX_TIME_FORMAT / 2) + "x"])).toBe(
      `Incorrect arguments for function time::format(). Format string must not exceed ${MAX_TIME_FORMAT} characters.`,
    );
  });
});
