// Statement RBAC inside schema bodies: an event, a function body, a field VALUE / DEFAULT / ASSERT, a DEFINE PARAM value,
// an access clause or a closure a schema body made does at most what an EDITOR of the database holding it may,
// whoever triggers it — an EDITOR writes such bodies, an OWNER runs them (pentest F10: EDITOR → ROOT OWNER; R1: REMOVE
// DATABASE / NAMESPACE, writes to other namespaces). Stricter than SurrealDB 1.5.4 / 2.6.0, which runs them with the
// invoker's rights.

import { describe, expect, it } from "vitest";
import type { Statement } from "../../src/ast/nodes.js";
import { parse } from "../../grammar/index.js";
import { Vars, bodyCtx, clauseCtx, clientCtx, ownerCtx } from "../../src/exec/context.js";
import type { Ctx } from "../../src/exec/context.js";
import { isAllowed, permissionsApply } from "../../src/exec/rbac.js";
import type { Resource } from "../../src/exec/rbac.js";
import type { Compat, Session } from "../../src/exec/session.js";
import { Transaction } from "../../src/store/transaction.js";
import { newDs, recordSession, rootSession, run, systemSession } from "./helpers.js";

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

describe.each([1, 2] as const)("the cap at the mechanism: a schema body may do what an EDITOR of its database may (compat %i)", (compat) => {
  const ds = newDs({ compat });
  const ctxOf = (session: Session): Ctx => clientCtx(ds, session, new Transaction(), Vars.root(compat));
  const at = (kind: Resource["kind"], level: Resource["level"], ns?: string, db?: string): Resource => ({ kind, level, ns, db });
  const perm = { kind: "Where", cond: { kind: "Literal", value: true } } as const;
  const home = (kind: Resource["kind"]) => at(kind, "DATABASE", "test", "test");

  it("root's rights in a field clause / function body, an event / PERMISSIONS clause, and an access clause", () => {
    const root = ctxOf(rootSession());
    for (const body of [bodyCtx(root), ownerCtx(root, perm), clauseCtx(ds, rootSession(), new Transaction(), {})]) {
      // what an EDITOR of test/test may: its records, tables, fields, indexes, events, functions, params; reading it
      for (const kind of ["Record", "Table", "Field", "Index", "Event", "Function", "Parameter", "Analyzer"] as const) expect(isAllowed(body, "Edit", home(kind)), kind).toBe(true);
      expect(isAllowed(body, "View", home("Any"))).toBe(true);
      // never users, access methods, tokens or (1.x) scopes, at any level
      expect(isAllowed(body, "Edit", home("Actor"))).toBe(false);
      expect(isAllowed(body, "Edit", at("Actor", "ROOT"))).toBe(false);
      // never namespaces or databases, nor anything of another database or namespace, nor the namespace / root level
      expect(isAllowed(body, "Edit", at("Namespace", "ROOT"))).toBe(false);
      expect(isAllowed(body, "Edit", at("Database", "NAMESPACE", "test"))).toBe(false);
      expect(isAllowed(body, "Edit", at("Table", "DATABASE", "test", "app2"))).toBe(false);
      expect(isAllowed(body, "Edit", at("Record", "DATABASE", "other", "test"))).toBe(false);
      expect(isAllowed(body, "View", at("Any", "NAMESPACE", "test"))).toBe(false);
      expect(isAllowed(body, "View", at("Any", "ROOT"))).toBe(false);
      expect(isAllowed(body, "Edit", at("Any", "ROOT"))).toBe(false);
    }
    // outside a body root may do all of it
    for (const res of [home("Actor"), at("Namespace", "ROOT"), at("Database", "NAMESPACE", "test"), at("Table", "DATABASE", "test", "app2")]) expect(isAllowed(root, "Edit", res)).toBe(true);
  });

  it("outside a body an EDITOR edits functions and params, never users or access methods — a 1.x scope is one too (attack pass 3, A3)", () => {
    const editor = ctxOf(systemSession("Database", ["EDITOR"]));
    for (const kind of ["Function", "Parameter", "Table"] as const) expect(isAllowed(editor, "Edit", home(kind)), kind).toBe(true);
    // SurrealDB 1.5.4 lets an EDITOR define scopes: such a scope's SIGNIN could copy every signing-in user's password
    expect(isAllowed(editor, "Edit", home("Actor"))).toBe(false);
    expect(isAllowed(ctxOf(systemSession("Database", ["OWNER"])), "Edit", home("Actor"))).toBe(true);
  });

  it("the cap only lowers: a body never gives the invoker more than its own role (a VIEWER stays a VIEWER)", () => {
    const viewer = ctxOf(systemSession("Database", ["VIEWER"]));
    expect(isAllowed(bodyCtx(viewer), "Edit", home("Table"))).toBe(false);
    expect(isAllowed(bodyCtx(viewer), "View", home("Any"))).toBe(true);
    // root in a body writes records of its home past PERMISSIONS, as before; a VIEWER meets them
    expect(permissionsApply(bodyCtx(ctxOf(rootSession())), true)).toBe(false);
    expect(permissionsApply(bodyCtx(viewer), true)).toBe(true);
  });

  it("the home is where the body began; a nested body keeps the outer one", () => {
    const session = rootSession("test", "app2");
    const body = bodyCtx(ctxOf(session));
    expect(body.rights.home).toEqual({ ns: "test", db: "app2" });
    expect(isAllowed(body, "Edit", at("Table", "DATABASE", "test", "app2"))).toBe(true);
    expect(isAllowed(body, "Edit", home("Table"))).toBe(false);
    expect(ownerCtx(body, perm).rights.home).toBe(body.rights.home);
  });
});

describe.each([1, 2] as const)("an EDITOR's body cannot remove or define databases and namespaces, whoever triggers it (compat %i, pentest R1)", (compat) => {
  const PLANT = (compat: Compat) => `
DEFINE TABLE t1 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t1 THEN { REMOVE DATABASE app3; };
DEFINE TABLE t4 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t4 THEN { REMOVE NAMESPACE scratch; };
DEFINE TABLE t5 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t5 THEN (DEFINE NAMESPACE evilns);
DEFINE TABLE t6 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD v ON t6 VALUE { REMOVE DATABASE app3; 1 };
DEFINE TABLE t7 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD w ON t7 ASSERT { REMOVE DATABASE app3; true };
DEFINE TABLE t8 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD z ON t8 DEFAULT { DEFINE DATABASE evildb; 1 };
DEFINE FUNCTION fn::rmdb() { REMOVE DATABASE app3; RETURN 'ok'; };
DEFINE FUNCTION fn::rmns() { REMOVE NAMESPACE scratch; RETURN 'ok'; };
DEFINE FUNCTION fn::info_root() { RETURN (INFO FOR ROOT); };
${compat === 2 ? "DEFINE PARAM $rm VALUE |$x| { REMOVE DATABASE app3; 1 };" : ""}
DEFINE FUNCTION fn::fine() { DEFINE TABLE made; DEFINE FIELD f ON made; DEFINE INDEX i ON made FIELDS f; DEFINE EVENT e ON made THEN {}; DEFINE PARAM $q VALUE 1; CREATE made:1 SET f = 1; REMOVE INDEX i ON made; RETURN (SELECT VALUE f FROM made); };
`;

  async function victim() {
    const ds = newDs({ compat });
    expect(await run(ds, rootSession(), "DEFINE NAMESPACE scratch; DEFINE DATABASE app3")).toEqual([{ ok: null }, { ok: null }]);
    const out = await run(ds, systemSession("Database", ["EDITOR"]), PLANT(compat));
    expect(out.every((o) => "ok" in o), JSON.stringify(out)).toBe(true);
    return ds;
  }

  async function intact(ds: Awaited<ReturnType<typeof victim>>) {
    const [root, ns] = await run(ds, rootSession(), "INFO FOR ROOT; INFO FOR NS");
    expect(Object.keys((root as { ok: { namespaces: object } }).ok.namespaces).sort()).toEqual(["scratch", "test"]);
    expect(Object.keys((ns as { ok: { databases: object } }).ok.databases).sort()).toEqual(["app3", "test"]);
  }

  it("events, field VALUE / ASSERT / DEFAULT, functions and param values fail when root triggers them; nothing is removed or made", async () => {
    const ds = await victim();
    const triggers = "CREATE t1; CREATE t4; CREATE t5; CREATE t6; CREATE t7; CREATE t8; RETURN fn::rmdb(); RETURN fn::rmns(); RETURN fn::info_root()";
    expect(await run(ds, rootSession(), triggers)).toEqual(Array(9).fill({ err: IAM }));
    // a DEFINE PARAM value is computed when defined (by the EDITOR); a closure in one runs later, as a body (2.x)
    if (compat === 2) expect(await run(ds, rootSession(), "RETURN array::map([1], $rm)")).toEqual([{ err: IAM }]);
    expect(await run(ds, systemSession("Namespace", ["OWNER"]), "CREATE t1; RETURN fn::rmdb()")).toEqual([{ err: IAM }, { err: IAM }]);
    await intact(ds);
    expect(await run(ds, rootSession(), "SELECT * FROM t1, t4, t5, t6, t7, t8")).toEqual([{ ok: [] }]);
  });

  it("what an EDITOR of the database may do still runs in a body, for root", async () => {
    const ds = await victim();
    expect(await run(ds, rootSession(), "RETURN fn::fine()")).toEqual([{ ok: [1] }]);
  });
});

describe.each([1, 2] as const)("USE inside a block or body never moves the caller's session (compat %i, pentest R2)", (compat) => {
  const NS = "You don't have permission to change to the other namespace";
  const DB = "You don't have permission to change to the o database";
  /** An AST with USE where SurrealDB's parser (and ours) refuses it: a stored definition from elsewhere, or one built by hand. */
  function withUse(text: string, use: { ns?: string; db?: string }): Statement[] {
    const stmts = parse(text);
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v !== null && typeof v === "object") {
        const o = v as { kind?: string; statements?: Statement[] };
        if (o.kind === "Block" && Array.isArray(o.statements)) o.statements.unshift({ kind: "Use", ns: use.ns, db: use.db } as Statement);
        Object.values(o).forEach(visit);
      }
    };
    visit(stmts);
    return stmts;
  }
  const answers = async (ds: ReturnType<typeof newDs>, session: Session, q: string | Statement[]) =>
    (await ds.execute(q, session)).map((r) => (r.status === "OK" ? "ok" : r.result));

  it("a client block: USE elsewhere is refused, USE of where it stands does nothing; the next statements stay home", async () => {
    const ds = newDs({ compat });
    const session = rootSession();
    expect(await answers(ds, session, withUse("RETURN { 1 }", { ns: "other", db: "o" }))).toEqual([NS]);
    expect(await answers(ds, session, withUse("RETURN { 1 }", { db: "o" }))).toEqual([DB]);
    expect(await answers(ds, session, withUse("RETURN { 1 }", { ns: "test", db: "test" }))).toEqual(["ok"]);
    expect([session.ns, session.db]).toEqual(["test", "test"]);
  });

  it("a function body and an event planted by an EDITOR: root's query and session stay where they were", async () => {
    const ds = newDs({ compat });
    const editor = systemSession("Database", ["EDITOR"]);
    const plant = withUse("DEFINE FUNCTION fn::go() { RETURN 1; }; DEFINE TABLE t9 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT x ON t9 THEN { CREATE marker SET by = 'event' }", { ns: "other", db: "o" });
    expect(await answers(ds, editor, plant)).toEqual(["ok", "ok", "ok"]);
    const session = rootSession();
    expect(await answers(ds, session, "RETURN fn::go(); CREATE t9 SET a = 1 RETURN NONE; CREATE marker:next SET by = 'root'")).toEqual([NS, NS, "ok"]);
    expect([session.ns, session.db]).toEqual(["test", "test"]);
    expect(await run(ds, rootSession("other", "o"), "SELECT * FROM marker")).toEqual([{ ok: [] }]);
    expect(await run(ds, rootSession(), "SELECT VALUE id FROM marker")).toEqual([{ ok: ["marker:next"] }]);
  });
});

// Attack pass 6, D3: SurrealDB refuses a query with OPTION below EDITOR (1.5.4 and 2.6.0, checked with the oracle), so
// no client may ever switch field processing or events off for its own writes.
describe.each([1, 2] as const)("compat %i: OPTION", (compat) => {
  it("a record user's or VIEWER's query with OPTION is refused whole, before any statement runs; an EDITOR's gives no result for it", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), "DEFINE TABLE t SCHEMALESS PERMISSIONS FULL");
    for (const session of [recordSession("user", 1n), systemSession("Database", ["VIEWER"])]) {
      await expect(ds.execute("CREATE t:early; OPTION IMPORT; CREATE t:late", session)).rejects.toThrow(IAM);
      await expect(ds.execute("BEGIN; OPTION IMPORT = false; CREATE t:block; COMMIT", session)).rejects.toThrow(IAM);
    }
    expect(await run(ds, rootSession(), "SELECT VALUE id FROM t")).toEqual([{ ok: [] }]);
    const editor = await run(ds, systemSession("Database", ["EDITOR"]), "OPTION IMPORT; CREATE t:1 RETURN NONE; BEGIN; OPTION IMPORT; RETURN 2; COMMIT");
    expect(editor).toEqual([{ ok: [] }, { ok: 2 }]);
  });
});
