// The code an access method runs is part of it: the fn:: functions and $params its clauses reach (through function
// bodies and param values) are the access method's, so only who may define the access method may define, overwrite
// or remove them (attack pass 3, A3: an EDITOR overwrote fn::pwcheck and harvested plaintext passwords). Stricter
// than SurrealDB 1.5.4 / 2.6.0, which accept every such statement from an EDITOR (oracle, both versions).

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { namesIn, reachOf } from "../../src/exec/access-reach.js";
import type { Reach } from "../../src/exec/access-reach.js";
import { Vars, clientCtx } from "../../src/exec/context.js";
import type { Compat } from "../../src/exec/session.js";
import { Transaction } from "../../src/store/transaction.js";
import { newDs, rootSession, run, systemSession } from "./helpers.js";

const IAM = "IAM error: Not enough permissions to perform this action";

const access = (compat: Compat, clauses: string) =>
  compat === 1 ? `DEFINE SCOPE acc9 SESSION 1h ${clauses}` : `DEFINE ACCESS acc9 ON DATABASE TYPE RECORD ${clauses}`;

const SCHEMA = (compat: Compat) => `
DEFINE FUNCTION fn::pwcheck($h: string, $p: string) { RETURN fn::inner($h, $p); } PERMISSIONS FULL;
DEFINE FUNCTION fn::inner($h: string, $p: string) { LET $x = $pepper; RETURN crypto::argon2::compare($h, $p) AND fn::missing(); } PERMISSIONS FULL;
DEFINE FUNCTION fn::pwhash($p: string) { RETURN crypto::argon2::generate($p); } PERMISSIONS FULL;
DEFINE FUNCTION fn::missing() { RETURN true; };
DEFINE FUNCTION fn::app() { RETURN 1; };
DEFINE PARAM $pepper VALUE 'pep';
DEFINE TABLE acc9 SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
${access(compat, "SIGNUP (CREATE acc9 SET email = $email, pw = fn::pwhash($password)) SIGNIN (SELECT * FROM acc9 WHERE email = $email AND fn::pwcheck(pw, $password))")};
`;

const empty = (): Reach => ({ functions: new Set(), params: new Set() });

describe("namesIn: the functions and params an AST names", () => {
  it("finds fn:: calls in both forms and $params anywhere, never builtins", () => {
    const reach = empty();
    namesIn(parse("SELECT * FROM t WHERE a = $a AND fn::f(crypto::argon2::compare(b, $b)) ORDER BY x; RETURN { k: [fn::g::h()] }"), reach);
    // the method form runs a stored function too (idiom.ts); the grammar does not make one today
    namesIn({ kind: "Idiom", parts: [{ kind: "Method", name: "fn::m", args: [] }] }, reach);
    expect([...reach.functions].sort()).toEqual(["f", "g::h", "m"]);
    expect([...reach.params].sort()).toEqual(["a", "b"]);
  });
});

describe.each([1, 2] as const)("reachOf: what the access methods of a database reach (compat %i)", (compat) => {
  it("grows through function bodies and param values; arguments are not params; names need not exist", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), `${SCHEMA(compat)}${compat === 2 ? "DEFINE PARAM $cl VALUE |$v| fn::viaclosure($v); DEFINE FUNCTION OVERWRITE fn::missing() { RETURN array::map([1], $cl); };" : ""}`);
    const ctx = clientCtx(ds, rootSession(), new Transaction(), Vars.root(compat));
    const reach = reachOf(ctx, { level: "DATABASE", ns: "test", db: "test" }, "test", "test");
    const fns = ["inner", "missing", "pwcheck", "pwhash", ...(compat === 2 ? ["viaclosure"] : [])].sort();
    expect([...reach.functions].sort()).toEqual(fns);
    // $h / $p are the functions' arguments, $x a LET's name: none of them reads a DEFINE PARAM
    expect([...reach.params].sort()).toEqual(["email", "password", "pepper", ...(compat === 2 ? ["cl", "v"] : [])].sort());
    expect(reach.functions.has("app")).toBe(false);
    // another database's access methods reach nothing here
    expect(reachOf(ctx, { level: "DATABASE", ns: "test", db: "other" }, "test", "other").functions.size).toBe(0);
  });
});

describe.each([1, 2] as const)("an EDITOR may not change what an access method reaches (compat %i, attack A3)", (compat) => {
  const editor = systemSession("Database", ["EDITOR"]);
  const overwrite = compat === 2 ? "OVERWRITE " : "";
  const setup = async () => {
    const ds = newDs({ compat });
    expect((await run(ds, rootSession(), SCHEMA(compat))).every((o) => "ok" in o)).toBe(true);
    return ds;
  };

  it("overwriting, removing or newly defining a reached function or param is refused", async () => {
    const ds = await setup();
    await run(ds, rootSession(), "REMOVE FUNCTION fn::missing");
    const attempts = [
      `DEFINE FUNCTION ${overwrite}fn::pwcheck($h: string, $p: string) { CREATE loot SET p = $p; RETURN true; } PERMISSIONS FULL`,
      "DEFINE FUNCTION fn::pwhash($p: string) { RETURN $p; }",
      "DEFINE FUNCTION IF NOT EXISTS fn::pwhash($p: string) { RETURN $p; }",
      `DEFINE FUNCTION ${overwrite}fn::inner($h: string, $p: string) { RETURN true; }`,
      "REMOVE FUNCTION fn::pwhash",
      // called by a reached body but not defined (yet): an EDITOR must not supply it
      "DEFINE FUNCTION fn::missing() { RETURN true; }",
      "REMOVE FUNCTION IF EXISTS fn::missing",
      // a DEFINE PARAM outranks a credential of that name, and reached params are read by reached bodies
      "DEFINE PARAM $email VALUE 'victim@x.io'",
      "DEFINE PARAM $password VALUE 'known'",
      `DEFINE PARAM ${overwrite}$pepper VALUE 'x'`,
      "REMOVE PARAM $pepper",
    ];
    expect(await run(ds, editor, attempts.join(";\n"))).toEqual(attempts.map(() => ({ err: IAM })));
    const [fns] = await run(ds, rootSession(), "(INFO FOR DB).functions.pwcheck");
    expect(JSON.stringify(fns)).not.toContain("loot");
  });

  it("unrelated functions and params stay an EDITOR's; a reached body's arguments are not params", async () => {
    const ds = await setup();
    const ok = [`DEFINE FUNCTION ${overwrite}fn::app() { RETURN 2; }`, "DEFINE FUNCTION fn::new() { RETURN 3; }", "REMOVE FUNCTION fn::new", "DEFINE PARAM $h VALUE 1", "DEFINE PARAM $p VALUE 1", "REMOVE PARAM $p"];
    expect(await run(ds, editor, ok.join(";\n"))).toEqual(ok.map(() => ({ ok: null })));
  });

  it("an OWNER of the database (or above) still may", async () => {
    const ds = await setup();
    const owner = systemSession("Database", ["OWNER"]);
    expect(await run(ds, owner, `DEFINE FUNCTION ${overwrite}fn::pwhash($p: string) { RETURN crypto::argon2::generate($p); } PERMISSIONS FULL; DEFINE PARAM ${overwrite}$pepper VALUE 'y'`)).toEqual([{ ok: null }, { ok: null }]);
    expect(await run(ds, systemSession("Namespace", ["OWNER"]), "REMOVE FUNCTION fn::missing")).toEqual([{ ok: null }]);
    expect(await run(ds, rootSession(), "DEFINE FUNCTION fn::missing() { RETURN true; }")).toEqual([{ ok: null }]);
  });

  it("a namespace EDITOR is refused too, and so is a schema body an OWNER triggers", async () => {
    const ds = await setup();
    expect(await run(ds, systemSession("Namespace", ["EDITOR"]), "REMOVE FUNCTION fn::pwhash")).toEqual([{ err: IAM }]);
    const plant = `DEFINE TABLE trig SCHEMALESS PERMISSIONS FULL; DEFINE EVENT swap ON trig THEN { DEFINE FUNCTION ${overwrite}fn::pwhash($p: string) { RETURN $p; }; }`;
    expect(await run(ds, editor, plant)).toEqual([{ ok: null }, { ok: null }]);
    expect(await run(ds, rootSession(), "CREATE trig:1")).toEqual([{ err: IAM }]);
  });

  it("a function an access reaches only after an OWNER redefines the access becomes protected then", async () => {
    const ds = await setup();
    expect(await run(ds, editor, `DEFINE FUNCTION ${overwrite}fn::app() { RETURN 2; }`)).toEqual([{ ok: null }]);
    await run(ds, rootSession(), `${compat === 2 ? "REMOVE ACCESS acc9 ON DATABASE; " : ""}${access(compat, "SIGNIN (SELECT * FROM acc9 WHERE fn::app() = 2)")}`);
    expect(await run(ds, editor, `DEFINE FUNCTION ${overwrite}fn::app() { RETURN 3; }`)).toEqual([{ err: IAM }]);
    // and what the old clauses reached is free again
    expect(await run(ds, editor, "REMOVE FUNCTION fn::pwhash")).toEqual([{ ok: null }]);
  });

  it("an EDITOR may not define, redefine or remove the access method itself (a 1.x scope included)", async () => {
    const ds = await setup();
    const stmts =
      compat === 1
        ? ["DEFINE SCOPE acc9 SESSION 1h SIGNIN (SELECT * FROM acc9)", "DEFINE SCOPE other SESSION 1h", "REMOVE SCOPE acc9"]
        : ["DEFINE ACCESS OVERWRITE acc9 ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM acc9)", "REMOVE ACCESS acc9 ON DATABASE"];
    expect(await run(ds, editor, stmts.join(";"))).toEqual(stmts.map(() => ({ err: IAM })));
  });
});

describe("AUTHENTICATE clauses reach too (compat 2), at every level", () => {
  const editor = systemSession("Database", ["EDITOR"]);
  it("a record access's and a JWT access's AUTHENTICATE protect what they call and read", async () => {
    const ds = newDs({ compat: 2 });
    const schema = [
      "DEFINE ACCESS rec ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM u) AUTHENTICATE { IF !fn::recok($auth) { THROW 'no' }; RETURN $auth }",
      "DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'k' AUTHENTICATE { IF $token.x != $gate { THROW 'no' } }",
      "DEFINE ACCESS nsapi ON NAMESPACE TYPE JWT ALGORITHM HS512 KEY 'k' AUTHENTICATE { IF !fn::nsok($token) { THROW 'no' } }",
    ];
    expect(await run(ds, rootSession(), schema.join(";"))).toEqual(schema.map(() => ({ ok: null })));
    const refused = ["DEFINE FUNCTION fn::recok($a: any) { RETURN true; }", "DEFINE PARAM $gate VALUE 'open'", "DEFINE FUNCTION fn::nsok($t: any) { RETURN true; }"];
    expect(await run(ds, editor, refused.join(";"))).toEqual(refused.map(() => ({ err: IAM })));
    // a namespace access method's reach is its namespace OWNER's: a database OWNER may not change it either
    const dbOwner = systemSession("Database", ["OWNER"]);
    expect(await run(ds, dbOwner, refused.join(";"))).toEqual([{ ok: null }, { ok: null }, { err: IAM }]);
    expect(await run(ds, systemSession("Namespace", ["OWNER"]), refused[2]!)).toEqual([{ ok: null }]);
  });
});
