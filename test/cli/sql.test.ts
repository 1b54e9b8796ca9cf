// CLI `sql`: the shell's output and line handling (pure), and the command as a child process with piped stdin.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordId, SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { formatAnswers, formatValue, prompt, readLine } from "../../src/cli/sql-format.js";
import { runCli } from "./run.js";

const SLOW = 180_000;

describe("sql output and lines", () => {
  const row = { id: new RecordId("person", 1n), name: "x", tags: ["a", 1n] };
  it("SurrealQL on one line, indented with tabs when pretty, or JSON", () => {
    expect(formatValue([row], { pretty: false, json: false, compat: 2 })).toBe("[{ id: person:1, name: 'x', tags: ['a', 1] }]");
    expect(formatValue([row], { pretty: true, json: false, compat: 2 })).toBe("[\n\t{\n\t\tid: person:1,\n\t\tname: 'x',\n\t\ttags: [\n\t\t\t'a',\n\t\t\t1\n\t\t]\n\t}\n]");
    expect(formatValue([row], { pretty: false, json: true, compat: 2 })).toBe('[{"id":"person:1","name":"x","tags":["a",1]}]');
    expect(formatValue([], { pretty: true, json: false, compat: 2 })).toBe("[]");
  });

  it("answers: a header per statement, errors as ERROR: …", () => {
    const answers = [
      { status: "OK", result: 1n, time: "1ms" },
      { status: "ERR", result: "boom", time: "2ms" },
    ];
    expect(formatAnswers(answers, { pretty: false, json: false, compat: 2 })).toBe("-- Query 1 (execution time: 1ms)\n1\n\n-- Query 2 (execution time: 2ms)\nERROR: boom");
    expect(formatAnswers(answers, { pretty: false, json: true, compat: 2 })).toBe('[1,{"error":"boom"}]');
  });

  it("the prompt shows ns/db; help and exit are words of their own; --multi waits for ';'", () => {
    expect(prompt(undefined, undefined)).toBe("> ");
    expect(prompt("app", "main")).toBe("app/main> ");
    expect(prompt("app", undefined)).toBe("app/> ");
    expect(readLine("", " exit ", true)).toEqual({ kind: "exit" });
    expect(readLine("", "HELP", false)).toEqual({ kind: "help" });
    expect(readLine("", "SELECT *", true)).toEqual({ kind: "more", buffer: "SELECT *" });
    expect(readLine("SELECT *", "FROM t;", true)).toEqual({ kind: "send", text: "SELECT *\nFROM t;" });
    expect(readLine("SELECT *", "", true)).toEqual({ kind: "send", text: "SELECT *\n" });
    expect(readLine("", "SELECT * FROM t", false)).toEqual({ kind: "send", text: "SELECT * FROM t" });
    // inside a statement, 'exit' is text
    expect(readLine("SELECT", "exit", true)).toEqual({ kind: "more", buffer: "SELECT\nexit" });
  });
});

describe.each([1, 2] as const)("surql-auth sql (compat %i)", (compat) => {
  let server: SurrealServer;
  let base: string;
  let token: string;
  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    await db.importText("USE NS app DB main; DEFINE USER dba ON DATABASE PASSWORD 'pw' ROLES EDITOR; CREATE person:1 SET name = 'Ann';");
    const l = await db.listen("127.0.0.1", 0);
    server = l.server;
    base = `http://127.0.0.1:${l.port}`;
    const conn = db.connect();
    token = await conn.signin({ user: "root", pass: "root" });
  });
  afterAll(() => server.close());

  it("reads statements from stdin with surreal's flag names; help and exit work; prints SurrealQL", async () => {
    const [piped, json, tokenRun, dbUser] = await Promise.all([
      runCli(["sql", "--conn", base, "--username", "root", "--password", "root", "--namespace", "app", "--database", "main", "--hide-welcome"], {
        input: "SELECT name FROM person;\nhelp\nexit\nSELECT 'never' FROM person;\n",
      }),
      runCli(["sql", "--endpoint", base.replace("http", "ws"), "--user", "root", "--pass", "root", "--ns", "app", "--db", "main", "--json", "--hide-welcome"], { input: "SELECT name FROM person;" }),
      runCli(["sql", "-e", base, "--token", token, "--ns", "app", "--db", "main", "--hide-welcome", "-q", "RETURN $auth.id ?? 'root'; SELECT VALUE id FROM person"]),
      runCli(["sql", "-e", base, "-u", "dba", "-p", "pw", "--auth-level", "database", "--ns", "app", "--db", "main", "--pretty", "--hide-welcome", "-q", "SELECT * FROM person"]),
    ]);
    expect([piped.code, piped.stderr]).toEqual([0, ""]);
    expect(piped.stdout).toMatch(/^-- Query 1 \(execution time: [^)]+\)\n\[\{ name: 'Ann' \}\]\nType SurrealQL/);
    expect(piped.stdout).not.toContain("never");
    expect(json.stdout).toBe('[[{"name":"Ann"}]]\n');
    expect(tokenRun.code).toBe(0);
    expect(tokenRun.stdout).toMatch(/\n\[person:1\]\n$/);
    expect(dbUser.stdout).toMatch(/\n\[\n\t\{\n\t\tid: person:1,\n\t\tname: 'Ann'\n\t\}\n\]\n$/);
  }, SLOW);

  it("--multi joins lines until ';'; the welcome shows unless hidden; a failing statement in a script exits 1", async () => {
    const [multi, welcome, failing] = await Promise.all([
      runCli(["sql", "-e", base, "-u", "root", "-p", "root", "--ns", "app", "--db", "main", "--multi", "--hide-welcome"], { input: "SELECT name\nFROM person\n;\n" }),
      runCli(["sql", "-e", base, "-u", "root", "-p", "root"], { input: "" }),
      runCli(["sql", "-e", base, "-u", "root", "-p", "root", "--ns", "app", "--db", "main", "--hide-welcome"], { input: "THROW 'nope';\n" }),
    ]);
    expect(multi.stdout).toMatch(/^-- Query 1 [^\n]*\n\[\{ name: 'Ann' \}\]\n$/);
    expect(welcome.stdout).toMatch(/^#\n# Welcome to the surql-auth SQL shell/);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/ERROR: An error occurred: nope/);
  }, SLOW);
});
