// A system user's live session ends once that user is removed or redefined (new roles or password): a demoted or
// removed OWNER keeps no rights on an already-open connection (attack re-check R4; SurrealDB keeps them).

import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";

const redefine = (compat: 1 | 2) => (compat === 1 ? "DEFINE USER" : "DEFINE USER OVERWRITE");

describe.each([1, 2] as const)("system-user sessions and their user (compat %i)", (compat) => {
  it("removing or demoting a user ends its open sessions; others and a fresh signin are unaffected", async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    const root = db.connect({ ns: "app", db: "app" });
    await root.signin({ user: "root", pass: "root" });
    for (const r of await root.query("DEFINE USER dem ON DATABASE PASSWORD 'd' ROLES OWNER; DEFINE USER gone ON DATABASE PASSWORD 'g' ROLES OWNER; DEFINE USER keep ON DATABASE PASSWORD 'k' ROLES OWNER")) expect(r.status).toBe("OK");
    const open = async (user: string, pass: string) => {
      const c = db.connect({ ns: "app", db: "app" });
      await c.signin({ NS: "app", DB: "app", user, pass });
      return c;
    };
    const [dem, gone, keep] = [await open("dem", "d"), await open("gone", "g"), await open("keep", "k")];
    for (const [i, c] of [dem, gone, keep].entries()) expect((await c.query(`DEFINE TABLE t1_${i}`))[0]!.status).toBe("OK");
    await root.query(`${redefine(compat)} dem ON DATABASE PASSWORD 'd' ROLES VIEWER; REMOVE USER gone ON DATABASE`);
    // the demoted and the removed user's open connections are refused, so neither can plant a new OWNER
    for (const c of [dem, gone]) await expect(c.query("DEFINE USER planted ON DATABASE PASSWORD 'x' ROLES OWNER")).rejects.toThrow("The session has expired");
    const [info] = await root.query("INFO FOR DB");
    expect(Object.keys((info!.result as { users: object }).users).sort()).toEqual(["dem", "keep"]);
    // an unrelated user's session goes on; the demoted user signs in again with its new role
    expect((await keep.query("DEFINE TABLE t2"))[0]!.status).toBe("OK");
    const again = await open("dem", "d");
    expect((await again.query("SELECT * FROM t1_0"))[0]!.status).toBe("OK");
    expect((await again.query("DEFINE TABLE t3"))[0]!.result).toBe("IAM error: Not enough permissions to perform this action");
  });

  it("a removal or redefinition that does not commit (cancelled or failed) ends no session; the committed one does (F6)", async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    const root = db.connect({ ns: "app", db: "app" });
    await root.signin({ user: "root", pass: "root" });
    expect((await root.query("DEFINE USER v ON DATABASE PASSWORD 'v' ROLES VIEWER"))[0]!.status).toBe("OK");
    const live = db.connect({ ns: "app", db: "app" });
    await live.signin({ NS: "app", DB: "app", user: "v", pass: "v" });
    const alive = async () => expect((await live.query("RETURN 1"))[0]!.status).toBe("OK");
    for (const change of [`${redefine(compat)} v ON DATABASE PASSWORD 'new' ROLES VIEWER`, "REMOVE USER v ON DATABASE"]) {
      expect((await root.query(`BEGIN; ${change}; CANCEL`))[0]!.result).toMatch(/cancelled transaction/);
      await alive();
      expect((await root.query(`BEGIN; ${change}; THROW 'no'; COMMIT`))[0]!.result).toMatch(/failed transaction/);
      await alive();
    }
    // the old password still signs in: nothing was kept
    await db.connect({ ns: "app", db: "app" }).signin({ NS: "app", DB: "app", user: "v", pass: "v" });
    expect((await root.query(`${redefine(compat)} v ON DATABASE PASSWORD 'new' ROLES VIEWER`))[0]!.status).toBe("OK");
    await expect(live.query("RETURN 1")).rejects.toThrow("The session has expired");
  });
});
