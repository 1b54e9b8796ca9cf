// GET /export and POST /import on a live server (and the CLI commands over them); the RPC `patch` method.

import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDACTED_WARNING, exportCommand } from "../../src/cli/export.js";
import { importCommand } from "../../src/cli/import.js";
import type { TransferOptions } from "../../src/cli/args.js";
import { RecordId, SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";
import { toJson } from "../../src/value/index.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const root = { authorization: basic("root", "root") };
const on = (db: string) => ({ "surreal-ns": "test", "surreal-db": db });

const SCHEMA = `
  USE NS test DB src;
  DEFINE USER alice ON DATABASE PASSWORD 'secret' ROLES VIEWER;
  DEFINE ACCESS account ON DATABASE TYPE RECORD
    SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);
  DEFINE TABLE person SCHEMAFULL PERMISSIONS FOR select WHERE id = $auth, FOR create, update, delete NONE;
  DEFINE FIELD email ON person TYPE string;
  DEFINE FIELD boss ON person TYPE option<record<person>>;
  DEFINE INDEX email ON person FIELDS email UNIQUE;
  CREATE person:1 SET email = 'a@b.c';
  CREATE person:2 SET email = 'x@y.z', boss = person:1;
`;

describe("GET /export and POST /import (compat 2)", () => {
  let server: SurrealServer;
  let base: string;
  let db: SurqlAuth;

  beforeAll(async () => {
    db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" } });
    const l = await db.listen("127.0.0.1", 0);
    server = l.server;
    base = `http://127.0.0.1:${l.port}`;
    await db.importText(SCHEMA);
  });
  afterAll(async () => {
    await server.close();
  });

  const exportOf = async (name: string) => {
    const res = await fetch(`${base}/export`, { headers: { ...root, ...on(name) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    return res.text();
  };

  it("exports the database (secrets included) and imports it into another database unchanged", async () => {
    const text = await exportOf("src");
    expect(text.startsWith("-- ------------------------------\n-- OPTION\n-- ------------------------------\n\nOPTION IMPORT;\n")).toBe(true);
    expect(text).toContain("DEFINE USER alice ON DATABASE PASSHASH '$argon2id$");
    expect(text).toMatch(/DEFINE ACCESS account ON DATABASE TYPE RECORD .* WITH JWT ALGORITHM HS512 KEY '[^[]/);
    expect(text).toContain("INSERT [ { email: 'a@b.c', id: person:1 }, { boss: person:1, email: 'x@y.z', id: person:2 } ];");
    const res = await fetch(`${base}/import`, { method: "POST", headers: { ...root, ...on("copy"), accept: "application/json" }, body: text });
    expect(res.status).toBe(200);
    const results = (await res.json()) as { status: string }[];
    expect(results.every((r) => r.status === "OK")).toBe(true);
    expect(await exportOf("copy")).toBe(text);
    const info = async (name: string) =>
      (await (await fetch(`${base}/sql`, { method: "POST", headers: { ...root, ...on(name), accept: "application/json" }, body: "INFO FOR DB; SELECT * FROM person FETCH boss" })).json()) as { result: unknown }[];
    expect((await info("copy")).map((r) => r.result)).toEqual((await info("src")).map((r) => r.result));
  });

  it("refuses anonymous exports and imports (403), needs ns and db (400)", async () => {
    expect((await fetch(`${base}/export`, { headers: on("src") })).status).toBe(403);
    expect((await fetch(`${base}/import`, { method: "POST", headers: { ...on("src"), accept: "application/json" }, body: "RETURN 1" })).status).toBe(403);
    const noDb = await fetch(`${base}/export`, { headers: { ...root, "surreal-ns": "test" } });
    expect(noDb.status).toBe(400);
  });

  it("a database viewer may export; its import is refused", async () => {
    const alice = { authorization: basic("alice", "secret"), "surreal-auth-ns": "test", "surreal-auth-db": "src", ...on("src") };
    expect((await fetch(`${base}/export`, { headers: alice })).status).toBe(200);
    expect((await fetch(`${base}/import`, { method: "POST", headers: { ...alice, accept: "application/json" }, body: "RETURN 1" })).status).toBe(403);
  });

  it("CLI: surql-auth export to a file, surql-auth import of that file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "surql-auth-"));
    const file = join(dir, "dump.surql");
    const opts = (command: "export" | "import", name: string): TransferOptions => ({ command, endpoint: base, user: "root", pass: "root", ns: "test", db: name, authLevel: "root", file });
    expect(await exportCommand(opts("export", "src"))).toBe(0);
    const text = await readFile(file, "utf8");
    expect(text).toBe(await exportOf("src"));
    const out = process.stdout.write;
    process.stdout.write = (() => true) as never;
    try {
      expect(await importCommand(opts("import", "cli"))).toBe(0);
    } finally {
      process.stdout.write = out;
    }
    expect(await exportOf("cli")).toBe(text);
    // a failing statement fails the import
    await writeFile(file, "THROW 'nope';");
    const err = process.stderr.write;
    let said = "";
    process.stderr.write = ((s: string) => ((said += s), true)) as never;
    try {
      expect(await importCommand(opts("import", "cli"))).toBe(1);
    } finally {
      process.stderr.write = err;
    }
    expect(said).toContain("An error occurred: nope");
  });

  it("a syntax error mid-body runs nothing (2.6.0's embedded import and a query call both run nothing: oracle)", async () => {
    const body = "CREATE n:1;\nCREATE n:2 SET a = ;\nCREATE n:3;";
    const res = await fetch(`${base}/import`, { method: "POST", headers: { ...root, ...on("syntax"), accept: "application/json" }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { information: string }).information).toContain("Parse error: Unexpected token `;`, expected an expression\n --> [2:20]");
    const after = await fetch(`${base}/sql`, { method: "POST", headers: { ...root, ...on("syntax"), accept: "application/json" }, body: "SELECT VALUE id FROM n" });
    expect(((await after.json()) as { result: unknown }[])[0]!.result).toEqual([]);
  });
});

describe("GET /export and POST /import (compat 1)", () => {
  it("exports 1.x's layout and imports it into another database unchanged", async () => {
    const db = await SurqlAuth.open({ compat: 1, root: { user: "root", pass: "root" } });
    const { server, port } = await db.listen("127.0.0.1", 0);
    try {
      const base = `http://127.0.0.1:${port}`;
      await db.importText(`
        USE NS test DB src;
        DEFINE SCOPE account SESSION 1h SIGNIN (SELECT * FROM person WHERE email = $email);
        DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
        CREATE person:1 SET email = 'a@b.c', at = <datetime> '2024-01-02T03:04:05.5Z', u = <uuid> '0191e9d4-83b3-7b0e-8a3d-1c2b3a4d5e6f',
          g = { type: 'LineString', coordinates: [[1, 2], [3, 4]] };
        RELATE person:1->knows->person:1 SET since = 2020;
      `);
      const exportOf = async (name: string) => (await fetch(`${base}/export`, { headers: { ...root, ...on(name) } })).text();
      const text = await exportOf("src");
      expect(text).toContain("DEFINE SCOPE account SESSION 1h SIGNIN (SELECT * FROM person WHERE email = $email);");
      expect(text).toContain("BEGIN TRANSACTION;\n\n-- ------------------------------\n-- TABLE DATA: knows");
      expect(text).toMatch(/^RELATE person:1 -> knows:\w+ -> person:1 CONTENT \{ id: knows:\w+, in: person:1, out: person:1, since: 2020 \};$/m);
      const res = await fetch(`${base}/import`, { method: "POST", headers: { ...root, ...on("copy"), accept: "application/json" }, body: text });
      expect(res.status).toBe(200);
      expect(await exportOf("copy")).toBe(text);
      // 1.x prints datetimes and uuids as plain strings, a line as a GeoJSON object; its literals read them back
      // (datetime-strings-v1.surql, geometry-objects.surql)
      expect(text).toContain("at: '2024-01-02T03:04:05.500Z'");
      expect(text).toContain("g: { type: 'LineString', coordinates: [[1, 2], [3, 4]] }");
      const body = "SELECT VALUE [type::is::datetime(at), type::is::uuid(u), type::is::line(g)] FROM person:1";
      const types = await fetch(`${base}/sql`, { method: "POST", headers: { ...root, ...on("copy"), accept: "application/json" }, body });
      expect(((await types.json()) as { result: unknown }[])[0]!.result).toEqual([[true, true, true]]);
    } finally {
      await server.close();
    }
  });
});

describe("GET /export secrets by role over HTTP (issue #9 class 8)", () => {
  const ROLES = ["OWNER", "EDITOR", "VIEWER"] as const;
  for (const compat of [1, 2] as const) {
    it(`compat ${compat}: OWNERs at ns and db level get signing keys and hashes; EDITORs and VIEWERs get them redacted, and the CLI says so`, async () => {
      const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
      const { server, port } = await db.listen("127.0.0.1", 0);
      try {
        const base = `http://127.0.0.1:${port}`;
        const users = ROLES.flatMap((r) => [`DEFINE USER ns_${r} ON NAMESPACE PASSWORD 'p' ROLES ${r};`, `DEFINE USER db_${r} ON DATABASE PASSWORD 'p' ROLES ${r};`]);
        const key = compat === 2 ? "DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'forge-me';" : "DEFINE TOKEN api ON DATABASE TYPE HS512 VALUE 'forge-me';";
        await db.importText(`USE NS test DB src; ${users.join(" ")} ${key} CREATE person:1 SET email = 'a@b.c';`);
        for (const level of ["ns", "db"] as const) {
          for (const role of ROLES) {
            const headers = { authorization: basic(`${level}_${role}`, "p"), "surreal-auth-ns": "test", ...(level === "db" ? { "surreal-auth-db": "src" } : {}), ...on("src") };
            const res = await fetch(`${base}/export`, { headers });
            expect([level, role, res.status]).toEqual([level, role, 200]);
            const text = await res.text();
            expect([level, role, text.includes("forge-me"), text.includes("$argon2"), text.includes("-- REDACTED SECRETS")]).toEqual(
              role === "OWNER" ? [level, role, true, true, false] : [level, role, false, false, true],
            );
            expect(text).toContain("{ email: 'a@b.c', id: person:1 }");
          }
        }
        // the CLI warns on stderr when what it wrote was redacted, and only then
        const dir = await mkdtemp(join(tmpdir(), "surql-auth-"));
        const said = async (user: string): Promise<string> => {
          const opts: TransferOptions = { command: "export", endpoint: base, user, pass: "p", ns: "test", db: "src", authLevel: "database", file: join(dir, `${user}.surql`) };
          const err = process.stderr.write;
          let out = "";
          process.stderr.write = ((t: string) => ((out += t), true)) as never;
          try {
            expect(await exportCommand(opts)).toBe(0);
          } finally {
            process.stderr.write = err;
          }
          return out;
        };
        expect(await said("db_VIEWER")).toBe(`surql-auth: ${REDACTED_WARNING}\n`);
        expect(await said("db_OWNER")).toBe("");
      } finally {
        await server.close();
      }
    });
  }
});

// RPC `patch` results as SurrealDB 2.6.0 / 1.5.4 answered the same steps (oracle, JSON form)
const PATCH_STEPS: { params: (rid: (k: number) => RecordId) => unknown[]; v2: unknown; v1: unknown }[] = [
  { params: (r) => [r(1), [{ op: "replace", path: "/n", value: 2n }, { op: "add", path: "/arr/-", value: 3n }]], v2: { ok: { arr: [1, 2, 3], id: "t:1", n: 2, name: "hello world" } }, v1: { ok: { arr: [1, 2], id: "t:1", n: 2, name: "hello world" } } },
  { params: (r) => [r(1), [{ op: "replace", path: "/n", value: 5n }, { op: "remove", path: "/arr" }], true], v2: { ok: [{ op: "remove", path: "/arr" }, { op: "replace", path: "/n", value: 5 }] }, v1: { ok: [{ op: "remove", path: "/arr" }, { op: "replace", path: "/n", value: 5 }] } },
  { params: (r) => [r(1), [{ op: "test", path: "/n", value: 2n }]], v2: { err: "Given test operation failed for JSON Patch. Expected `2`, but got `5` instead." }, v1: { err: "Given test operation failed for JSON Patch. Expected `2`, but got `5` instead." } },
  { params: (r) => [r(1), { op: "add" }], v2: { err: "The JSON Patch contains invalid operations. Operations must be an array" }, v1: { err: "The JSON Patch contains invalid operations. Operations must be an array" } },
  { params: (r) => [r(1)], v2: { err: "The JSON Patch contains invalid operations. Operations must be an array" }, v1: { err: "The JSON Patch contains invalid operations. Operations must be an array" } },
  { params: (r) => [r(9), [{ op: "add", path: "/x", value: 1n }]], v2: { ok: null }, v1: { ok: { id: "t:9", x: 1 } } },
];

describe("RPC patch (SurqlAuth.connect().rpc)", () => {
  for (const compat of [1, 2] as const) {
    it(`compat ${compat}: as SurrealDB ${compat === 2 ? "2.6.0" : "1.5.4"} answers`, async () => {
      const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
      const c = db.connect({ ns: "test", db: "test" });
      await c.signin({ user: "root", pass: "root" });
      const rid = (k: number) => new RecordId("t", BigInt(k));
      await c.rpc("create", [rid(1), { name: "hello world", n: 1n, arr: [1n, 2n] }]);
      for (const step of PATCH_STEPS) {
        const got = await c.rpc("patch", step.params(rid) as never).then(
          (v) => ({ ok: toJson(v, { compat }) }),
          (e: Error) => ({ err: e.message.replace(/^There was a problem with the database: /, "") }),
        );
        expect(got).toEqual(compat === 2 ? step.v2 : step.v1);
      }
    });
  }
});
