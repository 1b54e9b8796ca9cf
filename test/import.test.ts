// The embedded import: statement by statement from a stream, stopping at the first failing statement with its place.

import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ImportError, SurqlAuth } from "../src/index.js";
import { splitStatements } from "../grammar/split.js";
import { importChunks, importStatements, type BatchPolicy, type ImportBatch } from "../src/import.js";

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

describe("importStatements: batches", () => {
  const texts = (text: string) => splitStatements([text][Symbol.iterator]() as unknown as AsyncIterable<string>);
  /** Imports `text` with a runner that records each batch and answers OK, or ERR for a statement `THROW`ing. */
  async function batches(text: string, policy: Partial<BatchPolicy> = {}) {
    const seen: { kinds: string[]; wrap: boolean; ns?: string; db?: string; option: boolean }[] = [];
    const run = async (b: ImportBatch) => {
      const stmts = b.items.flatMap((i) => i.stmts).filter((s) => !["Begin", "Commit", "Cancel", "Option"].includes(s.kind));
      seen.push({ kinds: b.items.flatMap((i) => i.stmts.map((s) => s.kind)), wrap: b.wrap, ns: b.ns, db: b.db, option: b.option !== undefined });
      const failed = stmts.findIndex((s) => s.kind === "Throw");
      return stmts.map((_, i) => ({ status: failed < 0 || i < failed ? "OK" : i === failed ? "ERR" : "ERR", result: i === failed ? "boom" : i > failed && failed >= 0 ? "The query was not executed due to a failed transaction" : null }));
    };
    const full: BatchPolicy = { statements: 3, bytes: 1 << 20, batchable: (s) => s.kind !== "DefineTable", ...policy };
    let error: ImportError | undefined;
    let summary;
    try {
      summary = await importStatements(texts(text), "f.surql", run, full);
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      error = e;
    }
    return { seen, summary, error };
  }

  it("cuts batches at the statement limit; a statement that is not batchable runs alone and unwrapped", async () => {
    const { seen, summary } = await batches("USE NS a DB b; CREATE t; CREATE t; CREATE t; CREATE t; DEFINE TABLE u; CREATE t;");
    expect(seen.map((b) => [b.kinds.join(","), b.wrap])).toEqual([
      ["Use,Create,Create", true],
      ["Create,Create", true],
      ["DefineTable", false],
      ["Create", false],
    ]);
    expect(summary).toEqual({ statements: 7, unchanged: 0 });
  });

  it("keeps a BEGIN … COMMIT block of the file whole, whatever its length, and unwrapped", async () => {
    const { seen } = await batches("CREATE t; BEGIN; CREATE t; CREATE t; CREATE t; CREATE t; COMMIT; CREATE t;");
    expect(seen.map((b) => [b.kinds.join(","), b.wrap])).toEqual([
      ["Create", false],
      ["Begin,Create,Create,Create,Create,Commit", false],
      ["Create", false],
    ]);
  });

  it("gives each batch the namespace, database and OPTION IMPORT in effect when it starts", async () => {
    const { seen } = await batches("USE NS a DB b; CREATE t; CREATE t; OPTION IMPORT; CREATE t; USE DB c; CREATE t; CREATE t; CREATE t;", { ns: "x", db: "y" });
    expect(seen.map((b) => [b.kinds.join(","), b.ns, b.db, b.option])).toEqual([
      ["Use,Create,Create", "x", "y", false],
      ["Option,Create,Use", "a", "b", false],
      ["Create,Create,Create", "a", "c", true],
    ]);
  });

  it("a failure part-way undoes the batch: what preceded it runs again, then the import stops at the failing statement", async () => {
    const { seen, error } = await batches("CREATE t; CREATE t;\nTHROW 'x'; CREATE t;");
    expect(seen.map((b) => [b.kinds.join(","), b.wrap])).toEqual([
      ["Create,Create,Throw", true],
      ["Create,Create", true],
    ]);
    expect([error?.line, error?.column, error?.reason]).toEqual([2, 1, "boom"]);
  });

  it("runs what preceded a syntax error, then stops at it; inside an open BEGIN block nothing of the block runs", async () => {
    const a = await batches("CREATE t; CREATE t;\nCREATE t SET = 1;");
    expect(a.seen.map((b) => b.kinds.join(","))).toEqual(["Create,Create"]);
    expect(a.error?.line).toBe(2);
    const b = await batches("CREATE t; BEGIN; CREATE t;\nCREATE t SET = 1;");
    expect(b.seen.map((x) => x.kinds.join(","))).toEqual(["Create"]);
    expect(b.error?.line).toBe(2);
  });
});

describe("import in bounded memory", () => {
  it("imports and checks a file whose whole parse does not fit a 96 MB heap (a child process)", async () => {
    // 3,000 statements of 100-element arrays: parsed whole, their syntax trees outgrow the heap (measured: abort)
    const dir = await mkdtemp(join(tmpdir(), "surql-import-mem-"));
    const file = join(dir, "big.surql");
    const array = Array.from({ length: 100 }, (_, i) => i).join(", ");
    const lines = ["USE NS m DB m;", "DEFINE TABLE t SCHEMALESS;"];
    for (let i = 0; i < 3000; i++) lines.push(`UPDATE t:1 SET a = [${array}], n = ${i};`);
    await writeFile(file, lines.join("\n"));
    const script = `
      const { SurqlAuth } = await import(${JSON.stringify(new URL("../src/index.ts", import.meta.url).href)});
      const { checkFiles } = await import(${JSON.stringify(new URL("../src/cli/check.ts", import.meta.url).href)});
      const db = await SurqlAuth.open({});
      const { statements } = await db.importFile(${JSON.stringify(file)});
      const problems = await checkFiles([${JSON.stringify(file)}]);
      console.log(JSON.stringify({ statements, problems: problems.length }));`;
    const child = spawn(process.execPath, ["--max-old-space-size=96", "--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", () => {});
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect([code, out.trim()]).toEqual([0, JSON.stringify({ statements: 3002, problems: 0 })]);
  }, 60_000);
});
