// The seed's typical set-up end to end in-process, with results recorded from SurrealDB 2.6.0 / 1.5.4.

import { describe, expect, it } from "vitest";
import { newDs, recordSession, rootSession, run, SEED_SCHEMA, systemSession } from "./helpers.js";
import { newSession } from "../../src/exec/session.js";

describe("seed set-up (compat 2)", () => {
  it("enforces TYPE, ASSERT and UNIQUE with SurrealDB's messages", async () => {
    const ds = newDs();
    const out = await run(
      ds,
      rootSession(),
      `${SEED_SCHEMA}
      CREATE user:a SET name = 'A', email = 'a@b.com', password = 'x';
      CREATE user:b SET name = 'B', email = 'x', password = 'x';
      CREATE user:c SET name = 'C', email = 'a@b.com', password = 'x';
      CREATE user:d SET name = 1, email = 'd@b.com', password = 'x';
      CREATE user:e SET email = 'e@b.com', password = 'x', extra = 1;
      SELECT * FROM user;`,
    );
    expect(out.slice(5)).toEqual([
      { ok: [{ email: "a@b.com", id: "user:a", name: "A", password: "x" }] },
      { err: "Found 'x' for field `email`, with record `user:b`, but field must conform to: string::is::email($value)" },
      { err: "Database index `email` already contains 'a@b.com', with record `user:a`" },
      { err: "Found 1 for field `name`, with record `user:d`, but expected a string" },
      { err: "Found NONE for field `name`, with record `user:e`, but expected a string" },
      { ok: [{ email: "a@b.com", id: "user:a", name: "A", password: "x" }] },
    ]);
  });

  it("shows root every user and a record user only its own record", async () => {
    const ds = newDs();
    await run(
      ds,
      rootSession(),
      `${SEED_SCHEMA}
      CREATE user:alice SET name = 'Alice', email = 'alice@example.com', password = 'p1';
      CREATE user:bob SET name = 'Bob', email = 'bob@example.com', password = 'p2';`,
    );
    const all = await run(ds, rootSession(), "SELECT VALUE id FROM user");
    expect(all).toEqual([{ ok: ["user:alice", "user:bob"] }]);
    const alice = recordSession("user", "alice");
    const mine = await run(ds, alice, "SELECT name FROM user; RETURN $auth; RETURN $auth.name; RETURN $auth.id; RETURN $access");
    expect(mine).toEqual([{ ok: [{ name: "Alice" }] }, { ok: "user:alice" }, { ok: "Alice" }, { ok: "user:alice" }, { ok: "account" }]);
  });

  it("lets a record user update only its own record, and never create tables", async () => {
    const ds = newDs();
    await run(ds, rootSession(), `${SEED_SCHEMA} CREATE user:a SET name='A', email='a@b.com', password='x'; CREATE user:b SET name='B', email='b@b.com', password='b';`);
    const out = await run(ds, recordSession("user", "a"), "UPDATE user SET name = 'Z'; UPDATE user:b SET name = 'Z'; DELETE user:b; SELECT * FROM user:b; CREATE nothere:1; SELECT * FROM nothere");
    expect(out).toEqual([
      { ok: [{ email: "a@b.com", id: "user:a", name: "Z", password: "x" }] },
      { ok: [] },
      { ok: [] },
      { ok: [] },
      { err: "IAM error: Not enough permissions to perform this action" },
      { ok: [] },
    ]);
    const b = await run(ds, rootSession(), "SELECT name FROM user:b");
    expect(b).toEqual([{ ok: [{ name: "B" }] }]);
  });

  it("skips silently what table permissions deny; field select NONE strips the field", async () => {
    const ds = newDs();
    await run(
      ds,
      rootSession(),
      `${SEED_SCHEMA}
      REMOVE FIELD password ON user; DEFINE FIELD password ON user TYPE string PERMISSIONS FOR select NONE;
      DEFINE TABLE post PERMISSIONS FOR select FULL FOR create WHERE $auth.id != NONE;
      DEFINE TABLE secret; CREATE secret:1 SET a = 1;
      CREATE user:a SET name='A', email='a@b.com', password='x';`,
    );
    const out = await run(
      ds,
      recordSession("user", "a"),
      "SELECT * FROM user; SELECT * FROM secret; CREATE secret:2 SET a = 2; UPDATE secret SET a = 5; DELETE secret; CREATE post:1 SET x = 1; SELECT * FROM post; UPDATE post:1 SET x = 2; CREATE ONLY post:2 RETURN AFTER; DELETE post:1 RETURN BEFORE; DEFINE TABLE x; INFO FOR DB",
    );
    expect(out).toEqual([
      { ok: [{ email: "a@b.com", id: "user:a", name: "A" }] },
      { ok: [] },
      { ok: [] },
      { ok: [] },
      { ok: [] },
      { ok: [{ id: "post:1", x: 1 }] },
      { ok: [{ id: "post:1", x: 1 }] },
      { ok: [] },
      { ok: { id: "post:2" } },
      { ok: [] },
      { err: "IAM error: Not enough permissions to perform this action" },
      { err: "IAM error: Not enough permissions to perform this action" },
    ]);
  });

  it("lets a database viewer read everything but write only where permissions allow", async () => {
    const ds = newDs();
    await run(ds, rootSession(), `${SEED_SCHEMA} DEFINE TABLE secret; CREATE secret:1 SET a = 1; CREATE user:b SET name='B', email='b@b.com', password='b';`);
    const out = await run(ds, systemSession("Database", ["VIEWER"]), "SELECT * FROM user; SELECT * FROM secret; CREATE secret:3; UPDATE secret SET b = 1; DEFINE TABLE y; CREATE nothere2:1");
    expect(out).toEqual([
      { ok: [{ email: "b@b.com", id: "user:b", name: "B", password: "b" }] },
      { ok: [{ a: 1, id: "secret:1" }] },
      { ok: [] },
      { ok: [] },
      { err: "IAM error: Not enough permissions to perform this action" },
      { err: "IAM error: Not enough permissions to perform this action" },
    ]);
  });

  it("requires a namespace and a database", async () => {
    const ds = newDs();
    const none = rootSession();
    none.ns = undefined;
    none.db = undefined;
    expect(await run(ds, none, "SELECT * FROM user; USE NS test; SELECT * FROM user")).toEqual([
      { err: "Specify a namespace to use" },
      { ok: null },
      { err: "Specify a database to use" },
    ]);
  });

  it("refuses guests unless allowed, and lets anonymous do everything with auth off", async () => {
    const guest = newSession({ ns: "test", db: "test" });
    await expect(newDs().execute("RETURN 1", guest)).rejects.toThrow("IAM error: Not enough permissions to perform this action");
    expect(await run(newDs({ auth: false }), guest, "CREATE t:1; SELECT * FROM t")).toEqual([{ ok: [{ id: "t:1" }] }, { ok: [{ id: "t:1" }] }]);
    expect(await run(newDs({ allowGuests: true }), guest, "RETURN 1; CREATE t:1")).toEqual([{ ok: 1 }, { err: "IAM error: Not enough permissions to perform this action" }]);
  });

  it("rejects an expired session on every call", async () => {
    const ds = newDs({ clock: { now: () => 10_000_000 } });
    const s = rootSession();
    s.exp = 9_999;
    await expect(ds.execute("RETURN 1", s)).rejects.toThrow("The session has expired");
    await expect(ds.evaluate({ kind: "Literal", value: 1n }, s)).rejects.toThrow("The session has expired");
    s.exp = 10_000;
    expect(await run(ds, s, "RETURN 1")).toEqual([{ ok: 1 }]);
  });
});

describe("record users outside their database", () => {
  it("may USE another namespace (SurrealDB answers NONE) but do nothing there (stricter: SurrealDB lists [] from a missing database)", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE TABLE t PERMISSIONS FULL; CREATE t:1; USE NS other DB other; DEFINE TABLE t PERMISSIONS FULL; CREATE t:2;");
    const out = await run(ds, recordSession("user", 1n), "USE NS other; SELECT * FROM t; USE DB other; SELECT * FROM t; CREATE t:3; USE NS test DB test; SELECT * FROM t");
    expect(out).toEqual([
      { ok: null },
      { err: "You don't have permission to change to the other namespace" },
      { ok: null },
      { err: "You don't have permission to change to the other namespace" },
      { err: "You don't have permission to change to the other namespace" },
      { ok: null },
      { ok: [{ id: "t:1" }] },
    ]);
  });

  it("undoes every write of a statement that fails half-way", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE FIELD n ON t TYPE int; CREATE t:1 SET n = 1; CREATE t:2 SET n = 2; CREATE t:3 SET n = 3");
    const out = await run(ds, rootSession(), "UPDATE t SET n = IF id = t:3 THEN 'x' ELSE n + 10 END; SELECT VALUE n FROM t");
    expect(out).toEqual([{ err: "Found 'x' for field `n`, with record `t:3`, but expected a int" }, { ok: [1, 2, 3] }]);
  });
});
