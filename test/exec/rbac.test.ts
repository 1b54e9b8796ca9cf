// Statement RBAC inside schema bodies: an event, a function body, a field VALUE or a closure a schema body made may not
// define or remove users, access methods or tokens, whoever triggers it — an EDITOR writes such bodies, an OWNER runs
// them (pentest F10: EDITOR → ROOT OWNER). Stricter than SurrealDB 1.5.4 / 2.6.0, which runs them with the invoker's rights.

import { describe, expect, it } from "vitest";
import type { Compat } from "../../src/exec/session.js";
import { newDs, rootSession, run, systemSession } from "./helpers.js";

const IAM = "IAM error: Not enough permissions to perform this action";

const PLANTED = (compat: Compat) => `
DEFINE TABLE ro SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE audit SCHEMALESS PERMISSIONS FULL;
DEFINE EVENT plant ON ro THEN { CREATE audit:ev SET ok = true; DEFINE USER pwn_ev ON ROOT PASSWORD 'pwn' ROLES OWNER; };
DEFINE EVENT plant_db ON ro WHEN $event = 'DELETE' THEN (DEFINE USER pwn_db ON DATABASE PASSWORD 'pwn' ROLES OWNER);
DEFINE FUNCTION fn::helper() { DEFINE USER pwn_fn ON ROOT PASSWORD 'pwn' ROLES OWNER; RETURN 'ok'; };
DEFINE FUNCTION fn::remove_root() { REMOVE USER root ON ROOT; RETURN 'ok'; };
DEFINE FUNCTION fn::access() { ${compat === 1 ? "DEFINE TOKEN tk ON DATABASE TYPE HS512 VALUE 'k'" : "DEFINE ACCESS tk ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'k'"}; RETURN 'ok'; };
DEFINE FUNCTION fn::scope() { DEFINE SCOPE sc SESSION 1h SIGNIN (SELECT * FROM ro); RETURN 'ok'; };
DEFINE FUNCTION fn::table() { DEFINE TABLE made_in_body; CREATE audit:fn SET ok = true; RETURN 'ok'; };
DEFINE FIELD f ON ro VALUE fn::helper();
${compat === 2 ? "DEFINE PARAM $maker VALUE |$x| fn::helper();" : ""}
`;

async function planted(compat: Compat) {
  const ds = newDs({ compat });
  // an EDITOR of the database may write events, functions, fields and params
  const out = await run(ds, systemSession("Database", ["EDITOR"]), PLANTED(compat));
  expect(out.every((o) => "ok" in o)).toBe(true);
  return ds;
}

async function users(ds: Awaited<ReturnType<typeof planted>>): Promise<unknown> {
  return run(ds, rootSession(), "(INFO FOR ROOT).users; (INFO FOR DB).users");
}

describe.each([1, 2] as const)("no schema body defines users, access methods or tokens (compat %i)", (compat) => {
  it("an event planted by an EDITOR fails when the root OWNER triggers it; nothing is defined", async () => {
    const ds = await planted(compat);
    await run(ds, rootSession(), "REMOVE FIELD f ON ro");
    expect(await run(ds, rootSession(), "CREATE ro:1 SET v = 1")).toEqual([{ err: IAM }]);
    expect(await run(ds, rootSession(), "SELECT * FROM audit")).toEqual([{ ok: [] }]);
    expect(await users(ds)).toEqual([{ ok: {} }, { ok: {} }]);
  });

  it("a function body fails whoever calls it (root, a namespace OWNER), for users, removal, tokens / access methods and scopes", async () => {
    const ds = await planted(compat);
    for (const who of [rootSession(), systemSession("Namespace", ["OWNER"])]) {
      expect(await run(ds, who, "RETURN fn::helper(); RETURN fn::remove_root(); RETURN fn::access(); RETURN fn::scope()")).toEqual([{ err: IAM }, { err: IAM }, { err: IAM }, { err: IAM }]);
    }
    expect(await users(ds)).toEqual([{ ok: {} }, { ok: {} }]);
    const secrets = compat === 1 ? "[(INFO FOR DB).tokens, (INFO FOR DB).scopes]" : "(INFO FOR DB).accesses";
    expect(await run(ds, rootSession(), secrets)).toEqual([{ ok: compat === 1 ? [{}, {}] : {} }]);
  });

  it("a field VALUE and (2.x) a closure a schema body made are schema bodies too", async () => {
    const ds = await planted(compat);
    await run(ds, rootSession(), "REMOVE EVENT plant ON ro");
    expect(await run(ds, rootSession(), "CREATE ro:2")).toEqual([{ err: IAM }]);
    if (compat === 2) expect(await run(ds, rootSession(), "RETURN array::map([1], $maker)")).toEqual([{ err: IAM }]);
    expect(await users(ds)).toEqual([{ ok: {} }, { ok: {} }]);
  });

  it("other statements in a body still run with the invoker's rights", async () => {
    const ds = await planted(compat);
    expect(await run(ds, rootSession(), "RETURN fn::table(); SELECT * FROM audit")).toEqual([{ ok: "ok" }, { ok: [{ id: "audit:fn", ok: true }] }]);
  });

  it("the same statements outside a body are the OWNER's to run", async () => {
    const ds = await planted(compat);
    expect(await run(ds, rootSession(), "DEFINE USER ok_user ON DATABASE PASSWORD 'x' ROLES VIEWER")).toEqual([{ ok: null }]);
  });
});
