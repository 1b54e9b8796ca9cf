// CLI `import`: streamed in batches, each a transaction; stops at the first failing statement with file:line:column
// and a caret; progress on stderr.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { Progress, progressBar, progressLine } from "../../src/cli/progress.js";
import { runCli } from "./run.js";

describe.each([1, 2] as const)("surql-auth import (compat %i)", (compat) => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    const l = await db.listen("127.0.0.1", 0);
    server = l.server;
    base = `http://127.0.0.1:${l.port}`;
    dir = await mkdtemp(join(tmpdir(), "surql-cli-import-"));
  });
  afterAll(() => server.close());

  const ids = async (ns: string, table: string) => {
    const conn = db.connect();
    await conn.signin({ user: "root", pass: "root" });
    await conn.use(ns, "d");
    const [res] = await conn.query(`SELECT VALUE meta::id(id) FROM (SELECT id FROM ${table} ORDER BY id)`);
    return res!.result;
  };

  it("imports a large file in batches (USE switches databases between them) and sums it up", async () => {
    const lines = ["USE NS big DB d;"];
    for (let i = 0; i < 1200; i++) lines.push(`CREATE t:${i} SET s = 'x;${i}'; -- row ${i};`);
    lines.push("BEGIN TRANSACTION;", "CREATE u:1;", "CREATE u:2;", "COMMIT TRANSACTION;", "USE NS other DB d;", "CREATE v:1;");
    const file = join(dir, "big.surql");
    await writeFile(file, lines.join("\n"));
    const r = await runCli(["import", "-e", base, "-u", "root", "-p", "root", "--ns", "big", "--db", "d", file]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^imported 1,205 statements in \d+\.\d s \([\d,]+\/s\)\n$/);
    expect(await ids("big", "t")).toHaveLength(1200);
    expect(await ids("big", "u")).toEqual([1n, 2n]);
    expect(await ids("other", "v")).toEqual([1n]);
  }, 180_000);

  it("stops at the first failing statement with file:line:column and the caret; what came before stays, nothing after", async () => {
    const file = join(dir, "bad.surql");
    await writeFile(file, "USE NS bad DB d;\nCREATE t:1;\nCREATE t:2;\n  CREATE t:1;\nCREATE t:3;\n");
    const r = await runCli(["import", "-e", base, "-u", "root", "-p", "root", "--ns", "bad", "--db", "d", file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${file}:4:3: error: Database record \`t:1\` already exists\n    CREATE t:1;\n    ^\nsurql-auth: import stopped at the first failing statement; 3 statement(s) before it were imported\n`,
    );
    expect(await ids("bad", "t")).toEqual([1n, 2n]);
    // a parse error: where it is, and nothing of the file runs past it
    await writeFile(file, "USE NS bad DB d;\nCREATE t:5;\nCREATE t:6 SET = 1;\n");
    const p = await runCli(["import", "-e", base, "-u", "root", "-p", "root", "--ns", "bad", "--db", "d", file]);
    expect(p.code).toBe(1);
    expect(p.stderr).toMatch(new RegExp(`^${file.replace(/[.]/g, "\\.")}:3:16: error: Parse error: .*\\n  CREATE t:6 SET = 1;\\n {17}\\^\\n.*; 2 statement\\(s\\) before it were imported\\n$`));
    expect(await ids("bad", "t")).toEqual([1n, 2n, 5n]);
  }, 180_000);
});

describe("import progress", () => {
  const state = { statements: 12_345, bytes: 50, totalBytes: 200, elapsedMs: 2000 };
  it("draws a bar with the share read, the statements and the rate; without a size no bar", () => {
    expect(progressBar(state)).toBe(`[${"#".repeat(8)}${"-".repeat(22)}]  25%  12,345 statements  6,173/s`);
    expect(progressBar({ ...state, totalBytes: undefined })).toBe("12,345 statements  6,173/s");
    expect(progressLine(state)).toBe("import: 12,345 statements (6,173/s)");
  });

  it("writes a plain line every N statements when not on a terminal, and redraws in place on one", () => {
    const plain: string[] = [];
    const p = new Progress({ write: (t: string) => plain.push(t) }, undefined, 100);
    for (const n of [50, 99, 100, 150, 250, 260]) p.update(n, 0);
    expect(plain.map((l) => l.replace(/\(.*\)/, "(…)"))).toEqual(["import: 100 statements (…)\n", "import: 250 statements (…)\n"]);
    const tty: string[] = [];
    const t = new Progress({ write: (x: string) => tty.push(x), isTTY: true }, 10, 100);
    t.update(1, 5);
    t.clear();
    expect(tty).toHaveLength(2);
    expect(tty[0]).toMatch(/^\r\[#{15}-{15}\]  50%  1 statements  [\d,]+\/s\x1b\[K$/);
    expect(tty[1]).toBe("\r\x1b[K");
  });
});
