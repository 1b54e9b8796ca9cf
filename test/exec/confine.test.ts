// Every actor below root stays at its level (exec/context.ts `confine`): a namespace user in its namespace, a database
// user in its namespace and database, for tables, params, functions and INFO, however the session was pointed
// elsewhere (USE, RPC use, HTTP headers). Stricter than SurrealDB 1.5.4 / 2.6.0, which lets a system user work in any
// namespace under table PERMISSIONS like a guest (oracle; pentest F9). Root goes anywhere.

import { describe, expect, it } from "vitest";
import type { Role } from "../../src/ast/nodes.js";
import type { Compat, Session } from "../../src/exec/session.js";
import { newDs, rootSession, run, systemSession } from "./helpers.js";

const SETUP = `
USE NS other DB o;
DEFINE TABLE open SCHEMALESS PERMISSIONS FULL;
CREATE open:1 SET s = 'other-ns';
DEFINE PARAM $p3 VALUE 'other-ns-param';
DEFINE FUNCTION fn::f3() { RETURN 'other-ns-fn' };
USE NS app DB app2;
DEFINE TABLE open SCHEMALESS PERMISSIONS FULL;
CREATE open:1 SET s = 'other-db';
DEFINE PARAM $p3 VALUE 'other-db-param';
DEFINE FUNCTION fn::f3() { RETURN 'other-db-fn' };
USE NS app DB app;
DEFINE TABLE open SCHEMALESS PERMISSIONS FULL;
CREATE open:1 SET s = 'home';
`;

const NS = "You don't have permission to change to the other namespace";
const DB = "You don't have permission to change to the app2 database";
const PROBE = "SELECT * FROM open; RETURN $p3; RETURN fn::f3(); CREATE open:2; INFO FOR DB";

async function setup(compat: Compat) {
  const ds = newDs({ compat });
  await run(ds, rootSession("app", "app"), SETUP);
  return ds;
}

const dbUser = (roles: Role[]): Session => systemSession("Database", roles, "app", "app");
const nsUser = (roles: Role[]): Session => systemSession("Namespace", roles, "app", "app");

describe.each([1, 2] as const)("system users stay at their level (compat %i)", (compat) => {
  it.each([["VIEWER"], ["EDITOR"], ["OWNER"]] as const)("a database %s may not work in another namespace or database", async (role) => {
    const ds = await setup(compat);
    const s = dbUser([role]);
    expect(await run(ds, s, `USE NS other DB o; ${PROBE}`)).toEqual([{ ok: null }, ...Array(5).fill({ err: NS })]);
    expect(await run(ds, s, `USE NS app DB app2; ${PROBE}`)).toEqual([{ ok: null }, ...Array(5).fill({ err: DB })]);
    // nothing was written there
    expect(await run(ds, rootSession("other", "o"), "SELECT VALUE id FROM open")).toEqual([{ ok: ["open:1"] }]);
    expect(await run(ds, rootSession("app", "app2"), "SELECT VALUE id FROM open")).toEqual([{ ok: ["open:1"] }]);
  });

  it("a database user pointed elsewhere by the session itself (RPC use, HTTP headers) is refused too", async () => {
    const ds = await setup(compat);
    const s = dbUser(["EDITOR"]);
    s.ns = "other";
    s.db = "o";
    expect(await run(ds, s, "SELECT * FROM open; RETURN $p3")).toEqual([{ err: NS }, { err: NS }]);
  });

  it("a namespace user moves between the databases of its namespace, not to another namespace", async () => {
    const ds = await setup(compat);
    const s = nsUser(["EDITOR"]);
    expect(await run(ds, s, "USE NS app DB app2; SELECT VALUE s FROM open; RETURN $p3; RETURN fn::f3()")).toEqual([{ ok: null }, { ok: ["other-db"] }, { ok: "other-db-param" }, { ok: "other-db-fn" }]);
    expect(await run(ds, s, "USE NS other DB o; SELECT * FROM open; INFO FOR NS")).toEqual([{ ok: null }, { err: NS }, { err: NS }]);
  });

  it("at home nothing changes, and root goes anywhere", async () => {
    const ds = await setup(compat);
    expect(await run(ds, dbUser(["VIEWER"]), "SELECT VALUE s FROM open")).toEqual([{ ok: ["home"] }]);
    expect(await run(ds, rootSession("app", "app"), "USE NS other DB o; SELECT VALUE s FROM open; RETURN $p3")).toEqual([{ ok: null }, { ok: ["other-ns"] }, { ok: "other-ns-param" }]);
  });
});
