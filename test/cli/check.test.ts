import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFiles, checkText, formatProblem } from "../../src/cli/check.js";

describe("surql-auth check", () => {
  it("accepts both example schemas", async () => {
    expect(await checkFiles(["examples/schema-v1.surql", "examples/schema-v2.surql"])).toEqual([]);
  });

  it("reports a syntax error with file, line and column", () => {
    const problems = checkText("s.surql", "USE NS a DB b;\nDEFINE TABLE user SCHEMAFULL;\nDEFINE FIELD name ON user TYPO string;\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "s.surql", line: 3 });
    expect(problems[0]!.column).toBeGreaterThan(1);
    expect(formatProblem(problems[0]!)).toMatch(/^s\.surql:3:\d+: error: /);
  });

  it("reports statements that need a namespace or database selected", () => {
    const text = "DEFINE NAMESPACE app;\nDEFINE DATABASE app;\nUSE NS app;\nDEFINE TABLE t;\nUSE DB app;\nDEFINE TABLE u;\n";
    const problems = checkText("x.surql", text);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, "Specify a namespace to use (add a USE statement before this one)"],
      [4, "Specify a database to use (add a USE statement before this one)"],
    ]);
  });

  it("takes --ns / --db for files without USE, as surreal import does (issue #11 §1); the file's own USE still counts", () => {
    const text = "DEFINE DATABASE app;\nDEFINE TABLE t;\n";
    expect(checkText("x.surql", text, 2, { ns: "app", db: "app" })).toEqual([]);
    expect(checkText("x.surql", text, 2, { ns: "app" }).map((p) => [p.line, p.message])).toEqual([[2, "Specify a database to use (add a USE statement before this one)"]]);
    // a USE NS alone leaves no database selected, whatever --db said
    expect(checkText("x.surql", "USE NS other;\nDEFINE TABLE t;\n", 2, { ns: "app", db: "app" })).toHaveLength(1);
  });

  it("honours --compat: 1.x syntax in 1, 2.x syntax in 2", () => {
    expect(checkText("v1.surql", "USE NS a DB b;\nDEFINE SCOPE s SESSION 1h SIGNIN (SELECT * FROM user);\nDEFINE FIELD r ON t TYPE record(user);\n", 1)).toEqual([]);
    expect(checkText("v1.surql", "USE NS a DB b;\nDEFINE FIELD r ON t TYPE record(user);\n", 2)).toHaveLength(1);
    expect(checkText("v2.surql", "USE NS a DB b;\nUPSERT t:1 SET a = 1;\n", 1)[0]).toMatchObject({ line: 2, message: expect.stringContaining("UPSERT is SurrealDB 2.x syntax") });
  });

  it("reports unreadable files instead of throwing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "surql-check-"));
    const ok = join(dir, "ok.surql");
    await writeFile(ok, "DEFINE NAMESPACE a;");
    const problems = await checkFiles([ok, join(dir, "missing.surql")]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain("ENOENT");
  });
});
