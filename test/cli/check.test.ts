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

  it("reports unreadable files instead of throwing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "surql-check-"));
    const ok = join(dir, "ok.surql");
    await writeFile(ok, "DEFINE NAMESPACE a;");
    const problems = await checkFiles([ok, join(dir, "missing.surql")]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain("ENOENT");
  });
});
