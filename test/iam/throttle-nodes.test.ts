// iam/throttle.ts across nodes: two engines on one store (a shared memory store, and two connections to one PostgreSQL,
// skipped where it is not installed) count failures together, see each other's lockouts and clears once their cached
// view is CACHE_MS old, and a sweep drops marks older than every window. Fake clock, counted answers.

import { afterAll, describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession, type Compat } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { CACHE_MS, TooManyAttempts } from "../../src/iam/throttle.js";
import { KvThrottleStore, newMark } from "../../src/iam/throttle-store.js";
import { sharedStores } from "../helpers/shared-stores.js";
import { rootSession, run } from "../exec/helpers.js";
import { FakeClock } from "./fake-engine.js";

const SCHEMA = "DEFINE USER bob ON DATABASE PASSWORD 'pw' ROLES VIEWER";
const bob = (pass: string) => ({ NS: "test", DB: "test", user: "bob", pass });

const { stores: SHARED, close } = sharedStores();
afterAll(close);

async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (e) {
    return e instanceof TooManyAttempts ? `throttled ${e.retryAfterSeconds}` : "failed";
  }
}

for (const shared of SHARED) {
  describe.skipIf(shared.skip !== undefined)(`throttle on two nodes of one ${shared.name} store`, () => {
    for (const compat of [1, 2] as const) {
      async function nodes() {
        const connect = await shared.open();
        const clock = new FakeClock();
        const node = async () => {
          const storage = await connect();
          const ds = new Datastore({ compat: compat as Compat, storage, clock });
          return { ds, iam: new Iam(ds, { throttle: { signinMaxFailures: 4, backoffAfter: 0, ipMaxAttempts: 6 }, throttleStore: storage }) };
        };
        const [a, b] = [await node(), await node()];
        await run(a.ds, rootSession(), SCHEMA);
        return { a, b, clock, node };
      }

      it(`failures on A and B add up; A's lockout holds on B, and on a node started later (compat ${compat})`, async () => {
        const { a, b, clock, node } = await nodes();
        expect(await outcome(a.iam.signin(newSession(), bob("wrong")))).toBe("failed");
        expect(await outcome(b.iam.signin(newSession(), bob("wrong")))).toBe("failed");
        clock.advance(CACHE_MS / 1000);
        expect(await outcome(a.iam.signin(newSession(), bob("wrong")))).toBe("failed");
        expect(await outcome(a.iam.signin(newSession(), bob("wrong")))).toBe("failed");
        // four failures over two nodes: locked on A, and on B (whose view of the store is CACHE_MS old)
        expect(await outcome(a.iam.signin(newSession(), bob("pw")))).toBe("throttled 899");
        expect(await outcome(b.iam.signin(newSession(), bob("pw")))).toBe("throttled 899");
        const later = await node();
        expect(await outcome(later.iam.signin(newSession(), bob("pw")))).toBe("throttled 899");
        clock.advance(899);
        expect(await outcome(b.iam.signin(newSession(), bob("pw")))).toBe("ok");
      });

      it(`a success on B does not clear the identity's failures on A (D12); the address budget is shared and not given back (compat ${compat})`, async () => {
        const { a, b, clock } = await nodes();
        const from = () => newSession({ ip: "192.0.2.9" });
        for (let i = 0; i < 3; i++) expect(await outcome(a.iam.signin(from(), bob("wrong")))).toBe("failed");
        clock.advance(CACHE_MS / 1000);
        expect(await outcome(b.iam.signin(from(), bob("pw")))).toBe("ok");
        clock.advance(CACHE_MS / 1000);
        // bob's three failures stay: a fourth on A locks him (from another address: only the identity counts)
        expect(await outcome(a.iam.signin(newSession({ ip: "192.0.2.11" }), bob("wrong")))).toBe("failed");
        expect(await outcome(a.iam.signin(newSession({ ip: "192.0.2.10" }), bob("pw")))).toMatch(/^throttled /);
        // five attempts from 192.0.2.9 over both nodes, one of them a success: the sixth is taken, the seventh refused
        clock.advance(CACHE_MS / 1000);
        expect(await outcome(b.iam.signin(from(), bob("wrong")))).not.toBe("ok");
        expect(await outcome(a.iam.signin(from(), bob("wrong")))).toMatch(/^throttled /);
      });

      it(`a password hash locked on A is held back on B through another spelling of the login (one secret per store; compat ${compat})`, async () => {
        const { a, b, clock, node } = await nodes();
        const clause = "SELECT * FROM acct WHERE login = string::slug($login) AND crypto::argon2::compare(pass, $pass)";
        await run(
          a.ds,
          rootSession(),
          `${compat === 1 ? `DEFINE SCOPE slug SESSION 5m SIGNIN (${clause})` : `DEFINE ACCESS slug ON DATABASE TYPE RECORD SIGNIN (${clause})`};
CREATE acct:1 SET login = 'bob', pass = crypto::argon2::generate('right');`,
        );
        const slug = (login: string, pass: string) => ({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "slug", login, pass });
        for (let i = 0; i < 4; i++) expect(await outcome(a.iam.signin(newSession(), slug("bob", "wrong")))).toBe("failed");
        clock.advance(CACHE_MS / 1000);
        expect(await outcome(b.iam.signin(newSession(), slug("Bob!", "right")))).toBe("failed");
        expect(await outcome((await node()).iam.signin(newSession(), slug("bob.", "right")))).toBe("failed");
        clock.advance(900);
        expect(await outcome(b.iam.signin(newSession(), slug("Bob!", "right")))).toBe("ok");
      });

      it(`the account a login names is shared: unknown logins on A lock no row on B, the named one's failures on A hold it back on B (J6; compat ${compat})`, async () => {
        const { a, b, clock } = await nodes();
        const clause = "SELECT * FROM acct WHERE crypto::argon2::compare(vault.pass, $pass) AND login = string::slug($login)";
        await run(
          a.ds,
          rootSession(),
          `${compat === 1 ? `DEFINE SCOPE cf SESSION 5m SIGNIN (${clause})` : `DEFINE ACCESS cf ON DATABASE TYPE RECORD SIGNIN (${clause})`};
CREATE vault:1 SET pass = crypto::argon2::generate('right'); CREATE acct:1 SET login = 'bob', vault = vault:1;
CREATE vault:2 SET pass = crypto::argon2::generate('carol-pass'); CREATE acct:2 SET login = 'carol', vault = vault:2;`,
        );
        const cf = (login: string, pass: string) => ({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "cf", login, pass });
        for (let i = 0; i < 5; i++) expect(await outcome(a.iam.signin(newSession(), cf(`nobody${i}`, "wrong")))).toBe("failed");
        for (let i = 0; i < 4; i++) expect(await outcome(a.iam.signin(newSession(), cf("bob", "wrong")))).toBe("failed");
        clock.advance(CACHE_MS / 1000);
        // the hash lives in a linked record: the record itself is held back, after its verify, by another spelling
        expect(await outcome(b.iam.signin(newSession(), cf("Bob!", "right")))).toBe("failed");
        expect(await outcome(b.iam.signin(newSession(), cf("carol", "carol-pass")))).toBe("ok");
      });
    }

    it("nodes making the store's throttle secret at once agree on one (the loser retries and reads the winner's)", async () => {
      const connect = await shared.open();
      const nodes = [new KvThrottleStore(await connect()), new KvThrottleStore(await connect()), new KvThrottleStore(await connect())];
      const secrets = await Promise.all(nodes.map((n) => n.secret()));
      expect(secrets[0]).toHaveLength(32);
      for (const s of secrets) expect(Buffer.from(s).toString("hex")).toBe(Buffer.from(secrets[0]!).toString("hex"));
      expect(Buffer.from(await new KvThrottleStore(await connect()).secret()).toString("hex")).toBe(Buffer.from(secrets[0]!).toString("hex"));
    });

    it("the sweep drops marks older than the cut and keeps the rest", async () => {
      const store = new KvThrottleStore(await (await shared.open())());
      const key = "k".repeat(22);
      const [old, recent] = [newMark(1_000), newMark(5_000)];
      await store.write([[key, old], [key, recent], ["o".repeat(22), newMark(2_000)]]);
      expect(await store.sweep(3_000)).toBe(2);
      expect(await store.read([key, "o".repeat(22)], 0)).toEqual([[recent], []]);
    });
  });
}
