// Every builtin, called with a few argument lists, must fail (or succeed, or be unknown) exactly as
// SurrealDB 1.5.4 and 2.6.0 did; fixtures/arguments.json holds the oracle's answers.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callBuiltin, isBuiltin } from "../../../src/exec/functions/index.js";
import type { Value } from "../../../src/value/types.js";
import { makeCtx } from "./helpers.js";

interface Outcome {
  ok?: true;
  error?: string;
  unknown?: true;
}
interface Row {
  name: string;
  args: string;
  v1: Outcome;
  v2: Outcome;
}

const rows: Row[] = JSON.parse(readFileSync(new URL("./fixtures/arguments.json", import.meta.url), "utf8"));

const ARGS: Record<string, Value[]> = {
  "": [],
  "1,2,3,4,5,6": [1n, 2n, 3n, 4n, 5n, 6n],
  "'x'": ["x"],
  "[], 'x', 'y'": [[], "x", "y"],
  NONE: [undefined],
};

describe.each([1, 2] as const)("argument checking matches SurrealDB (compat %s)", (compat) => {
  it.each(rows.map((r) => [`${r.name}(${r.args})`, r] as const))("%s", async (_label, row) => {
    const expected = compat === 1 ? row.v1 : row.v2;
    if (expected.unknown) {
      expect(isBuiltin(row.name, compat)).toBe(false);
      return;
    }
    expect(isBuiltin(row.name, compat)).toBe(true);
    const ctx = makeCtx(compat, {}, { fetchRecord: async () => undefined, isClosure: () => false });
    let error: string | undefined;
    try {
      await callBuiltin(row.name, ARGS[row.args]!, ctx);
    } catch (e) {
      error = (e as Error).message;
    }
    if (expected.error !== undefined) expect(error).toBe(expected.error);
    else expect(error).toBeUndefined();
  });
});
