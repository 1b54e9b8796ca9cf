// POST /explain and RPC explain: who may explain (system users who may view definitions), as whom (no secrets, no
// higher role), a dry run that keeps nothing, and secrets a VIEWER does not see — in both compats.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g";

const schema = (compat: 1 | 2): string => `USE NS app DB app;
DEFINE USER ow ON DATABASE PASSWORD 'pw' ROLES OWNER;
DEFINE USER ed ON DATABASE PASSWORD 'pw' ROLES EDITOR;
DEFINE USER vi ON DATABASE PASSWORD 'pw' ROLES VIEWER;
${compat === 1 ? "DEFINE SCOPE account SESSION 1h" : "DEFINE ACCESS account ON DATABASE TYPE RECORD"} SIGNIN (SELECT * FROM user WHERE name = $name);
DEFINE TABLE user PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select WHERE published OR author = $auth.id, FOR create, update WHERE author = $auth.id, FOR delete NONE;
DEFINE TABLE vault PERMISSIONS FOR select WHERE hash != '${HASH}';
CREATE user:ann SET name = 'Ann';
CREATE post:1 SET author = user:ann, published = true;
CREATE post:2 SET author = user:bob, published = false;
CREATE vault:1 SET hash = 'x';`;

interface Decision {
  statement: number;
  kind: string;
  record?: string;
  action: string;
  clause: string;
  allowed: boolean;
  reason: string;
  values?: Record<string, string>;
  error?: string;
}

for (const compat of [1, 2] as const) {
  describe(`explain on the server (compat ${compat})`, () => {
    let db: SurqlAuth;
    let server: SurrealServer;
    let base: string;
    let recordToken: string;
    beforeAll(async () => {
      db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, sessionSyncMs: 0, throttle: { enabled: false }, allowGuests: true });
      await db.importText(schema(compat));
      let port: number;
      ({ server, port } = await db.listen("127.0.0.1", 0));
      base = `http://127.0.0.1:${port}`;
      const conn = db.connect();
      recordToken = await conn.signin({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", name: "Ann" });
    });
    afterAll(() => server.close());

    const basic = (user: string): Record<string, string> =>
      user === "root" ? { authorization: `Basic ${Buffer.from("root:root").toString("base64")}` } : { authorization: `Basic ${Buffer.from(`${user}:pw`).toString("base64")}`, "surreal-auth-ns": "app", "surreal-auth-db": "app" };
    const headers = (auth: Record<string, string>) => ({ ...auth, "surreal-ns": "app", "surreal-db": "app", "content-type": "application/json", accept: "application/json" });

    async function explain(auth: Record<string, string>, as: string, query: string): Promise<{ status: number; body: { results: { result: unknown; status: string }[]; decisions: Decision[]; information?: string } }> {
      const res = await fetch(`${base}/explain`, { method: "POST", headers: headers(auth), body: JSON.stringify({ as, query }) });
      return { status: res.status, body: (await res.json()) as never };
    }
    async function rpc(auth: Record<string, string>, params: unknown[]): Promise<{ result?: { results: unknown[]; decisions: Decision[] }; error?: { code: number; message: string } }> {
      const res = await fetch(`${base}/rpc`, { method: "POST", headers: headers(auth), body: JSON.stringify({ id: 1, method: "explain", params }) });
      return (await res.json()) as never;
    }
    async function rows(sql: string): Promise<unknown> {
      const conn = db.connect({ ns: "app", db: "app" });
      await conn.signin({ user: "root", pass: "root" });
      await conn.use("app", "app");
      const [r] = await conn.query(sql);
      expect(r?.status).toBe("OK");
      return r!.result;
    }

    it("OWNER, EDITOR and VIEWER may explain as a record user: each decision with its clause and values", async () => {
      for (const user of ["ow", "ed", "vi", "root"]) {
        const { status, body } = await explain(basic(user), "record account as user:ann", "SELECT * FROM post");
        expect(status, JSON.stringify(body)).toBe(200);
        expect(body.decisions).toEqual([
          { statement: 0, kind: "table", table: "post", record: "post:1", action: "select", clause: "WHERE published OR author = $auth.id", allowed: true, reason: "where-true", values: { auth: "user:ann" } },
          { statement: 0, kind: "table", table: "post", record: "post:2", action: "select", clause: "WHERE published OR author = $auth.id", allowed: false, reason: "where-false", values: { auth: "user:ann" } },
        ]);
        expect(body.results).toMatchObject([{ status: "ERR", result: "The query was not executed due to a cancelled transaction" }]);
      }
    });

    it("a record user and a guest are refused with the IAM error", async () => {
      const asRecord = await explain({ authorization: `Bearer ${recordToken}` }, "anonymous", "SELECT * FROM post");
      expect(asRecord.status).toBe(403);
      expect(asRecord.body.information).toBe("There was a problem with the database: IAM error: Not enough permissions to perform this action");
      const guest = await explain({}, "anonymous", "SELECT * FROM post");
      expect(guest.status).toBe(403);
      const viaRpc = await rpc({ authorization: `Bearer ${recordToken}` }, ["anonymous", "SELECT * FROM post"]);
      expect(viaRpc.error?.message).toBe("There was a problem with the database: IAM error: Not enough permissions to perform this action");
    });

    it("a dry run: CREATE, UPDATE and DELETE explained are decided, and nothing is written", async () => {
      const before = await rows("SELECT * FROM post ORDER BY id");
      expect(before).toHaveLength(2);
      const { status, body } = await explain(basic("ow"), "owner@db", "CREATE post:9 SET author = user:ann; UPDATE post:1 SET published = false; DELETE post:2; DEFINE TABLE extra");
      expect(status).toBe(200);
      expect(body.results).toHaveLength(4);
      expect(body.decisions.map((d) => `${d.action} ${d.record} ${d.reason}`)).toEqual(expect.arrayContaining(["create post:9 bypass", "update post:1 bypass", "delete post:2 bypass"]));
      const asAnn = await explain(basic("vi"), "record account as user:ann", "UPDATE post:1 SET title = 'x'; CREATE post:8 SET author = user:ann");
      expect(asAnn.body.decisions.some((d) => d.action === "update" && d.allowed)).toBe(true);
      expect(await rows("SELECT * FROM post ORDER BY id")).toEqual(before);
      expect(await rows("INFO FOR DB")).not.toHaveProperty("tables.extra");
    });

    it("a dry run of REMOVE ACCESS, REMOVE USER or DEFINE USER OVERWRITE ends no session standing on them (attack pass 8, F6)", async () => {
      const record = db.connect();
      await record.authenticate(recordToken);
      const viewer = db.connect({ ns: "app", db: "app" });
      await viewer.signin({ NS: "app", DB: "app", user: "vi", pass: "pw" });
      const overwrite = compat === 1 ? "DEFINE USER vi" : "DEFINE USER OVERWRITE vi";
      const removeAccess = compat === 1 ? "REMOVE SCOPE account" : "REMOVE ACCESS account ON DATABASE";
      for (const q of [removeAccess, `${overwrite} ON DATABASE PASSWORD 'new' ROLES VIEWER`, "REMOVE USER vi ON DATABASE"]) {
        expect((await explain(basic("root"), "owner@db", q)).status).toBe(200);
        for (const c of [record, viewer]) expect((await c.query("RETURN 1"))[0]!.status).toBe("OK");
      }
    });

    it("refuses sign-in, sign-up, password and token identities, roles above the caller, BEGIN / COMMIT, and missing records", async () => {
      const cases: [string, string, string, RegExp][] = [
        ["vi", `record account signin { name: 'Ann' }`, "RETURN 1", /no user password, signup, signin or token/],
        ["vi", `record account signup { name: 'Eve' }`, "RETURN 1", /no user password, signup, signin or token/],
        ["ow", `user vi@db pw`, "RETURN 1", /no user password/],
        ["ow", `token ${recordToken}`, "RETURN 1", /no user password/],
        ["vi", "editor@db", "RETURN 1", /above the caller's own/],
        ["ow", "owner@ns", "RETURN 1", /above the caller's own/],
        ["ow", "root", "RETURN 1", /above the caller's own/],
        ["ow", "viewer@db", "BEGIN; DELETE post; COMMIT", /leave out BEGIN, COMMIT and CANCEL/],
        ["ow", "viewer@db", "DELETE post; COMMIT; DELETE user", /leave out BEGIN/],
        ["ow", "record account as user:nobody", "RETURN 1", /a record that exists/],
        ["ow", "somebody", "RETURN 1", /unknown identity 'somebody'/],
      ];
      for (const [user, as, query, message] of cases) {
        const { status, body } = await explain(basic(user), as, query);
        expect(status, as).toBe(400);
        expect(body.information).toMatch(message);
      }
      const signupRpc = await rpc(basic("ow"), [`record account signup { name: 'Eve' }`, "RETURN 1"]);
      expect(signupRpc.error?.message).toMatch(/no user password, signup, signin or token/);
      expect(await rows("SELECT * FROM user WHERE name = 'Eve'")).toEqual([]);
      const byRoot = await explain(basic("root"), "owner@ns", "RETURN 1");
      expect(byRoot.status, JSON.stringify(byRoot.body)).toBe(200);
    });

    it("RPC explain answers { results, decisions } as the HTTP route does", async () => {
      const r = await rpc(basic("ed"), ["record account as user:ann", "DELETE post:1"]);
      expect(r.error).toBeUndefined();
      expect(r.result?.decisions).toEqual([{ statement: 0, kind: "table", table: "post", record: "post:1", action: "delete", clause: "NONE", allowed: false, reason: "none" }]);
      expect((await rpc(basic("ed"), ["anonymous"])).error?.code).toBe(-32602);
    });

    it("a VIEWER or EDITOR does not see a password hash a clause carries; an OWNER does", async () => {
      const seen = async (user: string) => (await explain(basic(user), "record account as user:ann", "SELECT * FROM vault")).body.decisions[0]!;
      expect((await seen("ow")).clause).toBe(`WHERE hash != '${HASH}'`);
      for (const user of ["vi", "ed"]) expect((await seen(user)).clause).toBe("WHERE hash != '[REDACTED]'");
    });
  });
}
