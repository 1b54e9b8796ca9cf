// Protected variables: one list per compat, one check, refused at every engine entry point; a record user
// cannot replace $auth / $this / $input (or any engine variable) to read or write another user's records.

import { describe, expect, it } from "vitest";
import { DOCUMENT_VARIABLES, SESSION_VARIABLES, STRICTER_THAN_SURREALDB, checkSettable, isProtected } from "../../src/exec/protected.js";
import { Vars } from "../../src/exec/context.js";
import { RecordId } from "../../src/value/types.js";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const refused = (name: string) => `'${name}' is a protected variable and cannot be set`;

const SCHEMA = `
CREATE user:a SET name = 'A'; CREATE user:b SET name = 'B';
DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select, update, delete WHERE owner = $auth.id, FOR create FULL;
DEFINE TABLE note SCHEMALESS PERMISSIONS FOR select, update WHERE $this.owner = $auth.id;
DEFINE TABLE gate SCHEMALESS PERMISSIONS FOR select FULL, FOR create, update WHERE $input.ok = true;
DEFINE FUNCTION fn::peek($auth: any) { RETURN SELECT VALUE text FROM post; };
CREATE post:a SET owner = user:a, text = 'mine'; CREATE post:b SET owner = user:b, text = 'secret-b';
CREATE note:a SET owner = user:a, text = 'mine'; CREATE note:b SET owner = user:b, text = 'secret-b';
`;

async function seeded(compat: 1 | 2) {
  const ds = newDs({ compat });
  const setup = await run(ds, rootSession(), SCHEMA);
  expect(setup.filter((o) => "err" in o)).toEqual([]);
  return ds;
}

describe("the lists (oracle: SurrealDB 1.5.4 and 2.6.0)", () => {
  it("SurrealDB protects $auth, $token, $session and the compat's $scope / $access", () => {
    expect(SESSION_VARIABLES).toEqual({ 1: ["auth", "scope", "token", "session"], 2: ["access", "auth", "token", "session"] });
  });

  it("we also protect the engine's document variables and the other version's identity name (SurrealDB lets a client set them)", () => {
    expect(DOCUMENT_VARIABLES).toEqual(["this", "self", "value", "input", "parent", "before", "after", "event"]);
    expect(STRICTER_THAN_SURREALDB).toEqual({ 1: ["access", ...DOCUMENT_VARIABLES], 2: ["scope", ...DOCUMENT_VARIABLES] });
    for (const compat of [1, 2] as const) for (const n of [...SESSION_VARIABLES[compat], ...STRICTER_THAN_SURREALDB[compat]]) expect(isProtected(n, compat)).toBe(true);
  });

  it("one check, SurrealDB's text; names are case-sensitive", () => {
    expect(isProtected("Auth", 2)).toBe(false);
    expect(() => checkSettable("auth", 2)).toThrow(refused("auth"));
    expect(() => checkSettable("x", 2)).not.toThrow();
  });
});

describe("Vars: client bindings refuse protected names, engine bindings do not", () => {
  it("root, child and set refuse; engine binds", () => {
    expect(() => Vars.root(2, { auth: 1 })).toThrow(refused("auth"));
    const root = Vars.root(2, { x: 1 });
    expect(() => root.child({ this: 1 })).toThrow(refused("this"));
    expect(() => root.set("input", 1)).toThrow(refused("input"));
    const doc = root.engine({ input: 2, value: 3 });
    expect([doc.get("input"), doc.get("value"), doc.get("x")]).toEqual([2, 3, 1]);
    expect(() => doc.child({ value: 4 })).toThrow(refused("value"));
    expect(() => Vars.root(1, { scope: 1 })).toThrow(refused("scope"));
    expect(() => Vars.root(2, { scope: 1 })).toThrow(refused("scope"));
  });
});

describe.each([1, 2] as const)("entry points (compat %s)", (compat) => {
  const names = [...SESSION_VARIABLES[compat], ...STRICTER_THAN_SURREALDB[compat]];

  it.each(names)("query variable $%s is refused before anything runs", async (name) => {
    const ds = await seeded(compat);
    await expect(ds.execute("CREATE post:x SET text = 'ran'", rootSession(), { [name]: "X" })).rejects.toThrow(refused(name));
    expect(await run(ds, rootSession(), "SELECT * FROM post:x")).toEqual([{ ok: [] }]);
  });

  it.each(names)("LET $%s is a statement error", async (name) => {
    const ds = newDs({ compat });
    expect(await run(ds, rootSession(), `LET $${name} = 'Y'; RETURN 1`)).toEqual([{ err: refused(name) }, { ok: 1 }]);
  });

  it.each(names)("FOR $%s IN … is refused, even over an empty range", async (name) => {
    const ds = newDs({ compat });
    expect(await run(ds, rootSession(), `FOR $${name} IN [] {}`)).toEqual([{ err: refused(name) }]);
  });

  it.each(names)("DEFINE PARAM $%s is refused, even for root (stricter than SurrealDB: attack pass 3, A8)", async (name) => {
    const ds = newDs({ compat });
    expect(await run(ds, rootSession(), `DEFINE PARAM $${name} VALUE 'planted'; RETURN $${name}`)).toEqual([{ err: refused(name) }, expect.not.objectContaining({ ok: "planted" })]);
  });

  it("a function parameter named after an engine variable is refused when called", async () => {
    const ds = await seeded(compat);
    expect(await run(ds, recordSession("user", "a"), "RETURN fn::peek({ id: user:b })")).toEqual([{ err: refused("auth") }]);
  });

  it("ordinary names still work", async () => {
    const ds = newDs({ compat });
    const rs = await ds.execute("RETURN $x; LET $y = 2; RETURN $y; FOR $z IN [3] { LET $w = $z }", rootSession(), { x: 1 });
    expect(rs.map((r) => [r.status, r.result])).toEqual([["OK", 1], ["OK", undefined], ["OK", 2n], ["OK", undefined]]);
  });

  it("a connection variable with a protected name (which RPC let refuses) is never read", async () => {
    const ds = newDs({ compat });
    const session = rootSession();
    session.params.set("value", "smuggled");
    session.params.set("auth", "smuggled");
    session.params.set("x", 1n);
    expect(await run(ds, session, "RETURN $value; RETURN $auth; RETURN $x")).toEqual([{ ok: null }, { ok: null }, { ok: 1 }]);
  });

  it("$this is always the document, and names from Object.prototype are no variables", async () => {
    const ds = newDs({ compat });
    expect(await run(ds, rootSession(), "RETURN $this; RETURN $toString; RETURN $constructor; SELECT VALUE $this.a FROM [{ a: 1 }]")).toEqual([
      { ok: null },
      { ok: null },
      { ok: null },
      { ok: [1] },
    ]);
  });
});

describe.each([1, 2] as const)("a record user cannot replace the engine's variables (compat %s)", (compat) => {
  const bob = { id: new RecordId("user", "b") };

  it("query variable auth: refused, leaks nothing", async () => {
    const ds = await seeded(compat);
    const alice = recordSession("user", "a");
    await expect(ds.execute("SELECT VALUE text FROM post", alice, { auth: bob })).rejects.toThrow(refused("auth"));
    expect(await run(ds, alice, "SELECT VALUE text FROM post")).toEqual([{ ok: ["mine"] }]);
  });

  it("query variable this: refused, leaks nothing", async () => {
    const ds = await seeded(compat);
    const alice = recordSession("user", "a");
    await expect(ds.execute("SELECT VALUE text FROM note", alice, { this: { owner: new RecordId("user", "a") } })).rejects.toThrow(refused("this"));
    expect(await run(ds, alice, "SELECT VALUE text FROM note")).toEqual([{ ok: ["mine"] }]);
  });

  it("LET $this / FOR $auth: refused, the rows stay hidden and unchanged", async () => {
    const ds = await seeded(compat);
    const alice = recordSession("user", "a");
    expect(await run(ds, alice, "LET $this = { owner: user:a }; SELECT VALUE text FROM note")).toEqual([{ err: refused("this") }, { ok: ["mine"] }]);
    expect(await run(ds, alice, "FOR $auth IN [{ id: user:b }] { UPDATE post SET text = 'pwned' }")).toEqual([{ err: refused("auth") }]);
    expect(await run(ds, rootSession(), "SELECT VALUE text FROM post ORDER BY text")).toEqual([{ ok: ["mine", "secret-b"] }]);
  });

  it("$input in a table permission is never the client's (SurrealDB binds none there: CONTENT { ok: true } is denied too)", async () => {
    const ds = await seeded(compat);
    const alice = recordSession("user", "a");
    await expect(ds.execute("CREATE gate:1 CONTENT { ok: false }", alice, { input: { ok: true } })).rejects.toThrow(refused("input"));
    expect(await run(ds, alice, "LET $input = { ok: true }; CREATE gate:2 CONTENT { ok: false }; CREATE gate:3 CONTENT { ok: true }")).toEqual([
      { err: refused("input") },
      { ok: [] },
      { ok: [] },
    ]);
    expect(await run(ds, rootSession(), "SELECT * FROM gate")).toEqual([{ ok: [] }]);
  });

  if (compat === 2) {
    it("a 1.x rule WHERE $scope = … is not satisfied by a client's scope variable (SurrealDB 2.6 lets it be)", async () => {
      const ds = await seeded(compat);
      await run(ds, rootSession(), "DEFINE TABLE legacy PERMISSIONS FOR select WHERE $scope = 'account'; CREATE legacy:1");
      const alice = recordSession("user", "a");
      await expect(ds.execute("SELECT * FROM legacy", alice, { scope: "account" })).rejects.toThrow(refused("scope"));
      expect(await run(ds, alice, "RETURN $scope; SELECT * FROM legacy")).toEqual([{ ok: null }, { ok: [] }]);
    });

    it("closure parameter |$auth| / |$this|: refused", async () => {
      const ds = await seeded(compat);
      const alice = recordSession("user", "a");
      expect(await run(ds, alice, "RETURN array::map([{ id: user:b }], |$auth| (SELECT VALUE text FROM post))")).toEqual([{ err: refused("auth") }]);
      expect(await run(ds, alice, "RETURN array::map([{ owner: user:a }], |$this| (SELECT VALUE text FROM note))")).toEqual([{ err: refused("this") }]);
      expect(await run(ds, alice, "RETURN array::map([1], |$x| (SELECT VALUE text FROM post))")).toEqual([{ ok: [["mine"]] }]);
    });
  }
});
