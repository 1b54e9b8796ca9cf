// The execution context: whose rights run (client or schema owner, told apart by an object no flag can forge),
// and a record user's confinement to its own namespace and database.

import { describe, expect, it } from "vitest";
import type { Expr, Permission } from "../../src/ast/nodes.js";
import { MAX_DEPTH, Vars, bodyCtx, clientCtx, closureCtx, needDb, needNs, ownerCtx, selectedDb, withCtx } from "../../src/exec/context.js";
import type { Ctx } from "../../src/exec/context.js";
import { permissionsApply } from "../../src/exec/rbac.js";
import { newSession } from "../../src/exec/session.js";
import type { Session } from "../../src/exec/session.js";
import { Transaction } from "../../src/store/transaction.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const clause: Expr = { kind: "Literal", value: true };
const perm: Extract<Permission, { kind: "Where" }> = { kind: "Where", cond: clause };

function ctxFor(session: Session): Ctx {
  return clientCtx(newDs(), session, new Transaction(), Vars.root(2));
}

describe("rights", () => {
  it("a statement starts with the client's rights: a record user meets PERMISSIONS", () => {
    const ctx = ctxFor(recordSession("user", 1n));
    expect(ctx.rights.owner).toBe(false);
    expect(ctx.rights.grantedFor).toBeUndefined();
    expect(permissionsApply(ctx, false)).toBe(true);
    expect(permissionsApply(ctx, true)).toBe(true);
  });

  it("a clause of a stored definition runs with the owner's rights, granted for that definition", () => {
    const ctx = ownerCtx(ctxFor(recordSession("user", 1n)), perm);
    expect(ctx.rights.owner).toBe(true);
    expect(ctx.rights.grantedFor).toBe(perm);
    expect(permissionsApply(ctx, false)).toBe(false);
    expect(permissionsApply(ctx, true)).toBe(false);
  });

  it("nested evaluations keep their rights, whatever a patch carries", () => {
    const client = ctxFor(recordSession("user", 1n));
    const owner = ownerCtx(client, perm);
    expect(withCtx(owner, { doc: 1n }).rights).toBe(owner.rights);
    expect(withCtx(client, { doc: 1n }).rights).toBe(client.rights);
    // a rights object smuggled into a patch past the type is dropped
    const forged = withCtx(client, { doc: 1n, rights: owner.rights } as never);
    expect(forged.rights).toBe(client.rights);
    expect(permissionsApply(forged, false)).toBe(true);
  });

  it("is told apart by type: no patch sets rights, and an expression is no stored definition", () => {
    const client = ctxFor(recordSession("user", 1n));
    // @ts-expect-error withCtx takes no rights
    withCtx(client, { rights: ownerCtx(client, perm).rights });
    // @ts-expect-error owner rights need a stored definition, not a client expression
    ownerCtx(client, clause);
    // @ts-expect-error a plain object is not a Rights
    const literal: Ctx = { ...client, rights: { owner: true, grantedFor: perm } };
    expect(literal).toBeDefined();
  });

  it("a closure runs with the lesser of the rights it was made with and its invoker's", () => {
    const client = ctxFor(recordSession("user", 1n));
    const owner = ownerCtx(client, perm);
    const vars = Vars.root(2);
    expect(closureCtx(owner, client.rights, vars).rights.owner).toBe(false);
    expect(closureCtx(client, owner.rights, vars).rights.owner).toBe(false);
    expect(closureCtx(owner, owner.rights, vars).rights).toBe(owner.rights);
    expect(closureCtx(owner, owner.rights, vars).vars).toBe(vars);
  });

  it("patches the document and variables, and counts depth", () => {
    const client = ctxFor(rootSession());
    const vars = Vars.root(2);
    const next = withCtx(withCtx(client, { doc: 1n }), { vars });
    expect(next.doc).toBe(1n);
    expect(next.vars).toBe(vars);
    expect(withCtx(next, { doc: undefined }).doc).toBeUndefined();
    expect(next.depth).toBe(2);
    let deep = client;
    expect(() => {
      for (let i = 0; i <= MAX_DEPTH; i++) deep = withCtx(deep, {});
    }).toThrow("Reached excessive computation depth");
  });
});

describe("a record user's namespace and database", () => {
  it.each(["Record", "Scope"] as const)("confine a %s user wherever its session points", (level) => {
    const s = newSession({ ns: "test", db: "test", actor: { level, ns: "test", db: "test", id: "user:1", roles: [] } });
    const ctx = ctxFor(s);
    expect(needDb(ctx)).toBe("test");
    expect(selectedDb(ctx)).toEqual({ ns: "test", db: "test" });
    s.db = "other";
    expect(needNs(ctx)).toBe("test");
    expect(() => needDb(ctx)).toThrow("You don't have permission to change to the other database");
    expect(() => selectedDb(ctx)).toThrow("You don't have permission to change to the other database");
    s.ns = "elsewhere";
    expect(() => needNs(ctx)).toThrow("You don't have permission to change to the elsewhere namespace");
    expect(() => selectedDb(ctx)).toThrow("You don't have permission to change to the elsewhere namespace");
  });

  it("confine every schema body to its home, even root's, even if the session moved (pentest R1)", () => {
    const s = rootSession("test", "test");
    const client = ctxFor(s);
    const bodies = [bodyCtx(client), ownerCtx(client, perm)];
    for (const body of bodies) expect(needDb(body)).toBe("test");
    s.db = "app2";
    expect(needDb(client)).toBe("app2");
    for (const body of bodies) expect(() => needDb(body)).toThrow("You don't have permission to change to the app2 database");
    s.ns = "other";
    for (const body of bodies) expect(() => selectedDb(body)).toThrow("You don't have permission to change to the other namespace");
    expect(closureCtx(client, bodies[0]!.rights, Vars.root(2)).rights.home).toEqual({ ns: "test", db: "test" });
  });

  it("leave system users free, and answer nothing selected without an error", () => {
    const root = rootSession("other", "other");
    expect(needDb(ctxFor(root))).toBe("other");
    expect(selectedDb(ctxFor(newSession({ ns: "test" })))).toBeUndefined();
    expect(() => needDb(ctxFor(newSession({ ns: "test" })))).toThrow("Specify a database to use");
  });
});

describe.each([1, 2] as const)("an owner-rights body's error reaching a record user (attack A9, compat %i)", (compat) => {
  const SCHEMA = `
    DEFINE TABLE vault SCHEMALESS PERMISSIONS NONE;
    CREATE vault:1 SET s = 'SECRET_vault_1';
    DEFINE TABLE ledger SCHEMALESS PERMISSIONS NONE;
    DEFINE FIELD amount ON ledger TYPE int;
    DEFINE TABLE evt2 SCHEMALESS PERMISSIONS FULL;
    DEFINE EVENT ev ON evt2 THEN { CREATE ledger SET amount = (SELECT VALUE s FROM ONLY vault:1) };
    DEFINE TABLE evt3 SCHEMALESS PERMISSIONS FULL;
    DEFINE EVENT ev3 ON evt3 THEN { THROW 'boom' };
    DEFINE TABLE evt4 SCHEMALESS PERMISSIONS FULL;
    DEFINE EVENT ev4 ON evt4 THEN { RETURN <int> (SELECT VALUE s FROM ONLY vault:1) };
    DEFINE TABLE evt5 SCHEMALESS PERMISSIONS FULL;
    DEFINE EVENT ev5 ON evt5 THEN { CREATE vault:1 };
    DEFINE TABLE evt6 SCHEMALESS PERMISSIONS FULL;
    DEFINE EVENT ev6 ON evt6 THEN { CREATE evt4 };
    DEFINE TABLE pw SCHEMALESS PERMISSIONS FOR select WHERE <int>(SELECT VALUE s FROM ONLY vault:1) > 0;
    CREATE pw:1;
  `;
  const setUp = async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), SCHEMA);
    return ds;
  };
  const mal = () => recordSession("user", "mal");

  it("a field error inside the event reaches a record user as the event's generic error (the value may be an owner-rights read)", async () => {
    const ds = await setUp();
    expect(await run(ds, mal(), "CREATE evt2:x SET foo = 1")).toEqual([{ err: "An error occurred in the event `ev` on table `evt2`" }]);
    const root = await run(ds, rootSession(), "CREATE evt2:x SET foo = 1");
    expect(JSON.stringify(root)).toContain("Found 'SECRET_vault_1' for field `amount`, with record `ledger:");
  });

  it("B1: an event copying a PERMISSIONS NONE value into a typed field, a UNIQUE index or an ASSERT of a table the client may read leaks nothing", async () => {
    const ds = newDs({ compat });
    const schema = `
      DEFINE TABLE safe SCHEMALESS PERMISSIONS NONE; CREATE safe:1 SET s = 'SECRET_safe_1';
      DEFINE TABLE book SCHEMALESS PERMISSIONS FULL; DEFINE FIELD amount ON book TYPE int;
      DEFINE FIELD uniq ON book TYPE option<string>; DEFINE INDEX bu ON book FIELDS uniq UNIQUE;
      DEFINE FIELD checked ON book TYPE option<string> ASSERT $value = NONE OR $value = 'ok';
      DEFINE TABLE e1 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT ev ON e1 THEN { CREATE book SET amount = (SELECT VALUE s FROM ONLY safe:1) };
      DEFINE TABLE e2 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT ev ON e2 THEN { CREATE book SET amount = 1, uniq = (SELECT VALUE s FROM ONLY safe:1) };
      DEFINE TABLE e3 SCHEMALESS PERMISSIONS FULL; DEFINE EVENT ev ON e3 THEN { CREATE book SET amount = 1, checked = (SELECT VALUE s FROM ONLY safe:1) };
    `;
    expect((await run(ds, rootSession(), schema)).filter((o) => "err" in o)).toEqual([]);
    const out = await run(ds, mal(), "CREATE e1:1 SET a = 1; CREATE e2:1 SET a = 1; CREATE e2:2 SET a = 1; CREATE e3:1 SET a = 1");
    expect(JSON.stringify(out)).not.toContain("SECRET");
    expect(out).toEqual([
      { err: "An error occurred in the event `ev` on table `e1`" },
      { ok: [{ a: 1, id: "e2:1" }] },
      { err: "An error occurred in the event `ev` on table `e2`" },
      { err: "An error occurred in the event `ev` on table `e3`" },
    ]);
  });

  it("any other error with data names only the body; THROW keeps its words; root keeps SurrealDB's text", async () => {
    const ds = await setUp();
    expect(await run(ds, mal(), "CREATE evt4:x; CREATE evt5:x; CREATE evt3:x; CREATE evt6:x; SELECT * FROM pw")).toEqual([
      { err: "An error occurred in the event `ev4` on table `evt4`" },
      { err: "An error occurred in the event `ev5` on table `evt5`" },
      { err: "An error occurred: boom" },
      // the nested event's error crosses into the client's context once, at the outer event
      { err: "An error occurred in the event `ev6` on table `evt6`" },
      { err: "An error occurred in a PERMISSIONS clause" },
    ]);
    expect(await run(ds, rootSession(), "CREATE evt4:x; CREATE evt5:x")).toEqual([
      { err: "Expected a int but cannot convert 'SECRET_vault_1' into a int" },
      { err: "Database record `vault:1` already exists" },
    ]);
  });
});
