import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseTestFile, TestFileError } from "../../src/cli/test-file.js";
import { junitReport, summaryLine, tapReport, textReport, totals } from "../../src/cli/test-report.js";
import { runTestFile } from "../../src/cli/test.js";
import type { FileResult } from "../../src/cli/test-run.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "surql-rule-test-"));
  await writeFile(join(dir, "schema-v2.surql"), SCHEMA(2));
  await writeFile(join(dir, "schema-v1.surql"), SCHEMA(1));
});

function SCHEMA(compat: 1 | 2): string {
  const access =
    compat === 1
      ? "DEFINE SCOPE account SESSION 1h SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email);"
      : "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email) DURATION FOR SESSION 1h;";
  return `DEFINE NAMESPACE shop; USE NS shop; DEFINE DATABASE main; USE NS shop DB main;
DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update WHERE id = $auth.id;
DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value);
DEFINE INDEX email ON user FIELDS email UNIQUE;
${access}\n`;
}

/** Writes `text` as a test file and runs it. */
async function run(name: string, text: string, compat?: 1 | 2): Promise<FileResult> {
  const file = join(dir, name);
  await writeFile(file, text);
  return runTestFile(file, compat);
}

const parseError = (text: string): TestFileError => {
  try {
    parseTestFile("t.test.surql", text);
  } catch (e) {
    if (e instanceof TestFileError) return e;
    throw e;
  }
  throw new Error("parsed");
};

describe("test files: parse", () => {
  it("reads the header, the steps and their expectations with their places", () => {
    const plan = parseTestFile(
      "t.test.surql",
      `-- @compat 1
-- @schema a.surql
-- @schema b.surql
-- @ns app @db main
-- @allow-guests
DEFINE TABLE t;
-- @as ann = record account signin { email: "a@b.c" }
-- @expect-ok
SELECT * FROM t; -- @expect [1, { a: 2 }]
  SELECT 1
  FROM t;
-- @expect-match [
--   { a: 1 },
-- ]
-- @clock +2h
-- @as ann
RETURN 1;
-- @expect-error "boom"
RETURN 2;
-- @expect-error
RETURN 3;
-- @expect-denied`,
    );
    expect(plan).toMatchObject({ compat: 1, schemas: ["a.surql", "b.surql"], ns: "app", db: "main", allowGuests: true });
    expect(plan.steps.map((s) => [s.kind, s.at.line, s.at.column, s.kind === "clock" ? s.advanceMs : s.expect?.kind])).toEqual([
      ["statement", 6, 1, undefined],
      ["as", 7, 4, "ok"],
      ["statement", 9, 1, "value"],
      ["statement", 10, 3, "value"],
      ["clock", 15, 4, 7_200_000],
      ["as", 16, 4, undefined],
      ["statement", 17, 1, "error"],
      ["statement", 19, 1, "error"],
      ["statement", 21, 1, "denied"],
    ]);
    const [, as, one, two, , back, err, anyErr] = plan.steps;
    expect(as).toMatchObject({ name: "ann", text: `record account signin { email: "a@b.c" }` });
    expect(back).toMatchObject({ name: "ann", spec: undefined });
    expect(one!.kind === "statement" && one.expect).toMatchObject({ kind: "value", mode: "exact", text: "[1, { a: 2 }]" });
    expect(two!.kind === "statement" && two.expect).toMatchObject({ kind: "value", mode: "match" });
    expect(err!.kind === "statement" && err.expect).toEqual({ kind: "error", text: "boom" });
    expect(anyErr!.kind === "statement" && anyErr.expect).toEqual({ kind: "error", text: undefined });
  });

  it("reports each mistake at file:line:column", () => {
    expect(parseError("RETURN 1;\n-- @expekt 1")).toMatchObject({ line: 2, column: 4, reason: "unknown directive @expekt" });
    expect(parseError("-- @expect 1")).toMatchObject({ line: 1, column: 4, reason: "@expect follows no statement or @as" });
    expect(parseError("RETURN 1;\n-- @expect 1\n-- @expect 2")).toMatchObject({ line: 3, reason: expect.stringContaining("second expectation") });
    // a bad value: the column inside it
    expect(parseError("RETURN 1;\n-- @expect [1, }")).toMatchObject({ line: 2, column: 16 });
    // … also on a continuation line of a value spanning lines
    expect(parseError("RETURN 1;\n-- @expect [\n--   1,\n--   ?\n-- ]\n")).toMatchObject({ line: 4, column: 6 });
    // a bad identity: the column inside the spec
    expect(parseError("-- @as viewer@table")).toMatchObject({ line: 1, column: 15, reason: expect.stringContaining("unknown level") });
    expect(parseError("-- @as x = nobody")).toMatchObject({ line: 1, column: 12 });
    // a statement that does not parse
    expect(parseError("RETURN 1;\n\nSELECT * FORM t;")).toMatchObject({ line: 3, column: 10 });
    // a directive swallowed by a statement missing its `;`
    expect(parseError("SELECT * FROM t\n-- @expect []\nRETURN 1;")).toMatchObject({ line: 2, reason: expect.stringContaining("is a `;` missing") });
    expect(parseError("RETURN 1;\n-- @compat 1")).toMatchObject({ reason: "@compat belongs before the first statement" });
    expect(parseError("-- @compat 3")).toMatchObject({ reason: "@compat must be 1 or 2" });
    expect(parseError("RETURN 1;\n-- @clock tomorrow")).toMatchObject({ line: 2, column: 11 });
    expect(parseError("-- @as root\n-- @expect 1")).toMatchObject({ reason: expect.stringContaining("a sign-in has no value") });
    expect(parseError("BEGIN;\nCREATE t;\n-- @expect-ok\nCOMMIT;")).toMatchObject({ line: 3, reason: expect.stringContaining("inside BEGIN … COMMIT") });
    expect(parseError("RETURN 1;\nBEGIN;\nCREATE t;")).toMatchObject({ line: 2, column: 1, reason: "BEGIN without COMMIT or CANCEL" });
    expect(parseError("RETURN 1;\n-- @nope").snippet).toBe("-- @nope\n   ^");
  });
});

const cases = (r: FileResult) => r.cases.map((c) => [c.at.line, c.passed]);

describe.each([1, 2] as const)("test files: run (compat %s)", (compat) => {
  const head = `-- @compat ${compat}\n-- @schema schema-v${compat}.surql\n`;

  it("passes a file whose expectations hold: values, $any, match, denials, errors", async () => {
    const r = await run(
      `pass-${compat}.test.surql`,
      `${head}-- @as ann = record account signup { email: "ann@example.com" }
-- @expect-ok
SELECT id, email FROM user;
-- @expect [{ id: $any, email: "ann@example.com" }]
SELECT * FROM user;
-- @expect-match [{ email: "ann@example.com" }]
-- @as record account signup { email: "bob@example.com" }
SELECT * FROM user WHERE email = "ann@example.com";
-- @expect-denied
-- @as anonymous
SELECT * FROM user;
-- @expect-denied
-- @as record account signup { email: "ann@example.com" }
-- @expect-denied
-- @as record account signup { email: "nope" }
-- @expect-error "signup query failed"
-- @as viewer@db
SELECT VALUE email FROM user ORDER BY email;
-- @expect ["ann@example.com", "bob@example.com"]
RETURN 1 + 1;
-- @expect 2
SELECT * FROM user WHERE email = "ann@example.com";
-- @expect-match [{ email: "ann@example.com", password: $absent }]
`,
    );
    expect(r.error).toBeUndefined();
    // bob's sign-in has no expectation and succeeds: no case
    expect(cases(r)).toEqual([3, 5, 7, 10, 13, 15, 17, 20, 22, 24].map((l) => [l, true]));
    expect(totals([r])).toEqual({ passed: 10, failed: 0, errors: 0 });
    // a denial says how it showed
    expect(r.cases.filter((c) => c.detail?.startsWith("denied:")).map((c) => c.detail)).toEqual([
      "denied: empty result",
      expect.stringContaining("Not enough permissions"),
      expect.stringContaining("signup query failed"),
    ]);
  });

  it("fails cases whose expectations do not hold, with a diff of the values", async () => {
    const r = await run(
      `fail-${compat}.test.surql`,
      `${head}-- @as ann = record account signup { email: "ann@example.com" }
SELECT email FROM user;
-- @expect [{ email: "bob@example.com" }]
SELECT * FROM user;
-- @expect-match [{ email: "ann@example.com", name: "Ann" }]
SELECT * FROM user;
-- @expect-denied
RETURN 1;
-- @expect-error "x"
THROW "boom";
-- @expect-ok
THROW "unexpected";
-- @as user nobody@db pass
-- @as ann
SELECT * FROM user;
-- @expect-match [{ id: $absent, email: $any }]
`,
    );
    expect(cases(r)).toEqual([
      [4, false],
      [6, false],
      [8, false],
      [10, false],
      [12, false],
      [14, false],
      [15, false],
      [17, false],
    ]);
    const [diff, match, denied, error, ok, unexpected, signin, absent] = r.cases.map((c) => c.detail);
    expect(diff).toContain(`the result differs (- expected, + actual):`);
    expect(diff).toContain(`-     email: 'bob@example.com'`);
    expect(diff).toContain(`+     email: 'ann@example.com'`);
    // match: the unlisted fields (id) stay out of the diff
    expect(match).toContain(`-     name: 'Ann'`);
    expect(match).not.toContain("id:");
    expect(denied).toContain("expected a denial");
    expect(error).toContain(`expected an error containing "x", got:`);
    expect(ok).toContain("expected no error, got the error: An error occurred: boom");
    expect(unexpected).toContain("no expectation, so it must succeed");
    expect(signin).toContain("There was a problem with authentication");
    // $absent: the field must not be there; $any shows as itself on both sides
    expect(absent).toMatch(/-\s+id: \$absent\n\s+\+\s+id: user:/);
    expect(absent).toMatch(/\n {8}email: \$any/);
  });

  it("tests expiry with the clock: the session holds until its duration is past", async () => {
    const r = await run(
      `clock-${compat}.test.surql`,
      `${head}-- @as ann = record account signup { email: "ann@example.com" }
-- @clock +59m
SELECT VALUE email FROM user;
-- @expect ["ann@example.com"]
-- @clock +2m
SELECT VALUE email FROM user;
-- @expect-error "The session has expired"
-- a new sign-in at the later time works again
-- @as record account signin { email: "ann@example.com" }
SELECT VALUE email FROM user;
-- @expect ["ann@example.com"]
-- @as ann
RETURN 1;
-- @expect-denied
`,
    );
    expect(r.error).toBeUndefined();
    expect(r.cases.map((c) => c.passed)).toEqual([true, true, true, true]);
  });

  it("runs a BEGIN … COMMIT block as one step; a failed block answers the error that failed it", async () => {
    const r = await run(
      `block-${compat}.test.surql`,
      `-- @compat ${compat}\n-- @ns a @db b
BEGIN;
CREATE t:1;
CREATE t:2;
COMMIT;
-- @expect [{ id: t:2 }]
BEGIN; CREATE t:3; THROW "no"; COMMIT;
-- @expect-error "An error occurred: no"
SELECT VALUE id FROM t;
-- @expect [t:1, t:2]
`,
    );
    expect(r.cases.map((c) => [c.at.line, c.passed, c.name])).toEqual([
      [3, true, "root: BEGIN; CREATE t:1; CREATE t:2; COMMIT;"],
      [8, true, 'root: BEGIN; CREATE t:3; THROW "no"; COMMIT;'],
      [10, true, "root: SELECT VALUE id FROM t;"],
    ]);
  });

  it("runs inline DEFINEs as root before the first @as; a field its rule hides is $absent", async () => {
    const access =
      compat === 1
        ? "DEFINE SCOPE people SESSION 1h SIGNUP (CREATE person SET name = $name, secret = $secret) SIGNIN (SELECT * FROM person WHERE name = $name);"
        : "DEFINE ACCESS people ON DATABASE TYPE RECORD SIGNUP (CREATE person SET name = $name, secret = $secret) SIGNIN (SELECT * FROM person WHERE name = $name);";
    const r = await run(
      `inline-${compat}.test.surql`,
      `-- @compat ${compat}\n-- @ns app @db app
DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select FULL, FOR create, update WHERE id = $auth.id;
DEFINE FIELD secret ON person PERMISSIONS FOR select WHERE id = $auth.id;
${access}
-- @as ann = record people signup { name: "ann", secret: "s1" }
-- @as bob = record people signup { name: "bob", secret: "s2" }
SELECT name, secret FROM person ORDER BY name;
-- @expect [{ name: "ann", secret: $absent }, { name: "bob", secret: "s2" }]
SELECT name, secret FROM person ORDER BY name;
-- @expect [{ name: "ann", secret: "s1" }, { name: "bob", secret: "s2" }]
`,
    );
    expect(r.cases.map((c) => [c.at.line, c.passed])).toEqual([
      [8, true],
      [10, false],
    ]);
    expect(r.cases[1]!.detail).toMatch(/-\s+secret: 's1'\n/);
  });

  it("takes the compat of the flag when the file names none, and the file's over the flag", async () => {
    const text = `-- @schema schema-v${compat}.surql\n-- @as record account signup { email: "a@b.co" }\n-- @expect-ok\n`;
    expect((await run(`flag-${compat}.test.surql`, text, compat)).cases.map((c) => c.passed)).toEqual([true]);
    const other = compat === 1 ? 2 : 1;
    expect((await run(`flag-${compat}.test.surql`, `-- @compat ${compat}\n${text}`, other)).compat).toBe(compat);
  });
});

describe("test files: could not run", () => {
  it("a schema that does not import is a file error at the schema's line", async () => {
    await writeFile(join(dir, "broken.surql"), "USE NS a DB b;\nDEFINE TABLE t;\nCREATE t:1 SET x = <int> 'y';\n");
    const r = await run("broken.test.surql", "-- @schema broken.surql\nRETURN 1;\n");
    expect(r.error).toMatchObject({ file: join(dir, "broken.surql"), line: 3 });
    expect(r.cases).toEqual([]);
  });

  it("a schema outside both the runner's directory and the test file's, or not a regular file, is refused unread (attack pass 8, F4)", async () => {
    for (const [schema, why] of [
      ["../../../../../../../../etc/passwd", "lies outside"],
      ["/etc/passwd", "lies outside"],
      ["/proc/self/environ", "lies outside"],
      ["/dev/zero", "lies outside"],
      ["nowhere.surql", "cannot read file"],
    ] as const) {
      const r = await run("escape.test.surql", `-- @schema ${schema}\nRETURN 1;\n`);
      expect(r.error?.reason, schema).toContain(why);
      // the report quotes no line of the file it refused
      expect(r.error?.snippet ?? "", schema).toBe("");
      expect(r.cases).toEqual([]);
    }
  });

  it("an unreadable test file is a file error", async () => {
    const r = await runTestFile(join(dir, "missing.test.surql"), undefined);
    expect(r.error?.reason).toContain("ENOENT");
  });
});

describe("reporters", () => {
  const results: FileResult[] = [
    {
      file: "a.test.surql",
      compat: 2,
      cases: [
        { name: "ann: SELECT * FROM user;", at: { line: 3, column: 1 }, passed: true, detail: "denied: empty result", ms: 12 },
        { name: `bob: SELECT "<&>" FROM user; # x`, at: { line: 5, column: 1 }, passed: false, detail: "the result differs:\n- 1\n+ 2", ms: 1500 },
      ],
      error: undefined,
    },
    { file: "b.test.surql", compat: 1, cases: [], error: new TestFileError("b.test.surql", 2, 4, "unknown directive @x", "-- @x\n   ^") },
  ];

  it("text: a line per case, the detail under a failure, the summary last", () => {
    expect(textReport(results)).toBe(
      [
        "a.test.surql (compat 2)",
        "  ✓ 3:1 ann: SELECT * FROM user;  (denied: empty result)",
        `  ✗ 5:1 bob: SELECT "<&>" FROM user; # x`,
        "      the result differs:",
        "      - 1",
        "      + 2",
        "b.test.surql (compat 1)",
        "  b.test.surql:2:4: error: unknown directive @x",
        "    -- @x",
        "       ^",
        "1 passed, 1 failed, 1 file(s) could not run",
        "",
      ].join("\n"),
    );
    expect(summaryLine({ passed: 3, failed: 0, errors: 0 })).toBe("3 passed, 0 failed");
  });

  it("TAP 13: a test point per case and per file that could not run, the plan at the end", () => {
    const tap = tapReport(results).split("\n");
    expect(tap[0]).toBe("TAP version 13");
    expect(tap).toContain("ok 1 - a.test.surql:3:1 ann: SELECT * FROM user;");
    expect(tap).toContain(`not ok 2 - a.test.surql:5:1 bob: SELECT "<&>" FROM user; \\# x`);
    expect(tap).toContain("not ok 3 - b.test.surql could not run");
    expect(tap).toContain("1..3");
    expect(tap).toContain("# 1 passed, 1 failed, 1 file(s) could not run");
    // the YAML block under a failure
    const at = tap.indexOf(`not ok 2 - a.test.surql:5:1 bob: SELECT "<&>" FROM user; \\# x`);
    expect(tap.slice(at + 1, at + 8)).toEqual(["  ---", '  at: "a.test.surql:5:1"', "  message: |", "    the result differs:", "    - 1", "    + 2", "  ..."]);
  });

  it("JUnit XML: well-formed, counts, failures and errors escaped", () => {
    const xml = junitReport(results);
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('<testsuites name="surql-auth test" tests="2" failures="1" errors="1">');
    expect(xml).toContain('<testsuite name="a.test.surql" tests="2" failures="1" errors="0">');
    expect(xml).toContain('name="5:1 bob: SELECT &quot;&lt;&amp;&gt;&quot; FROM user; # x" time="1.500"');
    expect(xml).toContain('name="3:1 ann: SELECT * FROM user;" time="0.012"/>');
    expect(xml).toContain('<failure message="the result differs:">the result differs:\n- 1\n+ 2</failure>');
    expect(xml).toContain('<error message="unknown directive @x">');
    expect(wellFormed(xml.replace("&amp;", "&"))).toBe(false);
  });
});

/** A small XML well-formedness check: one root, tags nest and close, attributes quoted, `&` only in entities. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  let roots = 0;
  const re = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    if (m[6] !== undefined) return false;
    const text = m[5] ?? m[3] ?? "";
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) return false;
    if (m[5] !== undefined) {
      if (stack.length === 0 && m[5].trim() !== "") return false;
      continue;
    }
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) {
      if (stack.length === 0) roots++;
      stack.push(m[2]!);
    } else if (stack.length === 0) roots++;
  }
  return stack.length === 0 && roots === 1;
}
