// exec/patch.ts: JSON Patch (UPDATE … PATCH) and RETURN DIFF, checked against what SurrealDB 1.5.4 / 2.6.0 answered.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyPatch, diffValues } from "../../src/exec/patch.js";
import { RecordId } from "../../src/value/types.js";
import type { Value, ValueObject } from "../../src/value/types.js";
import { newDs, rootSession, run } from "./helpers.js";

interface Step { sql: string; expect: { ok: unknown } | { err: string }; skip?: string }
interface Run { compat: 1 | 2; version: string; steps: Step[] }
const oracle = JSON.parse(readFileSync(new URL("./patch.oracle.json", import.meta.url), "utf8")) as { runs: Run[] };

describe("UPDATE … PATCH / RETURN DIFF (oracle sessions)", () => {
  oracle.runs.forEach((r, n) => {
    it(`session ${n + 1} as SurrealDB ${r.version}`, async () => {
      const ds = newDs({ compat: r.compat });
      const s = rootSession();
      for (const step of r.steps) {
        const [got] = await run(ds, s, step.sql);
        if (step.skip) continue;
        expect({ sql: step.sql, got }).toEqual({ sql: step.sql, got: step.expect });
      }
    });
  });
});

const E = "The JSON Patch contains invalid operations. ";
// [compat, document, patch, result or error] — from the oracle runs above
const table: [1 | 2, ValueObject, Value, ValueObject | string][] = [
  [2, { a: [1n, 2n] }, [{ op: "add", path: "/a/1", value: 9n }], { a: [1n, 9n, 2n] }],
  [1, { a: [1n, 2n] }, [{ op: "add", path: "/a/1", value: 9n }], { a: [1n, 9n] }],
  [2, { a: [1n] }, [{ op: "add", path: "/a/-", value: 2n }], { a: [1n, 2n] }],
  [1, { a: [1n] }, [{ op: "add", path: "/a/-", value: 2n }], { a: [1n] }],
  [2, { a: [1n] }, [{ op: "add", path: "/a", value: [2n, 3n] }], { a: [1n, 2n, 3n] }],
  [2, { o: { a: 1n } }, [{ op: "add", path: "/o/1", value: 3n }], { o: 3n }],
  [2, { o: { a: 1n } }, [{ op: "add", path: "/o.b/c", value: 3n }], { o: { a: 1n, b: { c: 3n } } }],
  [2, { a: [1n, 2n] }, [{ op: "remove", path: "/a/0" }], { a: [2n] }],
  [2, { n: 1n }, [{ op: "move", from: "/n", path: "/m" }], { m: 1n }],
  [2, { n: 1n }, [{ op: "copy", from: "/x", path: "/m" }], { n: 1n }],
  [1, { n: 1n }, [{ op: "copy", from: "/x", path: "/m" }], { n: 1n, m: undefined }],
  [2, { s: "hello world" }, [{ op: "change", path: "/s", value: "@@ -1,5 +1,5 @@\n-hello\n+HOWDY\n  wor\n" }], { s: "HOWDY world" }],
  [2, { s: "x" }, [{ op: "change", path: "/s", value: "garbage" }], `${E}InvalidInput`],
  [2, { n: 6n }, [{ op: "test", path: "/n", value: 7n }], "Given test operation failed for JSON Patch. Expected `7`, but got `6` instead."],
  [2, {}, [{ op: "test", path: "/n", value: 1n }], "Given test operation failed for JSON Patch. Expected `1`, but got `NONE` instead."],
  [2, {}, { op: "add" }, `${E}Operations must be an array`],
  [2, {}, undefined, `${E}Operations must be an array`],
  [2, {}, [1n], `${E}Operation must be an object`],
  [2, {}, [{ path: "/a" }], `${E}'op' key missing`],
  [2, {}, [{ op: "bogus", path: "/a" }], `${E}unknown op 'bogus'`],
  [2, {}, [{ op: 5n, path: "/a" }], `${E}unknown op '5'`],
  [2, {}, [{ op: "add", value: 1n }], `${E}'path' key missing`],
  [2, {}, [{ op: "add", path: "/a" }], `${E}'value' key missing`],
  [2, {}, [{ op: "move", path: "/a" }], `${E}'from' key missing`],
];

describe("applyPatch", () => {
  it.each(table.map((row, i) => [i, ...row] as const))("row %i", (_i, compat, doc, patch, want) => {
    if (typeof want === "string") expect(() => applyPatch(doc, patch, compat)).toThrow(want);
    else expect(applyPatch(doc, patch, compat)).toEqual(want);
  });
});

describe("diffValues (SurrealDB's Value::diff)", () => {
  it("sorts keys, removes first, walks arrays by index and sends `change` text patches for strings", () => {
    const a = { s: "hello world", arr: [1n, 2n, 3n], gone: true, id: new RecordId("t", 1n) };
    const b = { s: "hello there world", arr: [1n, 5n], id: new RecordId("t", 1n), n: 1n };
    expect(diffValues(a, b)).toEqual([
      { op: "remove", path: "/gone" },
      { op: "replace", path: "/arr/1", value: 5n },
      { op: "remove", path: "/arr/2" },
      { op: "add", path: "/n", value: 1n },
      { op: "change", path: "/s", value: "@@ -1,11 +1,17 @@\n hello \n+there \n world\n" },
    ]);
    // dmp headers always carry the length, as SurrealDB's Rust dmp writes them
    expect(diffValues({ s: "hello there world" }, { s: "x" })).toEqual([{ op: "change", path: "/s", value: "@@ -1,17 +1,1 @@\n-hello there world\n+x\n" }]);
  });
});
