// Whose rights an expression runs with: a record user's WHERE operands (pushdown or not), fn:: calls and $params
// run with the client's rights, and a record user never leaves its namespace and database. Answers from
// SurrealDB 1.5.4 and 2.6.0 as a record user (oracle), or stricter where SurrealDB leaks.

import { describe, expect, it } from "vitest";
import { newSession } from "../../src/exec/session.js";
import type { Compat, Session } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";
import { newDs, rootSession, run } from "./helpers.js";

const SETUP = `
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id, FOR create, update, delete NONE;
DEFINE INDEX email ON user FIELDS email UNIQUE;
DEFINE TABLE audit SCHEMALESS PERMISSIONS NONE;
DEFINE TABLE note PERMISSIONS FOR select WHERE owner = $auth.id;
CREATE note:1 SET owner = user:alice;
CREATE user:alice SET email = 'alice@x', secret = 'a-secret', n = 1;
CREATE user:bob SET email = 'bob@x', secret = 'b-secret', n = 2;
DEFINE FUNCTION fn::leak() { CREATE audit:1 SET x = 1; RETURN 'bob@x' } PERMISSIONS NONE;
DEFINE FUNCTION fn::open() { RETURN 'bob@x' };
DEFINE FUNCTION fn::all() { RETURN SELECT VALUE id FROM user };
DEFINE FUNCTION fn::write() { CREATE audit:2 SET x = 2; RETURN 1 };
DEFINE PARAM $hidden VALUE 'bob@x' PERMISSIONS NONE;
DEFINE PARAM $shown VALUE 'bob@x';
USE NS test DB other;
DEFINE PARAM $otherp VALUE 'other-param';
DEFINE FUNCTION fn::other() { RETURN 'other-fn' };
DEFINE TABLE thing PERMISSIONS FULL;
CREATE thing:1 SET v = 1;
USE NS other DB other;
DEFINE PARAM $otherp VALUE 'other-ns-param';
`;

/** alice as SurrealDB makes her: a 1.x scope user or a 2.x record user of test/test. */
function alice(compat: Compat): Session {
  const actor = { level: compat === 1 ? ("Scope" as const) : ("Record" as const), ns: "test", db: "test", id: "user:alice", roles: [] };
  return newSession({ ns: "test", db: "test", actor, rd: new RecordId("user", "alice"), ac: "account" });
}

async function setup(compat: Compat, pushdown = true) {
  const ds = newDs({ compat, pushdown });
  await run(ds, rootSession(), SETUP);
  return ds;
}

const SQRT_NONE = "Incorrect arguments for function math::sqrt(). Argument 1 was the wrong type. Expected a number but found NONE";
const ALICE = { email: "alice@x", id: "user:alice", n: 1, secret: "a-secret" };

describe.each([1, 2] as const)("WHERE operands run with the client's rights (compat %i)", (compat) => {
  const cases: [string, string, unknown][] = [
    // bob's record is not visible to alice: NONE, so no record text in the error (indexed, plain, and id)
    ["an indexed field", "SELECT * FROM user WHERE email = math::sqrt(user:bob.*)", { err: SQRT_NONE }],
    ["a field without index", "SELECT * FROM user WHERE secret = math::sqrt(user:bob.*)", { err: SQRT_NONE }],
    ["the id", "SELECT * FROM user WHERE id = math::sqrt(user:bob.*)", { err: SQRT_NONE }],
    ["the id, with no hint from the permission", "SELECT * FROM note WHERE id = math::sqrt(user:bob.*)", { err: SQRT_NONE }],
    ["the id, through an fn:: with PERMISSIONS NONE", "SELECT * FROM note WHERE id = fn::leak()", { err: "You don't have permission to run the fn::leak function" }],
    ["an fn:: with PERMISSIONS NONE", "SELECT * FROM user WHERE email = fn::leak()", { err: "You don't have permission to run the fn::leak function" }],
    ["a $param with PERMISSIONS NONE", "SELECT * FROM user WHERE email = $hidden", { err: "You don't have permission to view the $hidden parameter" }],
    // no range oracle: bob's email is NONE to alice, and every email sorts after NONE
    ["a range operand", "SELECT * FROM user WHERE email > user:bob.email", { ok: [ALICE] }],
    ["an equality on a hidden value", "SELECT * FROM user WHERE email = user:bob.email", { ok: [] }],
    ["an fn:: with FULL permissions", "SELECT * FROM user WHERE email = fn::open()", { ok: [] }],
    ["a $param with FULL permissions", "SELECT * FROM user WHERE email = $shown", { ok: [] }],
    // stricter than SurrealDB, which checks WHERE before the table permission and prints bob's 'b-secret' here
    ["a WHERE that raises on a hidden row", "SELECT * FROM user WHERE n = 2 AND math::sqrt(secret) = 1", { ok: [] }],
    ["the record id hint", "SELECT * FROM user WHERE id = user:bob", { ok: [] }],
    ["the record id hint on a visible row", "SELECT * FROM note WHERE id = note:1", { ok: [{ id: "note:1", owner: "user:alice" }] }],
  ];
  it.each(cases)("%s", async (_name, query, expected) => {
    for (const pushdown of [true, false]) {
      const ds = await setup(compat, pushdown);
      expect(await run(ds, alice(compat), query)).toEqual([expected]);
      // nothing the client's operand called wrote anything
      expect(await run(ds, rootSession(), "SELECT * FROM audit")).toEqual([{ ok: [] }]);
    }
  });

  it("runs fn:: bodies with the caller's rights: they read and write only what the caller may (as SurrealDB)", async () => {
    const ds = await setup(compat);
    expect(await run(ds, alice(compat), "RETURN fn::all(); RETURN fn::write()")).toEqual([{ ok: ["user:alice"] }, { ok: 1 }]);
    expect(await run(ds, rootSession(), "SELECT * FROM audit")).toEqual([{ ok: [] }]);
  });

  it("still finds the record user's own row through the permission (a schema clause)", async () => {
    const ds = await setup(compat);
    expect(await run(ds, alice(compat), "SELECT * FROM user; SELECT * FROM user WHERE email = 'alice@x'")).toEqual([{ ok: [ALICE] }, { ok: [ALICE] }]);
  });
});

describe.each([1, 2] as const)("a record user stays in its namespace and database (compat %i)", (compat) => {
  const OTHER_DB = "You don't have permission to change to the other database";
  const OTHER_NS = "You don't have permission to change to the other namespace";

  it("reads no DEFINE PARAM, calls no function, lists nothing in another database (SurrealDB leaks the first two)", async () => {
    const ds = await setup(compat);
    const out = await run(ds, alice(compat), "USE DB other; RETURN $otherp; RETURN fn::other(); SELECT * FROM thing; SELECT * FROM nothing; INFO FOR DB; RETURN 1 + 1");
    expect(out).toEqual([{ ok: null }, { err: OTHER_DB }, { err: OTHER_DB }, { err: OTHER_DB }, { err: OTHER_DB }, { err: OTHER_DB }, { ok: 2 }]);
  });

  it("nor in another namespace, and is back at home after USE", async () => {
    const ds = await setup(compat);
    const out = await run(ds, alice(compat), "USE NS other DB other; RETURN $otherp; RETURN fn::other(); USE NS test DB test; RETURN $shown; RETURN fn::open()");
    expect(out).toEqual([{ ok: null }, { err: OTHER_NS }, { err: OTHER_NS }, { ok: null }, { ok: "bob@x" }, { ok: "bob@x" }]);
  });

  it("however the session was pointed elsewhere (RPC use, HTTP headers)", async () => {
    const ds = await setup(compat);
    const s = alice(compat);
    s.db = "other";
    expect(await run(ds, s, "RETURN $otherp; CREATE thing:2")).toEqual([{ err: OTHER_DB }, { err: OTHER_DB }]);
  });
});

describe("closures run with no more than the invoker's rights, in the invoker's session (2.x)", () => {
  const SCHEMA = `
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
CREATE user:alice; CREATE user:bob;
DEFINE PARAM $f VALUE |$x| (SELECT VALUE id FROM user);
DEFINE TABLE box PERMISSIONS FOR select WHERE $probe = NONE OR array::len(array::flatten(array::map([1], $probe))) = 2;
CREATE box:1;
DEFINE TABLE own PERMISSIONS FOR select WHERE array::len(array::flatten(array::map([1], |$x| (SELECT VALUE id FROM user)))) = 2;
CREATE own:1;
`;
  it("a DEFINE PARAM closure made by root runs as the record user who calls it (as SurrealDB)", async () => {
    const ds = newDs();
    await run(ds, rootSession(), SCHEMA);
    expect(await run(ds, alice(2), "RETURN array::map([1], $f); LET $g = $f; RETURN array::map([1], $g)")).toEqual([{ ok: [["user:alice"]] }, { ok: null }, { ok: [["user:alice"]] }]);
  });

  it("a closure a schema clause writes runs with its owner rights (as SurrealDB)", async () => {
    const ds = newDs();
    await run(ds, rootSession(), SCHEMA);
    expect(await run(ds, alice(2), "SELECT * FROM own; SELECT * FROM box")).toEqual([{ ok: [{ id: "own:1" }] }, { ok: [{ id: "box:1" }] }]);
  });

  it("a client's closure never reaches a schema clause: its variables are not the clause's (stricter: SurrealDB's clause calls the probe, which sees bob)", async () => {
    const ds = newDs();
    await run(ds, rootSession(), SCHEMA);
    // the clause's $probe is NONE whatever the client LETs, so box:1 shows through `$probe = NONE`
    expect(await run(ds, alice(2), "LET $probe = |$x| (SELECT VALUE id FROM user); SELECT * FROM box")).toEqual([{ ok: null }, { ok: [{ id: "box:1" }] }]);
  });
});
