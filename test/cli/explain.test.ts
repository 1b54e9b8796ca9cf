// CLI `explain`: text and JSON output on a schema file, identity errors, and --endpoint against a live server.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../src/cli/args.js";
import { explainCommand, parseExplain } from "../../src/cli/explain.js";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { RecordId } from "../../src/value/types.js";
import { runCli } from "./run.js";

const SCHEMA = `USE NS app DB app;
DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name);
DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select WHERE published OR author = $auth.id, FOR create, update WHERE author = $auth.id, FOR delete NONE;
DEFINE FIELD draft ON post PERMISSIONS FOR select WHERE author = $auth.id;
CREATE user:ann SET name = 'Ann';
CREATE post:1 SET author = user:bob, published = true, draft = 'v2';
CREATE post:2 SET author = user:bob, published = false;
`;

let schema: string;
beforeAll(async () => {
  schema = join(await mkdtemp(join(tmpdir(), "explain-")), "schema.surql");
  await writeFile(schema, SCHEMA);
});

/** Runs the command in-process, capturing stdout and stderr. */
export async function runExplain(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: await explainCommand(args, {}), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe("parseExplain", () => {
  it("reads the identity, schema files, where and output", () => {
    const o = parseExplain(["--as", "viewer@db", "--schema", "a.surql", "--schema", "b.surql", "--ns", "x", "--db", "y", "--json", "SELECT 1"], {});
    expect(o).toMatchObject({ spec: { kind: "role", role: "VIEWER", level: "db" }, schema: ["a.surql", "b.surql"], ns: "x", db: "y", json: true, query: "SELECT 1", remote: undefined });
  });
  it("refuses a missing --as, a missing query, --schema with --endpoint, and an endpoint without credentials", () => {
    expect(() => parseExplain(["SELECT 1"], {})).toThrow(UsageError);
    expect(() => parseExplain(["--as", "root"], {})).toThrow(UsageError);
    expect(() => parseExplain(["--as", "root", "-e", "http://127.0.0.1:1", "--schema", "a", "--ns", "a", "--db", "b", "-u", "u", "-p", "p", "SELECT 1"], {})).toThrow(/together/);
    expect(() => parseExplain(["--as", "root", "-e", "http://127.0.0.1:1", "--ns", "a", "--db", "b", "SELECT 1"], {})).toThrow(/--user/);
    expect(() => parseExplain(["--as", "root", "-e", "http://127.0.0.1:1", "-u", "u", "-p", "p", "SELECT 1"], {})).toThrow(/--ns/);
  });
  it("builds the /explain URL and Basic header for --endpoint", () => {
    const o = parseExplain(["--as", "anonymous", "-e", "http://127.0.0.1:9/rpc", "-u", "root", "-p", "pw", "--ns", "app", "--db", "app", "SELECT 1"], {});
    expect(o.remote?.url.toString()).toBe("http://127.0.0.1:9/explain");
    expect(o.remote?.headers).toMatchObject({ authorization: `Basic ${Buffer.from("root:pw").toString("base64")}`, "surreal-ns": "app", "surreal-db": "app" });
  });
});

describe("surql-auth explain on schema files", () => {
  it("prints each statement's answer and every decision with its clause and values", async () => {
    const r = await runExplain(["--schema", schema, "--as", "record account as user:ann", "SELECT * FROM post; DELETE post:1"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("-- statement 1: SELECT * FROM post\nanswer: [{ author: user:bob, id: post:1, published: true }]");
    expect(r.out).toContain("  allowed  select post:1  table post\n      WHERE published OR author = $auth.id  (where-true)  $auth = user:ann");
    expect(r.out).toContain("  DENIED   select post:1  field post.draft\n      WHERE author = $auth.id  (where-false)  $auth = user:ann");
    expect(r.out).toContain("  DENIED   select post:2  table post\n");
    expect(r.out).toContain("-- statement 2: DELETE post:1\nanswer: []\n  DENIED   delete post:1  table post\n      NONE  (none)");
    expect(r.out).toMatch(/4 decision\(s\), 3 denied\n$/);
  });

  it("--json: the raw explanation, values as JSON", async () => {
    const r = await runExplain(["--schema", schema, "--as", "record account as user:ann", "--json", "SELECT * FROM post"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { results: { result: unknown; status: string }[]; decisions: Record<string, unknown>[] };
    expect(j.results).toMatchObject([{ status: "OK", result: [{ id: "post:1", author: "user:bob", published: true }] }]);
    expect(j.decisions[0]).toEqual({ statement: 0, kind: "table", table: "post", record: "post:1", action: "select", clause: "WHERE published OR author = $auth.id", allowed: true, reason: "where-true", values: { auth: "user:ann" } });
    expect(j.decisions.filter((d) => d.allowed === false).map((d) => d.record)).toEqual(["post:1", "post:2"]);
  });

  it("a system role bypasses: one bypass decision per record, nothing denied (compat 1 too)", async () => {
    for (const compat of ["1", "2"]) {
      const v1 = join(schema, "..", `v${compat}.surql`);
      await writeFile(v1, compat === "1" ? SCHEMA.replace(/DEFINE ACCESS account ON DATABASE TYPE RECORD/, "DEFINE SCOPE account") : SCHEMA);
      const r = await runExplain(["--schema", v1, "--compat", compat, "--as", "viewer@db", "--json", "SELECT * FROM post"]);
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(r.out) as { decisions: { allowed: boolean; reason: string }[] };
      expect(j.decisions.length).toBeGreaterThan(0);
      expect(j.decisions.every((d) => d.allowed && d.reason === "bypass")).toBe(true);
    }
  });

  it("an unknown identity exits 2 with the forms; a refused sign-in exits 1", async () => {
    const bad = await runExplain(["--schema", schema, "--as", "nobody", "SELECT 1"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--as: unknown identity 'nobody'; expected root | anonymous | ROLE@LEVEL");
    const refused = await runExplain(["--schema", schema, "--as", "record account signin { name: 'Zed' }", "SELECT 1"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^surql-auth: explain as record account signin \{ name: 'Zed' \}: /);
  });

  it("as a user runs it: the command is in main's table and its help", async () => {
    const r = await runCli(["explain", "--as", "guest", "--schema", schema, "SELECT * FROM post"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("DENIED   select post:2  table post\n      WHERE published OR author = $auth.id  (where-false)  $auth = NONE");
    const help = await runCli(["help", "explain"]);
    expect(help.stdout).toContain("usage: surql-auth explain --as IDENTITY");
    // two CLI processes under tsx: seconds each on a loaded machine, as the other CLI tests allow
  }, 120_000);
});

describe("surql-auth explain --endpoint", () => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let endpoint: string;
  beforeAll(async () => {
    db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, sessionSyncMs: 0, throttle: { enabled: false } });
    await db.importText(`${SCHEMA}\nDEFINE USER vi ON DATABASE PASSWORD 'pw' ROLES VIEWER;`);
    let port: number;
    ({ server, port } = await db.listen("127.0.0.1", 0));
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(() => server.close());

  it("explains on the server as a VIEWER: decisions as text and JSON, nothing written", async () => {
    const args = ["--endpoint", endpoint, "-u", "vi", "-p", "pw", "--auth-level", "database", "--ns", "app", "--db", "app", "--as", "record account as user:ann"];
    const r = await runExplain([...args, "SELECT * FROM post; DELETE post:1"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("-- statement 1: SELECT * FROM post\nerror: The query was not executed due to a cancelled transaction\n  allowed  select post:1  table post\n      WHERE published OR author = $auth.id  (where-true)  $auth = user:ann");
    expect(r.out).toContain("  DENIED   delete post:1  table post\n      NONE  (none)");
    const j = await runExplain([...args, "--json", "UPDATE post:2 SET author = user:ann"]);
    const parsed = JSON.parse(j.out) as { decisions: { action: string; record: string; allowed: boolean }[] };
    expect(parsed.decisions[0]).toMatchObject({ action: "update", record: "post:2", allowed: false });
    const root = db.connect();
    await root.signin({ user: "root", pass: "root" });
    await root.use("app", "app");
    const [post] = await root.query("SELECT VALUE author FROM post:2");
    expect(post?.result).toEqual([new RecordId("user", "bob")]);
  });

  it("a refusal by the server exits 1 with its answer", async () => {
    const r = await runExplain(["--endpoint", endpoint, "-u", "root", "-p", "root", "--ns", "app", "--db", "app", "--as", "record account signin { name: 'Ann' }", "RETURN 1"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("explain failed (HTTP 400)");
    expect(r.err).toContain("no user password, signup, signin or token");
  });
});
