// exec/functions/string.ts: builtins over a long string work a PIECE at a time with a checkpoint of the query's budget
// between pieces (attack pass 11, I5: one string::slug of 8 Mi characters held the event loop for 10 s), and answer as
// the whole-string computation does, across piece boundaries (hyphen runs, surrogate pairs, whitespace runs).

import { describe, expect, it } from "vitest";
import type { Budget } from "../../../src/exec/budget.js";
import anyAscii from "any-ascii";
import { PIECE } from "../../../src/exec/functions/string.js";
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

/** SurrealDB's slug over the whole string at once (the recorded definition: any_ascii, lowercase, runs → '-', trim). */
const wholeSlug = (s: string): string =>
  s
    .replace(/[^\x00-\x7f]+/g, (run) => anyAscii(run))
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-|-$/g, "");

describe("string builtins over a long string (attack pass 11, I5)", () => {
  for (const [name, whole] of [
    ["string::slug", wholeSlug],
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

  it("string::slug and string::reverse answer as over the whole string whatever falls on a piece boundary", async () => {
    // a separator run, a word, a combining mark, an expanding transliteration, a surrogate pair or a lone surrogate
    // before and after the cut
    const sides = ["-", "--", " !", "a", "Z9", "_", "e\u0301", "\u0301", "日本", "😀", "ß", "\ud800", "\udc00", ""];
    for (const left of sides) {
      for (const right of sides) {
        const text = "x".repeat(PIECE - left.length) + left + right + "-y".repeat(PIECE / 2) + left;
        const { ctx, checkpoints } = counting();
        const sluggified = await call("string::slug", [text], 2, ctx);
        expect(sluggified === wholeSlug(text), `slug ${JSON.stringify([left, right])}`).toBe(true);
        expect(checkpoints()).toBeGreaterThanOrEqual(2);
        const reversed = await call("string::reverse", [text], 2, ctx);
        expect(reversed === [...text].reverse().join(""), `reverse ${JSON.stringify([left, right])}`).toBe(true);
      }
    }
  });

  it("string::slug of separators only, across many pieces, is empty", async () => {
    expect(await call("string::slug", [" -".repeat(2 * PIECE)], 2, counting().ctx)).toBe("");
    expect(await call("string::slug", ["-".repeat(2 * PIECE) + "A" + "-".repeat(2 * PIECE)], 2, counting().ctx)).toBe("a");
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
