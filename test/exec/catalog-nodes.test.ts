// exec/ + store/: engines sharing one key-value store are nodes — a definition made on one applies on the other, a
// removed user's session ends there, tokens verify on both, and a restart loses no definition or generated key.
// Shared stores: one memory store, and two connections to one PostgreSQL (skipped where it is not installed).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession, type Clock, type Compat } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { FileStore } from "../../src/store/kv/file.js";
import type { KvStore } from "../../src/store/kv/types.js";
import { sharedStores } from "../helpers/shared-stores.js";
import { rootSession, run } from "./helpers.js";

function node(storage: KvStore, compat: Compat, clock?: Clock): { ds: Datastore; iam: Iam } {
  const ds = new Datastore({ compat, storage, ...(clock ? { clock } : {}) });
  return { ds, iam: new Iam(ds, { compat }) };
}

const ACCESS = {
  1: "DEFINE SCOPE account SESSION 1h SIGNUP (CREATE user SET email = $email, pass = crypto::argon2::generate($pass)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass))",
  2: "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email, pass = crypto::argon2::generate($pass)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass)) DURATION FOR SESSION 1h",
} as const;

const SCHEMA = (compat: Compat) => `DEFINE USER bob ON DATABASE PASSWORD 'pw' ROLES VIEWER; DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id; ${ACCESS[compat]}`;
const creds = (compat: Compat) => ({ NS: "test", DB: "test", ...(compat === 1 ? { SC: "account" } : { AC: "account" }), email: "a@example.com", pass: "pw" });
const bob = { NS: "test", DB: "test", user: "bob", pass: "pw" };

const { stores: SHARED, close } = sharedStores();
afterAll(close);

for (const shared of SHARED) {
  describe.skipIf(shared.skip !== undefined)(`two nodes on one ${shared.name} store`, () => {
    for (const compat of [1, 2] as const) {
      it(`a DEFINE FIELD made on A applies to a write on B (compat ${compat})`, async () => {
        const connect = await shared.open();
        const [a, b] = [node(await connect(), compat), node(await connect(), compat)];
        await run(b.ds, rootSession(), "INFO FOR DB");
        await run(a.ds, rootSession(), "DEFINE TABLE person SCHEMAFULL; DEFINE FIELD age ON person TYPE int");
        const [bad, good] = await run(b.ds, rootSession(), "CREATE person:1 SET age = 'old'; CREATE person:2 SET age = 3, other = true");
        expect(bad).toHaveProperty("err");
        expect(good).toEqual({ ok: [{ id: "person:2", age: 3 }] });
        await run(a.ds, rootSession(), "REMOVE FIELD age ON person; DEFINE FIELD name ON person TYPE string");
        expect((await run(b.ds, rootSession(), "CREATE person:3 SET name = 'x', age = 1"))[0]).toEqual({ ok: [{ id: "person:3", name: "x" }] });
      });

      it.skipIf(compat === 1)(`a param holding closures (2.x), defined on A, works on B (compat ${compat})`, async () => {
        const connect = await shared.open();
        const [a, b] = [node(await connect(), compat), node(await connect(), compat)];
        await run(a.ds, rootSession(), "DEFINE PARAM $inc VALUE |$x| $x + 1; DEFINE PARAM $fns VALUE { inc: |$x| $x + 2 }");
        expect(await run(b.ds, rootSession(), "RETURN array::map([1, 2], $inc); RETURN array::map([1], $fns.inc)")).toEqual([{ ok: [2, 3] }, { ok: [3] }]);
      });

      it(`REMOVE USER on A ends the user's session on B (compat ${compat})`, async () => {
        const connect = await shared.open();
        const [a, b] = [node(await connect(), compat), node(await connect(), compat)];
        await run(a.ds, rootSession(), SCHEMA(compat));
        const session = newSession();
        await b.iam.signin(session, bob);
        expect((await run(b.ds, session, "RETURN 1"))[0]).toEqual({ ok: 1 });
        await run(a.ds, rootSession(), "REMOVE USER bob ON DATABASE");
        await expect(b.ds.execute("RETURN 1", session)).rejects.toThrow();
      });

      it(`a record user signed up on A signs in and authenticates on B, and on a node started later (compat ${compat})`, async () => {
        const connect = await shared.open();
        const [a, b] = [node(await connect(), compat), node(await connect(), compat)];
        await run(a.ds, rootSession(), SCHEMA(compat));
        const { token } = await a.iam.signup(newSession(), creds(compat));
        const onB = newSession();
        await b.iam.authenticate(onB, token);
        expect((await run(b.ds, onB, "SELECT VALUE email FROM user"))[0]).toEqual({ ok: ["a@example.com"] });
        await b.iam.signin(newSession(), creds(compat));
        // another node's unrelated change reloads nothing B's cached token depends on (its checks compare identity)
        const access = b.ds.catalog.getAccess("DATABASE", "test", "test", "account");
        const user = b.ds.catalog.getUser("DATABASE", "test", "test", "bob");
        await run(a.ds, rootSession(), "DEFINE TABLE other; DEFINE USER carol ON ROOT PASSWORD 'x'");
        await run(b.ds, rootSession(), "INFO FOR DB");
        expect(b.ds.catalog.table("test", "test", "other")).toBeDefined();
        expect(b.ds.catalog.getAccess("DATABASE", "test", "test", "account")).toBe(access);
        expect(b.ds.catalog.getUser("DATABASE", "test", "test", "bob")).toBe(user);
        const later = node(await connect(), compat);
        const s = newSession();
        await later.iam.authenticate(s, token);
        expect((await run(later.ds, s, "SELECT VALUE email FROM user"))[0]).toEqual({ ok: ["a@example.com"] });
        await later.iam.signin(newSession(), creds(compat));
      });

      it(`REMOVE ACCESS on A refuses its tokens on B once B's view is a second old (compat ${compat})`, async () => {
        const connect = await shared.open();
        let now = Date.now();
        const clock = { now: () => now };
        const [a, b] = [node(await connect(), compat, clock), node(await connect(), compat, clock)];
        await run(a.ds, rootSession(), SCHEMA(compat));
        const { token } = await a.iam.signup(newSession(), creds(compat));
        await b.iam.authenticate(newSession(), token);
        await run(a.ds, rootSession(), compat === 1 ? "REMOVE SCOPE account" : "REMOVE ACCESS account ON DATABASE");
        // within the second B may still take it (bounded staleness, no notifications); past it, never
        now += 1001;
        await expect(b.iam.authenticate(newSession(), token)).rejects.toThrow("There was a problem with authentication");
      });

      it(`a cancelled transaction leaves the stored catalog unchanged (compat ${compat})`, async () => {
        const connect = await shared.open();
        const a = node(await connect(), compat);
        await run(a.ds, rootSession(), "BEGIN; DEFINE TABLE gone; DEFINE USER gone ON ROOT PASSWORD 'x'; CANCEL");
        await run(a.ds, rootSession(), "BEGIN; DEFINE TABLE kept; COMMIT");
        const later = node(await connect(), compat);
        await run(later.ds, rootSession(), "INFO FOR DB");
        expect(later.ds.catalog.table("test", "test", "gone")).toBeUndefined();
        expect(later.ds.catalog.getUser("ROOT", undefined, undefined, "gone")).toBeUndefined();
        expect(later.ds.catalog.table("test", "test", "kept")).toBeDefined();
      });
    }
  });
}

describe("a restart on a file: store", () => {
  for (const compat of [1, 2] as const) {
    it(`keeps system users, record users and the generated keys their tokens are signed with (compat ${compat})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "catalog-"));
      try {
        let store = await FileStore.open(join(dir, "data"));
        const first = node(store, compat);
        await run(first.ds, rootSession(), SCHEMA(compat));
        const { token } = await first.iam.signup(newSession(), creds(compat));
        const { token: bobToken } = await first.iam.signin(newSession(), bob);
        await store.close();
        store = await FileStore.open(join(dir, "data"));
        const restarted = node(store, compat);
        const s = newSession();
        await restarted.iam.authenticate(s, token);
        expect((await run(restarted.ds, s, "SELECT VALUE email FROM user"))[0]).toEqual({ ok: ["a@example.com"] });
        await restarted.iam.signin(newSession(), creds(compat));
        await restarted.iam.authenticate(newSession(), bobToken);
        await restarted.iam.signin(newSession(), bob);
        await store.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
