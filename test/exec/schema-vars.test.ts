// A schema body (PERMISSIONS, field VALUE / DEFAULT / ASSERT, events, access clauses, function bodies, param values)
// sees the engine's bindings, its own LETs and arguments and the DEFINE PARAMs — never the client's query variables,
// LETs or RPC `let` params, and an access clause's credentials never shadow a DEFINE PARAM (pentest F3, issue #9).
// Stricter than SurrealDB 1.5.4 / 2.6.0, where the client's variable wins (oracle: LET $gate_open = true passes).

import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import type { Compat } from "../../src/exec/session.js";
import { toJson } from "../../src/value/index.js";
import type { Value } from "../../src/value/types.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const SCHEMA = `
DEFINE PARAM $gate_open VALUE false PERMISSIONS NONE;
DEFINE PARAM $gate_pub VALUE false;
DEFINE TABLE gated SCHEMALESS PERMISSIONS
  FOR select WHERE $gate_open = true OR $gate_pub = true OR owner = $auth,
  FOR create, update, delete WHERE $gate_open = true OR $gate_pub = true;
CREATE gated:1 SET s = 'secret', owner = user:nobody;
DEFINE PARAM $org VALUE 'org_default';
DEFINE TABLE post SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD org ON post VALUE $org;
DEFINE FIELD tag ON post DEFAULT $org;
DEFINE FIELD checked ON post VALUE $value ASSERT $org = 'org_default';
DEFINE FUNCTION fn::is_open() { RETURN $gate_open; };
DEFINE FUNCTION fn::pub_open() { RETURN $gate_pub; };
DEFINE FUNCTION fn::echo($x: any) { LET $y = $x; RETURN [$x, $y, $gate_pub]; };
DEFINE TABLE gated2 SCHEMALESS PERMISSIONS FOR select WHERE fn::pub_open() = true;
CREATE gated2:1 SET s = 'secret2';
DEFINE TABLE log SCHEMALESS PERMISSIONS FULL;
DEFINE EVENT ev ON post THEN (CREATE log SET org = $org, event = $event, after = $after.org);
`;

const alice = () => recordSession("user", "alice");
const HIDDEN = "You don't have permission to view the $gate_open parameter";

async function setup(compat: Compat) {
  const ds = newDs({ compat });
  await run(ds, rootSession(), SCHEMA);
  return ds;
}

describe.each([1, 2] as const)("client variables never shadow a DEFINE PARAM in a schema body (compat %i)", (compat) => {
  it("LET does not open a table PERMISSIONS rule (select, create, update)", async () => {
    const ds = await setup(compat);
    const out = await run(ds, alice(), "LET $gate_open = true; LET $gate_pub = true; SELECT * FROM gated; CREATE gated:2; UPDATE gated:1 SET s = 'x'");
    expect(out).toEqual([{ ok: null }, { ok: null }, { ok: [] }, { ok: [] }, { ok: [] }]);
    expect(await run(ds, rootSession(), "SELECT * FROM gated")).toEqual([{ ok: [{ id: "gated:1", owner: "user:nobody", s: "secret" }] }]);
  });

  it("query variables do not either", async () => {
    const ds = await setup(compat);
    const rs = await ds.execute("SELECT * FROM gated; SELECT * FROM gated2", alice(), { gate_open: true, gate_pub: true });
    expect(rs.map((r) => toJson(r.result, { compat }))).toEqual([[], []]);
  });

  it("the client's own expression still sees its variable", async () => {
    const ds = await setup(compat);
    expect(await run(ds, alice(), "LET $gate_open = true; RETURN $gate_open")).toEqual([{ ok: null }, { ok: true }]);
  });

  it("a field VALUE / DEFAULT / ASSERT and an event read the DEFINE PARAM", async () => {
    const ds = await setup(compat);
    const out = await run(ds, alice(), "LET $org = 'evil'; CREATE post:1 SET checked = 1; SELECT org, event, after FROM log");
    expect(out).toEqual([{ ok: null }, { ok: [{ checked: 1, id: "post:1", org: "org_default", tag: "org_default" }] }, { ok: [{ after: "org_default", event: "CREATE", org: "org_default" }] }]);
  });

  it("a function body sees its arguments and own LETs, not the caller's variables", async () => {
    const ds = await setup(compat);
    const out = await run(ds, alice(), "LET $gate_pub = true; LET $y = 5; SELECT * FROM gated2; RETURN fn::echo(1); RETURN fn::is_open()");
    expect(out).toEqual([{ ok: null }, { ok: null }, { ok: [] }, { ok: [1, 1, false] }, { err: HIDDEN }]);
  });

  it("a variable no DEFINE PARAM names is not the schema body's either", async () => {
    const ds = await setup(compat);
    await run(ds, rootSession(), "DEFINE TABLE flag SCHEMALESS PERMISSIONS FOR select WHERE $undefined_flag = true; CREATE flag:1");
    expect(await run(ds, alice(), "LET $undefined_flag = true; SELECT * FROM flag")).toEqual([{ ok: null }, { ok: [] }]);
  });

  it("a DEFINE PARAM's value reads other DEFINE PARAMs, not the client's", async () => {
    const ds = await setup(compat);
    await run(ds, rootSession(), "DEFINE PARAM $derived VALUE $org");
    expect(await run(ds, alice(), "LET $org = 'evil'; RETURN $derived")).toEqual([{ ok: null }, { ok: "org_default" }]);
  });

  it("engine bindings still reach schema bodies ($auth, $session, $value, $before, $after, $event)", async () => {
    const ds = await setup(compat);
    await run(
      ds,
      rootSession(),
      `DEFINE TABLE mine SCHEMALESS PERMISSIONS FOR select, create, update WHERE $auth = user:alice AND $session.ns = 'test';
       DEFINE FIELD n ON mine VALUE $value + 1;
       DEFINE EVENT e ON mine WHEN $event = 'UPDATE' THEN (CREATE log SET was = $before.n, now = $after.n)`,
    );
    const out = await run(ds, alice(), "CREATE mine:1 SET n = 1; UPDATE mine:1 SET n = 5; SELECT was, now FROM log");
    // as SurrealDB answers (oracle, both versions, as root)
    expect(out).toEqual([{ ok: [{ id: "mine:1", n: 2 }] }, { ok: [{ id: "mine:1", n: 6 }] }, { ok: [{ now: 6, was: 2 }] }]);
  });
});

describe.each([1, 2] as const)("RPC let and access clauses (compat %i)", (compat) => {
  const ACCESS = (c: Compat) =>
    c === 1
      ? "DEFINE SCOPE acc SESSION 1h SIGNUP (CREATE member SET email = $email, role = $default_role) SIGNIN (SELECT * FROM member WHERE email = $email)"
      : "DEFINE ACCESS acc ON DATABASE TYPE RECORD SIGNUP (CREATE member SET email = $email, role = $default_role) SIGNIN (SELECT * FROM member WHERE email = $email)";

  async function open() {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    await db.importText(`USE NS test DB test; ${SCHEMA}
      DEFINE PARAM $default_role VALUE 'member';
      DEFINE TABLE member SCHEMALESS PERMISSIONS FOR select WHERE id = $auth OR $auth.role = 'admin';
      ${ACCESS(compat)};`);
    return db;
  }
  const acKey = compat === 1 ? "SC" : "AC";

  it("RPC let does not open a PERMISSIONS rule", async () => {
    const db = await open();
    const conn = db.connect({ ns: "test", db: "test" });
    await conn.signup({ NS: "test", DB: "test", [acKey]: "acc", email: "m@x" });
    await conn.rpc("let", ["gate_open", true]);
    await conn.rpc("let", ["gate_pub", true]);
    const rs = await conn.query("SELECT * FROM gated; SELECT * FROM gated2; RETURN $gate_pub");
    expect(rs.map((r) => toJson(r.result as Value, { compat }))).toEqual([[], [], true]);
  });

  it("a signup credential never shadows a DEFINE PARAM (the param wins); $email is the credential", async () => {
    const db = await open();
    const conn = db.connect({ ns: "test", db: "test" });
    await conn.signup({ NS: "test", DB: "test", [acKey]: "acc", email: "e@evil", default_role: "admin" });
    const rs = await conn.query("SELECT email, role FROM member");
    expect(toJson(rs[0]!.result as Value, { compat })).toEqual([{ email: "e@evil", role: "member" }]);
  });

  it("a signin credential never shadows a DEFINE PARAM", async () => {
    const db = await open();
    await db.importText(`USE NS test DB test; DEFINE PARAM $who VALUE 'nobody@x';
      ${ACCESS(compat).replace("acc ", "acc2 ").replace("WHERE email = $email)", "WHERE email = $who)")}`);
    const conn = db.connect({ ns: "test", db: "test" });
    await conn.signup({ NS: "test", DB: "test", [acKey]: "acc", email: "m@x" });
    await expect(conn.signin({ NS: "test", DB: "test", [acKey]: "acc2", who: "m@x" })).rejects.toThrow(/No record was returned|signin/);
  });
});
