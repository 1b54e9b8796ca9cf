// CLI `sessions list|kill`: argument parsing, then list and kill against a live server.

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../src/cli/args.js";
import { parseSessions, sessionsCommand } from "../../src/cli/sessions.js";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

describe("parseSessions", () => {
  it("reads the action, the filter words and the credentials", () => {
    const o = parseSessions(["kill", "user", "bob", "access", "account", "-e", "http://h:1/rpc", "-u", "root", "-p", "pw"], {});
    expect(o).toMatchObject({ action: "kill", filter: { user: "bob", access: "account" }, endpoint: "http://h:1/rpc", json: false });
    expect(o.headers.authorization).toBe(`Basic ${Buffer.from("root:pw").toString("base64")}`);
    expect(parseSessions(["list", "--token", "t", "--auth-level", "namespace", "--ns", "app"], {}).headers).toEqual({ authorization: "Bearer t", "surreal-auth-ns": "app" });
    expect(parseSessions(["list"], { SURQL_AUTH_USER: "u", SURQL_AUTH_PASS: "p" }).filter).toEqual({});
  });

  it("refuses a kill without a filter, unknown words, all with a filter, and missing credentials", () => {
    const env = { SURQL_AUTH_USER: "u", SURQL_AUTH_PASS: "p" };
    expect(() => parseSessions(["kill"], env)).toThrow(UsageError);
    expect(() => parseSessions(["kill", "everyone"], env)).toThrow(UsageError);
    expect(() => parseSessions(["kill", "all", "user", "x"], env)).toThrow(UsageError);
    expect(() => parseSessions(["kill", "user"], env)).toThrow(UsageError);
    expect(() => parseSessions(["list"], {})).toThrow(UsageError);
    expect(() => parseSessions(["show"], env)).toThrow(UsageError);
  });
});

describe("surql-auth sessions against a server", () => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let endpoint: string;
  beforeAll(async () => {
    db = await SurqlAuth.open({ root: { user: "root", pass: "root" }, sessionSyncMs: 0 });
    await db.importText("USE NS app DB app; DEFINE USER bob ON DATABASE PASSWORD 'pw' ROLES VIEWER;");
    let port: number;
    ({ server, port } = await db.listen("127.0.0.1", 0));
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(() => server.close());

  async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
    const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
    try {
      const code = await sessionsCommand([...args, "--endpoint", endpoint], {});
      return { code, out, err };
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  }

  it("lists and kills a user's sessions; a wrong password fails with the server's answer", async () => {
    const conn = db.connect();
    await conn.signin({ NS: "app", DB: "app", user: "bob", pass: "pw" });
    const listed = await run(["list", "user", "bob", "-u", "root", "-p", "root"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/Database:bob {2}app\/app {2}- {2}- {2}started /);
    expect(listed.out).toContain("1 session(s)\n");
    const json = await run(["list", "--json", "-u", "root", "-p", "root"]);
    expect(JSON.parse(json.out)).toHaveLength(1);
    const killed = await run(["kill", "user", "bob", "-u", "root", "-p", "root"]);
    expect(killed.out).toContain("1 session(s) killed\n");
    await expect(conn.query("RETURN 1")).rejects.toThrow("The session has expired");
    const denied = await run(["list", "-u", "root", "-p", "nope"]);
    expect(denied.code).toBe(1);
    expect(denied.err).toContain("sessions list failed (HTTP 401)");
    expect((await run(["kill"])).code).toBe(2);
  });
});
