// Audit events and the request log through a real server on 127.0.0.1: the JSON event stream for each event kind, the
// --audit-file copy, the request log lines, and a scan that no secret of the test's inputs reaches any log line.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createLogger } from "../../src/cli/logger.js";
import { SurqlAuth, auditFileWriter, type AuditEvent } from "../../src/index.js";
import { newSession } from "../../src/exec/session.js";
import type { SurrealServer } from "../../src/server/index.js";
import { jsonRpcSocket } from "./clients.js";

const ROOT_PASS = "root-Secret-pw-4711";
const DB_PASS = "dbuser-Secret-pw-0815";
const ALICE_PASS = "alice-Secret-pw-1234";
const BOB_PASS = "bob-Secret-pw-5678";
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

interface JsonLine {
  timestamp: string;
  level: string;
  target: string;
  fields: Record<string, unknown> & { message: string };
}

for (const compat of [1, 2] as const) {
  const AC = compat === 1 ? "SC" : "AC";
  const schema = `
    USE NS test DB test;
    DEFINE USER dbu ON DATABASE PASSWORD "${DB_PASS}" ROLES VIEWER;
    DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id, FOR create, update, delete NONE;
    DEFINE FIELD email ON person PERMISSIONS FOR select WHERE id = $auth.id;
    DEFINE FIELD pass ON person PERMISSIONS FOR select NONE;
    ${compat === 1 ? "DEFINE SCOPE account SESSION 1h" : "DEFINE ACCESS account ON DATABASE TYPE RECORD"}
      SIGNUP (CREATE person SET email = $email, pass = crypto::argon2::generate($pass))
      SIGNIN (SELECT * FROM person WHERE email = $email AND crypto::argon2::compare(pass, $pass))
      ${compat === 1 ? "" : "DURATION FOR SESSION 1h"};
    ${compat === 1 ? "" : "DEFINE ACCESS rotating ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM person WHERE email = $email AND crypto::argon2::compare(pass, $pass)) WITH REFRESH DURATION FOR TOKEN 15m;"}
  `;

  describe(`audit events and request log, compat ${compat}`, () => {
    const lines: string[] = [];
    let dir: string;
    let file: ReturnType<typeof auditFileWriter>;
    let server: SurrealServer;
    let base: string;
    let ws: string;
    let db: SurqlAuth;
    let now = Date.now();
    const secrets: string[] = [ROOT_PASS, DB_PASS, ALICE_PASS, BOB_PASS];

    const json = () => lines.map((l) => JSON.parse(l) as JsonLine);
    const events = () =>
      json()
        .filter((l) => l.fields.message === "audit")
        .map(({ fields: { message: _m, ...event } }) => event as unknown as AuditEvent);
    const last = (kind: string) => events().filter((e) => e.event === kind).at(-1);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: "POST", headers: { accept: "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    const signinBody = async (body: unknown) => {
      const res = await post("/signin", body);
      const out = (await res.json()) as { token?: string };
      if (out.token) secrets.push(out.token);
      return { status: res.status, token: out.token };
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "surql-audit-"));
      file = auditFileWriter(join(dir, "audit.jsonl"));
      db = await SurqlAuth.open({
        compat,
        clock: { now: () => now },
        root: { user: "root", pass: ROOT_PASS },
        logger: createLogger("debug", { format: "json", write: (l) => lines.push(l) }),
        audit: [file.write],
        logDenials: true,
      });
      await db.importText(schema);
      const listening = await db.listen("127.0.0.1", 0);
      server = listening.server;
      base = `http://127.0.0.1:${listening.port}`;
      ws = `ws://127.0.0.1:${listening.port}/rpc`;
    });
    afterAll(async () => {
      await server.close();
      file.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("every log line is one JSON object: timestamp, level, target, fields.message", async () => {
      await fetch(`${base}/health`);
      expect(lines.length).toBeGreaterThan(0);
      for (const l of json()) {
        expect(l).toMatchObject({ timestamp: expect.any(String), level: expect.stringMatching(/^(ERROR|WARN|INFO|DEBUG)$/), target: "surql_auth" });
        expect(typeof l.fields.message).toBe("string");
      }
    });

    it("signin: failure with the reason code and the log-only reason, then success; the client sees the generic text", async () => {
      const bad = await post("/signin", { user: "root", pass: "wrong-Secret-pw-9" });
      secrets.push("wrong-Secret-pw-9");
      expect(bad.status).toBe(401);
      expect(await bad.text()).toContain("There was a problem with authentication");
      expect(bad.status).toBe(401);
      expect(last("signin")).toMatchObject({
        event: "signin",
        outcome: "failure",
        reason: "InvalidAuth",
        detail: expect.stringMatching(/^password did not verify for user 'root'/),
        identity: "root",
        user: "root",
        ip: "127.0.0.1",
        // 1.x: an HTTP request has a session id only when the client sends one
        session: compat === 1 ? null : expect.any(String),
      });
      const ok = await signinBody({ user: "root", pass: ROOT_PASS });
      expect(ok.status).toBe(200);
      expect(last("signin")).toMatchObject({ event: "signin", outcome: "success", reason: "ok", identity: "root", user: "root", record: null, ip: "127.0.0.1" });
      expect(last("signin")!.time).toBe(new Date(now).toISOString());
    });

    it("signup and record signin carry the record id, access, ns and db", async () => {
      const up = await post("/signup", { NS: "test", DB: "test", [AC]: "account", email: "alice@example.com", pass: ALICE_PASS });
      const { token } = (await up.json()) as { token: string };
      secrets.push(token);
      expect(up.status).toBe(200);
      expect(last("signup")).toMatchObject({ outcome: "success", identity: compat === 1 ? "scope" : "record", record: expect.stringMatching(/^person:/), access: "account", ns: "test", db: "test" });
      await post("/signup", { NS: "test", DB: "test", [AC]: "account", email: "bob@example.com", pass: BOB_PASS }).then(async (r) => secrets.push(((await r.json()) as { token: string }).token));
      const bad = await signinBody({ NS: "test", DB: "test", [AC]: "account", email: "alice@example.com", pass: "not-alice-Secret-7" });
      secrets.push("not-alice-Secret-7");
      // a clause error (a credential of the wrong type) goes to the debug log, without the credentials' values
      await signinBody({ NS: "test", DB: "test", [AC]: "account", email: "alice@example.com", pass: ["carol-Secret-pw-43"] });
      secrets.push("carol-Secret-pw-43");
      expect(bad.status).not.toBe(200);
      expect(last("signin")).toMatchObject({ outcome: "failure", reason: "NoRecordFound", identity: compat === 1 ? "scope" : "record", user: null, record: null, access: "account", ns: "test", db: "test" });
    });

    it("authenticate (RPC and HTTP Bearer), HTTP Basic, and invalidate over WebSocket", async () => {
      const { token } = await signinBody({ user: "root", pass: ROOT_PASS });
      const { ws: sock, rpc } = await jsonRpcSocket(ws);
      try {
        expect((await rpc("authenticate", [token])).error).toBeUndefined();
        expect(last("authenticate")).toMatchObject({ outcome: "success", via: "rpc", identity: "root", user: "root" });
        expect((await rpc("authenticate", ["not.a.token"])).error).toBeDefined();
        expect(last("authenticate")).toMatchObject({ outcome: "failure", reason: "InvalidAuth", identity: "unknown" });
        expect((await rpc("invalidate", [])).error).toBeUndefined();
        expect(last("invalidate")).toMatchObject({ outcome: "success", identity: "root", user: "root" });
      } finally {
        sock.close();
      }
      const viaBearer = await post("/sql", "RETURN 1", { authorization: `Bearer ${token}` });
      expect(viaBearer.status).toBe(200);
      expect(last("authenticate")).toMatchObject({ outcome: "success", via: "bearer", identity: "root" });
      const viaBasic = await post("/sql", "RETURN 1", { authorization: basic("dbu", DB_PASS), "surreal-auth-ns": "test", "surreal-auth-db": "test", "surreal-ns": "test", "surreal-db": "test" });
      expect(viaBasic.status).toBe(200);
      expect(last("signin")).toMatchObject({ outcome: "success", via: "basic", identity: "database", user: "dbu", ns: "test", db: "test" });
    });

    it("permission denied (--log-denials): a hidden record, a hidden field and a refused write name table, action and identity", async () => {
      const { ws: sock, rpc } = await jsonRpcSocket(ws);
      try {
        await rpc("signin", [{ NS: "test", DB: "test", [AC]: "account", email: "alice@example.com", pass: ALICE_PASS }]);
        const before = events().length;
        const rows = (await rpc("query", ["SELECT * FROM person"])).result as { result: unknown[] }[];
        expect(rows[0]!.result).toHaveLength(1);
        await rpc("query", ["CREATE person:new SET email = 'x'"]);
        const denials = events().slice(before).filter((e) => e.event === "permission_denied");
        const who = { outcome: "failure", reason: "Permissions", identity: compat === 1 ? "scope" : "record", record: expect.stringMatching(/^person:/), access: "account", ns: "test", db: "test" };
        expect(denials).toContainEqual(expect.objectContaining({ ...who, table: "person", action: "select", target: expect.stringMatching(/^person:/) }));
        expect(denials).toContainEqual(expect.objectContaining({ ...who, table: "person", action: "select", field: "pass" }));
        expect(denials).toContainEqual(expect.objectContaining({ ...who, table: "person", action: "create" }));
        // a role refusal: a record user may not create a table
        await rpc("query", ["CREATE newtable:1"]);
        expect(last("permission_denied")).toMatchObject({ ...who, reason: "NotAllowed", action: "edit", resource: "Table", table: "newtable" });
      } finally {
        sock.close();
      }
    });

    it("session expired: a call after the session's end, reported once", async () => {
      const { ws: sock, rpc } = await jsonRpcSocket(ws);
      try {
        await rpc("signin", [{ NS: "test", DB: "test", [AC]: "account", email: "bob@example.com", pass: BOB_PASS }]);
        now += 2 * 3600_000;
        expect((await rpc("query", ["RETURN 1"])).error?.message).toContain("expired");
        expect((await rpc("query", ["RETURN 1"])).error?.message).toContain("expired");
        const expired = events().filter((e) => e.event === "session_expired" && e.record !== null);
        expect(expired).toHaveLength(1);
        expect(expired[0]).toMatchObject({ outcome: "failure", reason: "ExpiredSession", detail: "expired", record: expect.stringMatching(/^person:/), access: "account" });
      } finally {
        sock.close();
        now -= 2 * 3600_000;
      }
    });

    it("session killed: the kill names the killed session's identity and who killed it; its next call is session_expired (killed)", async () => {
      const { ws: sock, rpc } = await jsonRpcSocket(ws);
      try {
        await rpc("signin", [{ NS: "test", DB: "test", user: "dbu", pass: DB_PASS }]);
        const res = await fetch(`${base}/sessions/kill`, {
          method: "POST",
          headers: { authorization: basic("root", ROOT_PASS), "content-type": "application/json" },
          body: JSON.stringify({ user: "dbu" }),
        });
        const { killed } = (await res.json()) as { killed: { id: string }[] };
        expect(killed).toHaveLength(1);
        expect(last("session_killed")).toMatchObject({ outcome: "success", reason: "killed", identity: "database", user: "dbu", ns: "test", db: "test", ip: "127.0.0.1", killed: killed[0]!.id, by: "root" });
        expect((await rpc("query", ["RETURN 1"])).error?.message).toContain("expired");
        expect(last("session_expired")).toMatchObject({ detail: "killed", user: "dbu" });
      } finally {
        sock.close();
      }
    });

    it("throttled: an identity past its failures is refused before any check, with the wait", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await post("/signin", { user: "ghost", pass: "ghost-Secret-pw-77" })).status);
      secrets.push("ghost-Secret-pw-77");
      expect(statuses).toContain(429);
      expect(last("throttled")).toMatchObject({ outcome: "failure", reason: "TooManyAttempts", identity: "root", user: "ghost", operation: "signin", retry_after: expect.any(Number), ip: "127.0.0.1" });
    });

    it.runIf(compat === 2)("refresh and revoke (WITH REFRESH): rotation, revocation, a revoked token refused", async () => {
      const { ws: sock, rpc } = await jsonRpcSocket(ws);
      try {
        const pair = (await rpc("signin", [{ NS: "test", DB: "test", AC: "rotating", email: "alice@example.com", pass: ALICE_PASS }])).result as { access: string; refresh: string };
        secrets.push(pair.access, pair.refresh);
        const next = (await rpc("refresh", [pair])).result as { access: string; refresh: string };
        secrets.push(next.access, next.refresh);
        expect(last("refresh")).toMatchObject({ outcome: "success", identity: "record", record: expect.stringMatching(/^person:/), access: "rotating" });
        expect((await rpc("revoke", [next])).error).toBeUndefined();
        expect(last("revoke")).toMatchObject({ event: "revoke", outcome: "success" });
        expect((await rpc("refresh", [next])).error).toBeDefined();
        expect(last("refresh")).toMatchObject({ outcome: "failure" });
      } finally {
        sock.close();
      }
    });

    it("request log at info: HTTP method, path, status, duration, identity kind; RPC method and duration; no bodies", async () => {
      await post("/sql?secretparam=abc", "RETURN 'body-text-Marker'", { authorization: basic("root", ROOT_PASS) });
      const http = json().filter((l) => l.fields.message === "http request");
      expect(http).toContainEqual(expect.objectContaining({ level: "INFO", fields: expect.objectContaining({ method: "POST", path: "/sql", status: 200, ms: expect.any(Number), identity: "root" }) }));
      expect(http).toContainEqual(expect.objectContaining({ fields: expect.objectContaining({ method: "POST", path: "/signin", status: 401, identity: "anonymous" }) }));
      // WebSocket upgrades: 101 with the identity of the headers, 401 refused
      const { ws: sock } = await jsonRpcSocket(ws, { authorization: basic("root", ROOT_PASS) });
      sock.close();
      const refused = await new Promise<number>((resolve) => {
        const bad = new WebSocket(ws, { headers: { authorization: basic("root", "wrong-Secret-pw-9") } });
        bad.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        bad.on("error", () => {});
      });
      expect(refused).toBe(401);
      const upgrades = json().filter((l) => l.fields.message === "http request" && l.fields.path === "/rpc");
      expect(upgrades).toContainEqual(expect.objectContaining({ fields: expect.objectContaining({ method: "GET", status: 101, identity: "root" }) }));
      expect(upgrades).toContainEqual(expect.objectContaining({ fields: expect.objectContaining({ method: "GET", status: 401, identity: "anonymous" }) }));
      const rpcs = json().filter((l) => l.fields.message === "rpc request");
      expect(rpcs).toContainEqual(expect.objectContaining({ level: "INFO", fields: expect.objectContaining({ method: "signin", status: "ok", ms: expect.any(Number), transport: "ws" }) }));
      expect(rpcs).toContainEqual(expect.objectContaining({ fields: expect.objectContaining({ method: "authenticate", status: "InvalidAuth", identity: "root" }) }));
      // polls at debug
      await fetch(`${base}/health`);
      expect(json().filter((l) => l.fields.path === "/health").map((l) => l.level)).toContain("DEBUG");
      expect(json().filter((l) => l.fields.path === "/health" && l.level === "INFO")).toEqual([]);
      const all = lines.join("\n");
      expect(all).not.toContain("body-text-Marker");
      expect(all).not.toContain("secretparam");
    });

    it("the audit file holds exactly the audit events, one JSON line each, in order", () => {
      const written = readFileSync(join(dir, "audit.jsonl"), "utf8").trimEnd().split("\n");
      expect(written.map((l) => JSON.parse(l) as AuditEvent)).toEqual(events());
      const kinds = ["signin", "signup", "authenticate", "invalidate", "permission_denied", "session_expired", "session_killed", "throttled"];
      expect(new Set(events().map((e) => e.event))).toEqual(new Set(compat === 2 ? [...kinds, "refresh", "revoke"] : kinds));
    });

    it("no password, token or hash from the inputs appears in any log line at any level, nor in the audit file", async () => {
      const owner = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "t", roles: ["OWNER"] } });
      const stored = (await db.engine.execute("SELECT VALUE pass FROM person", owner))[0]!.result as string[];
      expect(stored).toHaveLength(2);
      const everything = [...lines, readFileSync(join(dir, "audit.jsonl"), "utf8")].join("\n");
      expect(lines.some((l) => l.includes('"level":"DEBUG"'))).toBe(true);
      for (const s of [...secrets, ...stored]) {
        expect(everything).not.toContain(s);
        // a token's signature part alone
        if (s.split(".").length === 3) expect(everything).not.toContain(s.split(".")[2]);
      }
      expect(everything).not.toContain("$argon2");
      expect(everything).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
    });
  });
}
