import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMatrix } from "../../src/cli/matrix.js";
import { escapeHtml, matrixHtml } from "../../src/cli/matrix-html.js";
import { matrixText } from "../../src/cli/matrix-text.js";
import type { Matrix } from "../../src/iam/matrix/types.js";
import { inApp, matrixOf } from "../iam/matrix/helpers.js";
import { runCli } from "./run.js";

const VOID = new Set(["meta", "br", "hr", "img", "input", "link"]);

/** Every tag closed in order, and no `<` or `&` outside tags and entities: the page is well-formed. */
function assertWellFormed(html: string): void {
  const stack: string[] = [];
  const body = html.replace(/^<!DOCTYPE html>/, "");
  for (const m of body.matchAll(/<(\/?)([a-zA-Z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/g)) {
    const [, close, name] = m as unknown as [string, string, string];
    if (VOID.has(name)) continue;
    if (close) expect(stack.pop(), `</${name}> at ${m.index}`).toBe(name);
    else stack.push(name);
  }
  expect(stack).toEqual([]);
  const text = body.replace(/<(\/?)([a-zA-Z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/g, "");
  expect(text).not.toMatch(/[<>]/);
  expect(text).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
}

const PLANTED = inApp(`DEFINE ACCESS a ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name);
DEFINE TABLE \`<img src=x onerror=alert(1)>\` PERMISSIONS FOR select WHERE name = '<script>alert("x")</script>' AND $auth != NONE;
DEFINE FIELD \`</td><script>\` ON \`<img src=x onerror=alert(1)>\` PERMISSIONS FOR select WHERE "&amp;" = '&';
DEFINE TABLE open PERMISSIONS FULL;`);

describe("matrix rendering", () => {
  it("HTML: a well-formed page that escapes clause text and names", async () => {
    const html = matrixHtml(await matrixOf(PLANTED), ["<evil>.surql"]);
    assertWellFormed(html);
    expect(html).not.toMatch(/<script|<img|<evil/i);
    expect(html).toContain("name = &#39;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; AND $auth != NONE");
    expect(html).toContain("&lt;/td&gt;&lt;script&gt;");
    expect(html).not.toMatch(/src=["']?https?:|<link|@import|url\(/);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("text: control characters in names are not written to the terminal", async () => {
    const text = matrixText(await matrixOf(inApp("DEFINE TABLE `a\u001b[31mb` PERMISSIONS FOR select WHERE x = 'c\u009bd';")));
    expect(text).not.toMatch(/[\u001b\u009b]/);
    expect(text).toContain("a?[31mb");
  });

  it("text: a wide matrix is cut into panels of at most 120 columns", async () => {
    const accesses = Array.from({ length: 9 }, (_, i) => `DEFINE ACCESS access_number_${i} ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM t);`).join("\n");
    const m = await matrixOf(inApp(`${accesses}\nDEFINE TABLE t PERMISSIONS FOR select WHERE owner = $auth;`));
    const text = matrixText(m);
    for (const line of text.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(120);
    expect(text.split("\n").filter((l) => l.trimStart().startsWith("s c u d   ")).length).toBeGreaterThan(1);
    expect(text).toContain("access_number_8");
  });

  it("text: no database, no flags", () => {
    const empty: Matrix = { version: 1, compat: 2, databases: [], flags: [] };
    expect(matrixText(empty)).toContain("no database defined");
    expect(matrixText(empty)).toContain("no risky rules found");
  });
});

// the CLI as a child process: slow on a busy machine
describe("surql-auth matrix", { timeout: 60_000 }, () => {
  it("prints the matrix of schema-v2 with its footnote and flag, within 120 columns", async () => {
    const r = await runCli(["matrix", "examples/schema-v2.surql"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("== namespace app, database app (compat 2)");
    expect(r.stdout).toMatch(/^user \(schemafull\) +✓ ✓ ✓ ✓ +✓ ✓ ✓ ✓ +✓ ✗ ✗\* ✗\* +1 ✗ 1 1 +✗\* ✗ ✗\* ✗\*$/m);
    expect(r.stdout).toContain("[1] table user: id = $auth.id");
    expect(r.stdout).toContain("medium  secret-field  app/app user.password");
    for (const line of r.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(120);
  });

  it("--json for schema-v1 with --compat 1; --fail-on decides the exit code", async () => {
    const r = await runCli(["matrix", "--compat", "1", "--json", "--fail-on", "high", "examples/schema-v1.surql"]);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Matrix;
    expect(m).toMatchObject({ version: 1, compat: 1 });
    expect(m.databases[0]!.identities.map((i) => i.id)).toContain("scope:account");
    expect(m.databases[0]!.tables[0]!.cells["scope:account"]!.select).toEqual({ decision: "conditional", conditions: [{ on: "table", text: "id = $auth.id" }] });
    expect(m.flags.map((f) => f.rule)).toEqual(["secret-field"]);
    const risky = await runCli(["matrix", "--compat", "1", "--fail-on", "risky", "examples/schema-v1.surql"]);
    expect(risky.code).toBe(1);
    expect(risky.stdout).toContain("secret-field");
  });

  it("--html writes the page; --ns / --db choose the database", async () => {
    const dir = await mkdtemp(join(tmpdir(), "surql-matrix-"));
    const schema = join(dir, "s.surql");
    await writeFile(schema, `${PLANTED}\nUSE NS other DB x;\nDEFINE TABLE elsewhere;`);
    const page = join(dir, "m.html");
    const r = await runCli(["matrix", "--html", page, "--ns", "app", schema]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("elsewhere");
    const html = await readFile(page, "utf8");
    assertWellFormed(html);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)");
    expect(html).not.toMatch(/<script/i);
    const other = await runCli(["matrix", "--db", "x", schema]);
    expect(other.stdout).toContain("elsewhere");
    expect(other.stdout).not.toContain("onerror");
  });

  it("usage errors", () => {
    expect(() => parseMatrix([], {})).toThrow("matrix needs at least one FILE");
    expect(() => parseMatrix(["--compat", "3", "x.surql"], {})).toThrow("--compat must be 1 or 2");
    expect(() => parseMatrix(["--fail-on", "sometimes", "x.surql"], {})).toThrow("--fail-on must be");
    expect(parseMatrix(["--fail-on", "medium", "x.surql"], { SURQL_AUTH_COMPAT: "1" })).toMatchObject({ compat: 1, failOn: ["medium", "high"], files: ["x.surql"] });
  });

  it("a usage error or a file that does not load exits 2; --help exits 0", async () => {
    const none = await runCli(["matrix"]);
    expect([none.code, none.stderr]).toEqual([2, "surql-auth: matrix needs at least one FILE\ntry 'surql-auth matrix --help'\n"]);
    const missing = await runCli(["matrix", "no-such-file.surql"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no-such-file.surql");
    const help = await runCli(["matrix", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: surql-auth matrix");
  });
});
