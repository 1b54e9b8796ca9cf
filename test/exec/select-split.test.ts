// exec/statements/select-split: rows split per element of each path in turn; non-array values and VALUE rows as SurrealDB keeps them.

import { describe, expect, it } from "vitest";
import { splitRows } from "../../src/exec/statements/select-split.js";
import { parse } from "../../grammar/index.js";
import type { SelectStatement } from "../../src/ast/nodes.js";
import { newDs, rootSession, run } from "./helpers.js";

const split = (text: string) => (parse(`SELECT * FROM t SPLIT ${text}`)[0] as SelectStatement).split!;
const ctx = { budget: { checkpoint: () => undefined } } as never;

describe("splitRows", () => {
  it("multiplies by each path in turn, drops a row on an empty array, keeps a non-array value", async () => {
    const rows = [{ out: { a: [1, 2], b: ["x", "y"] } }, { out: { a: [], b: ["z"] } }, { out: { a: 3 } }];
    const out = await splitRows(rows, split("a, b"), ctx);
    expect(out.map((r) => r.out)).toEqual([{ a: 1, b: "x" }, { a: 1, b: "y" }, { a: 2, b: "x" }, { a: 2, b: "y" }, { a: 3 }]);
  });
  it("splits a nested path, and keeps a VALUE row (an array one once per element)", async () => {
    expect((await splitRows([{ out: { p: { c: ["u", "v"] } } }], split("p.c"), ctx)).map((r) => r.out)).toEqual([{ p: { c: "u" } }, { p: { c: "v" } }]);
    expect((await splitRows([{ out: ["x", "y"] }, { out: [] }, { out: "w" }], split("tags"), ctx)).map((r) => r.out)).toEqual([["x", "y"], ["x", "y"], "w"]);
  });
});

describe("SELECT … SPLIT with START", () => {
  for (const compat of [1, 2] as const) {
    it(`START counts ${compat === 2 ? "records before" : "rows after"} the split without ORDER BY (compat ${compat})`, async () => {
      const ds = newDs({ compat });
      const out = await run(ds, rootSession(), "CREATE t:1 SET n = [1, 2]; CREATE t:2 SET n = [3]; SELECT VALUE n FROM (SELECT n FROM t SPLIT n START 1)");
      expect(out[2]).toEqual({ ok: compat === 2 ? [3] : [2, 3] });
    });
  }
});
