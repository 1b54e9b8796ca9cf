// `surql-auth test` as a user runs it: the shipped examples, reporters and exit codes.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "surql-rule-cli-"));
  const schema = join(process.cwd(), "examples/schema-v2.surql");
  await writeFile(
    join(dir, "fail.test.surql"),
    `-- @schema ${schema}\n-- @as ann = record account signup { name: "Ann", email: "ann@example.com", password: "p" }\nSELECT VALUE name FROM user;\n-- @expect ["Anne"]\nSELECT VALUE email FROM user;\n-- @expect ["ann@example.com"]\n`,
  );
  await writeFile(join(dir, "broken.test.surql"), "RETURN 1;\n-- @expect 1\n-- @as nobody\n");
}, 30_000);

describe("surql-auth test (CLI)", () => {
  it("passes on the shipped examples, finding only *.test.surql files (exit 0)", async () => {
    const r = await runCli(["test", "examples"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const headers = r.stdout.split("\n").filter((l) => /^\S/.test(l));
    expect(headers).toEqual(["examples/tests/schema-v1.test.surql (compat 1)", "examples/tests/schema-v2.test.surql (compat 2)", expect.stringMatching(/^\d+ passed, 0 failed$/)]);
    expect(r.stdout).not.toContain("✗");
    expect(r.stdout).toContain("✓ 28:1 anonymous: SELECT * FROM user;  (denied: IAM error: Not enough permissions to perform this action)");
  }, 60_000);

  it("a failing case: TAP with the diff, exit 1", async () => {
    const r = await runCli(["test", "--reporter", "tap", join(dir, "fail.test.surql")]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("TAP version 13");
    expect(lines).toContain(`not ok 1 - ${join(dir, "fail.test.surql")}:3:1 ann: SELECT VALUE name FROM user;`);
    expect(lines).toContain(`ok 2 - ${join(dir, "fail.test.surql")}:5:1 ann: SELECT VALUE email FROM user;`);
    expect(r.stdout).toMatch(/\n\s+- +'Anne'\n\s+\+ +'Ann'\n/);
    expect(lines).toContain("1..2");
    expect(lines).toContain("# 1 passed, 1 failed");
  }, 60_000);

  it("a failing case: JUnit XML, exit 1", async () => {
    const r = await runCli(["test", "--reporter=junit", join(dir, "fail.test.surql")]);
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="surql-auth test" tests="2" failures="1" errors="0">')).toBe(true);
    expect(r.stdout).toContain("<failure message=");
    expect(r.stdout.trimEnd().endsWith("</testsuites>")).toBe(true);
  }, 60_000);

  it("a mistake in a test file: file:line:column, exit 2; the other files still run", async () => {
    const r = await runCli(["test", join(dir, "broken.test.surql"), join(dir, "fail.test.surql")]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`${join(dir, "broken.test.surql")}:3:8: error: unknown identity 'nobody'`);
    expect(r.stdout).toMatch(/1 passed, 1 failed, 1 file\(s\) could not run\n$/);
  }, 60_000);

  it("usage mistakes exit 2 with a hint; help exits 0", async () => {
    const bad = await runCli(["test", "--reporter", "xml", "examples"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("surql-auth: --reporter must be text, tap or junit, not 'xml'\ntry 'surql-auth test --help'\n");
    const help = await runCli(["help", "test"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: surql-auth test [options] [FILE|DIR]...");
  }, 60_000);
});
