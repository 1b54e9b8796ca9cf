// The embedded import: statement by statement from a stream, stopping at the first failing statement with its place.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ImportError, SurqlAuth } from "../src/index.js";
import { importChunks } from "../src/import.js";

async function failureOf(p: Promise<unknown>): Promise<ImportError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ImportError) return e;
    throw e;
  }
  throw new Error("no ImportError");
}

describe.each([1, 2] as const)("import (compat %i)", (compat) => {
  it("stops at the first failing statement with file:line:column and a caret; the statements before it stay", async () => {
    const db = await SurqlAuth.open({ compat, auth: false });
    const text = "USE NS a DB b;\nCREATE t:1;\n  CREATE t:1; CREATE t:2;\n";
    const e = await failureOf(db.importText(text, "x.surql"));
    expect([e.file, e.line, e.column]).toEqual(["x.surql", 3, 3]);
    expect(e.message).toMatch(/^x\.surql:3:3: Database record `t:1` already exists$/);
    expect(e.snippet).toBe("  CREATE t:1;\n  ^");
    const [res] = await db.connect({ ns: "a", db: "b" }).query("SELECT VALUE id FROM t");
    expect(res!.result).toHaveLength(1);
  });

  it("reports a parse error where it is in the file, with the caret", async () => {
    const db = await SurqlAuth.open({ compat, auth: false });
    const e = await failureOf(db.importText("USE NS a DB b;\nCREATE t:1;\nCREATE t:2 SET = 1;\n", "p.surql"));
    expect(e.line).toBe(3);
    expect(e.column).toBeGreaterThan(1);
    expect(e.snippet).toBe(`CREATE t:2 SET = 1;\n${" ".repeat(e.column - 1)}^`);
  });

  it("runs BEGIN … COMMIT as one block: a failure inside undoes the block and names the failing statement", async () => {
    const db = await SurqlAuth.open({ compat, auth: false });
    const e = await failureOf(db.importText("USE NS a DB b;\nBEGIN;\nCREATE t:1;\nCREATE t:1;\nCOMMIT;\n", "b.surql"));
    expect([e.line, e.column]).toEqual([4, 1]);
    const [res] = await db.connect({ ns: "a", db: "b" }).query("SELECT VALUE id FROM t");
    expect(res!.result).toEqual([]);
  });

  it("reads a file chunk by chunk: every statement runs whatever the chunk size, progress counts them", async () => {
    const db = await SurqlAuth.open({ compat, auth: false });
    const lines = ["USE NS a DB b;"];
    for (let i = 0; i < 50; i++) lines.push(`CREATE t:${i} SET s = 'a;b', n = ${i}; -- ${i};`);
    const text = lines.join("\n");
    const chunks = text.match(/[\s\S]{1,7}/g)!;
    const seen: number[] = [];
    const summary = await importChunks(db.engine, chunks, "c.surql", { onProgress: (n) => seen.push(n) });
    expect(summary).toEqual({ statements: 51, unchanged: 0 });
    expect(seen.at(-1)).toBe(51);
    const [res] = await db.connect({ ns: "a", db: "b" }).query("RETURN count(SELECT * FROM t)");
    expect(res!.result).toBe(50n);
  });

  it("importFile streams the file; an unreadable file is an ImportError", async () => {
    const dir = await mkdtemp(join(tmpdir(), "surql-import-"));
    const file = join(dir, "s.surql");
    await writeFile(file, "USE NS a DB b;\nDEFINE TABLE t SCHEMAFULL;\nDEFINE FIELD n ON t TYPE int;\nCREATE t:1 SET n = 'x';\n");
    const db = await SurqlAuth.open({ compat, auth: false });
    const e = await failureOf(db.importFile(file));
    expect([e.file, e.line, e.column]).toEqual([file, 4, 1]);
    expect((await failureOf(db.importFile(join(dir, "missing.surql")))).message).toBe(`${join(dir, "missing.surql")}:0:0: cannot read file: ENOENT`);
  });
});
