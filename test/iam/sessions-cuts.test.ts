// iam/sessions-cuts.ts, attack pass 6 D1: a kill naming an identity refuses every token of it issued before the kill,
// also one never used in a registered session (an HTTP-only Bearer token), on every node sharing the store and after a
// restart; a token of the kill's own second, and a fresh signin, work.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newSession } from "../../src/exec/session.js";
import { REVOKED_STALENESS_MS } from "../../src/iam/sessions.js";
import { SurqlAuth } from "../../src/index.js";
import { FileStore } from "../../src/store/kv/file.js";
import { MemoryStore } from "../../src/store/kv/memory.js";
import type { KvStore } from "../../src/store/kv/types.js";

const AUTH_FAILED = "There was a problem with authentication";
const EXPIRED = "The session has expired";

const schema = (compat: 1 | 2) => `
  USE NS a DB a;
  DEFINE USER ann ON DATABASE PASSWORD 'pw' ROLES EDITOR;
  DEFINE USER bob ON DATABASE PASSWORD 'pw' ROLES EDITOR;
  ${compat === 1 ? "DEFINE SCOPE account SESSION 1h" : "DEFINE ACCESS account ON DATABASE TYPE RECORD"}
    SIGNUP (CREATE user SET email = $email) SIGNIN (SELECT * FROM user WHERE email = $email)
    ${compat === 1 ? "" : "DURATION FOR TOKEN 1h, FOR SESSION 1h"};`;

/** A clock the test moves by hand, 300 ms into a second. */
const movable = () => ({ ms: 1_800_000_000_300, now(): number { return this.ms; } });

const ANN = { NS: "a", DB: "a", user: "ann", pass: "pw" };
const BOB = { NS: "a", DB: "a", user: "bob", pass: "pw" };

for (const compat of [1, 2] as const) {
  describe(`kills by identity reach tokens, compat ${compat}`, () => {
    async function twoNodes(store: KvStore = new MemoryStore(), clock = movable()) {
      const a = await SurqlAuth.open({ compat, clock, storage: store, root: { user: "root", pass: "root" }, sessionSyncMs: 0 });
      await a.importText(schema(compat));
      const b = await SurqlAuth.open({ compat, clock, storage: store, sessionSyncMs: 0 });
      return { a, b, clock };
    }
    /** An HTTP request's Bearer check: a one-shot session, never registered. */
    const bearer = (db: SurqlAuth, token: string) => db.iam.authenticate(newSession(), token, "http");
    /** A token from a signin (or signup) whose connection closed at once: no registered session stands on it. */
    const tokenOf = async (db: SurqlAuth, creds: Record<string, string>, up = false) => {
      const c = db.connect();
      const token = up ? await c.signup(creds) : await c.signin(creds);
      await c.close();
      return token;
    };

    it("an HTTP-only token issued before a kill by user is refused on this node at once, on another within the staleness bound", async () => {
      const { a, b, clock } = await twoNodes();
      const ann = await tokenOf(a, ANN);
      const bob = await tokenOf(a, BOB);
      await bearer(a, ann);
      await bearer(b, ann);
      clock.ms += 1000;
      // no registered session stands on the token: the kill lists none, and still reaches it
      expect(await a.sessions.kill({ user: "ann" })).toEqual([]);
      await expect(bearer(a, ann)).rejects.toThrow(AUTH_FAILED);
      clock.ms += REVOKED_STALENESS_MS;
      await expect(bearer(b, ann)).rejects.toThrow(AUTH_FAILED);
      await expect(b.connect().authenticate(ann)).rejects.toThrow(AUTH_FAILED);
      // another user's token is untouched; a fresh signin works on both nodes
      await bearer(b, bob);
      const fresh = await tokenOf(b, ANN);
      await bearer(a, fresh);
      await bearer(b, fresh);
    });

    it("a kill by access reaches the record users' tokens; a signin in the kill's own second works", async () => {
      const { a, b, clock } = await twoNodes();
      const ac = compat === 1 ? "SC" : "AC";
      const old = await tokenOf(a, { NS: "a", DB: "a", [ac]: "account", email: "r@x" }, true);
      clock.ms += 1000;
      // issued in the kill's own second, before it: accepted (iat has whole seconds; sessions-cuts.ts issuedBefore)
      const sameSecond = await tokenOf(a, { NS: "a", DB: "a", [ac]: "account", email: "r@x" });
      clock.ms += 100;
      await a.sessions.kill({ access: "account" });
      clock.ms += REVOKED_STALENESS_MS;
      await expect(bearer(b, old)).rejects.toThrow(AUTH_FAILED);
      await bearer(b, sameSecond);
      const after = await tokenOf(b, { NS: "a", DB: "a", [ac]: "account", email: "r@x" });
      await bearer(a, after);
    });

    it("a session authenticated with an old token on a node that had not read the kill yet ends at its next sync", async () => {
      const { a, b, clock } = await twoNodes();
      const ann = await tokenOf(a, ANN);
      const late = b.connect();
      await bearer(b, ann); // b reads the store's kills now, and not again for REVOKED_STALENESS_MS
      clock.ms += REVOKED_STALENESS_MS - 1;
      await a.sessions.kill({ user: "ann" });
      await late.authenticate(ann);
      expect((await late.query("RETURN 1"))[0]!.result).toBe(1n);
      await b.sessions.sync();
      await expect(late.query("RETURN 1")).rejects.toThrow(EXPIRED);
    });

    it("the kill reaches the token after a restart on a file: store", async () => {
      const dir = mkdtempSync(join(tmpdir(), "cuts-"));
      const clock = movable();
      try {
        let storage: KvStore = await FileStore.open(join(dir, "data"));
        const { a } = await twoNodes(storage, clock);
        const ann = await tokenOf(a, ANN);
        clock.ms += 1000;
        await a.sessions.kill({ user: "ann" });
        a.iam.close();
        await storage.close();
        storage = await FileStore.open(join(dir, "data"));
        const again = await SurqlAuth.open({ compat, clock, storage, sessionSyncMs: 0 });
        await expect(bearer(again, ann)).rejects.toThrow(AUTH_FAILED);
        await bearer(again, await tokenOf(again, ANN));
        again.iam.close();
        await storage.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
