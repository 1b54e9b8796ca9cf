// What iam/ relies on: stored users (argon2id hash, 128-char code), resolved access JWTs, change events, evaluate().

import argon2 from "argon2";
import { describe, expect, it } from "vitest";
import { parseExpr } from "../../grammar/index.js";
import type { DefinitionChange } from "../../src/exec/contract.js";
import { ThrownError } from "../../src/errors/index.js";
import { newDs, rootSession, run } from "./helpers.js";
import { RecordId } from "../../src/value/types.js";

describe("DEFINE USER", () => {
  it("hashes PASSWORD with argon2id m=19456,t=2,p=1 and draws a fresh 128-char code per DEFINE", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE USER admin ON ROOT PASSWORD 'secret' ROLES OWNER");
    const first = ds.catalog.getUser("ROOT", undefined, undefined, "admin")!;
    expect(first.def.passhash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first.def.password).toBeUndefined();
    expect(await argon2.verify(first.def.passhash!, "secret")).toBe(true);
    expect(first.code).toMatch(/^[A-Za-z0-9]{128}$/);
    await run(ds, rootSession(), "DEFINE USER OVERWRITE admin ON ROOT PASSWORD 'secret' ROLES OWNER");
    const second = ds.catalog.getUser("ROOT", undefined, undefined, "admin")!;
    expect(second.code).toMatch(/^[A-Za-z0-9]{128}$/);
    expect(second.code).not.toBe(first.code);
  });

  it("stores PASSHASH verbatim at each level", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE USER n ON NAMESPACE PASSHASH 'h1' ROLES EDITOR; DEFINE USER d ON DATABASE PASSHASH 'h2'");
    expect(ds.catalog.getUser("NAMESPACE", "test", undefined, "n")?.def.passhash).toBe("h1");
    expect(ds.catalog.getUser("DATABASE", "test", "test", "d")?.def.roles).toEqual(["VIEWER"]);
    expect(ds.catalog.getUser("DATABASE", "test", "other", "d")).toBeUndefined();
  });
});

describe("DEFINE ACCESS", () => {
  it("resolves a random HS512 key for RECORD access without a JWT clause, used to verify and issue", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user)");
    const a = ds.catalog.getAccess("DATABASE", "test", "test", "account")!;
    expect(a.jwt.verify).toMatchObject({ kind: "Key", alg: "HS512" });
    const key = a.jwt.verify.kind === "Key" ? a.jwt.verify.key : "";
    expect(key).toMatch(/^[A-Za-z0-9]{128}$/);
    expect(a.jwt.issuer).toEqual({ alg: "HS512", key });
  });

  it("keeps an explicit key, with the same key as issuer for HS algorithms", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS256 KEY 'k'");
    expect(ds.catalog.getAccess("DATABASE", "test", "test", "api")?.jwt).toEqual({ verify: { kind: "Key", alg: "HS256", key: "k" }, issuer: { alg: "HS256", key: "k" } });
  });

  it("v1 DEFINE TOKEN verifies only", async () => {
    const ds = newDs({ compat: 1 });
    await run(ds, rootSession(), "DEFINE TOKEN t ON DATABASE TYPE HS512 VALUE 'secret'");
    expect(ds.catalog.getAccess("DATABASE", "test", "test", "t")?.jwt.issuer).toBeUndefined();
  });
});

describe("onDefinitionChange", () => {
  it("fires on DEFINE and REMOVE of users and accesses, and not for tables", async () => {
    const ds = newDs();
    const seen: DefinitionChange[] = [];
    const off = ds.onDefinitionChange((c) => seen.push(c));
    await run(ds, rootSession(), "DEFINE USER u ON DATABASE PASSHASH 'x'; DEFINE TABLE t; DEFINE ACCESS a ON NAMESPACE TYPE JWT ALGORITHM HS512 KEY 'k'; REMOVE USER u ON DATABASE");
    expect(seen).toEqual([
      { kind: "user", base: "DATABASE", ns: "test", db: "test", name: "u" },
      { kind: "access", base: "NAMESPACE", ns: "test", db: undefined, name: "a" },
      { kind: "user", base: "DATABASE", ns: "test", db: "test", name: "u" },
    ]);
    off();
    await run(ds, rootSession(), "DEFINE USER v ON ROOT PASSHASH 'x'");
    expect(seen).toHaveLength(3);
  });
});

describe("evaluate", () => {
  it("runs a SIGNIN-style subquery with variables bound and returns its value", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "CREATE user:1 SET email = 'a@b.c'; CREATE user:2 SET email = 'x@y.z'");
    const v = await ds.evaluate(parseExpr("(SELECT * FROM user WHERE email = $email)"), rootSession(), { email: "a@b.c" });
    expect(v).toEqual([{ id: new RecordId("user", 1n), email: "a@b.c" }]);
  });

  it("raises THROW as ThrownError and undoes the writes of the failed evaluation", async () => {
    const ds = newDs();
    const expr = parseExpr("{ CREATE user:9; THROW 'nope'; }");
    await expect(ds.evaluate(expr, rootSession())).rejects.toBeInstanceOf(ThrownError);
    expect(await run(ds, rootSession(), "SELECT * FROM user")).toEqual([{ ok: [] }]);
  });

  it("returns the value of RETURN inside a block", async () => {
    const ds = newDs();
    expect(await ds.evaluate(parseExpr("{ LET $a = 2; RETURN $a * 3; }"), rootSession())).toBe(6n);
  });
});

describe("transactions", () => {
  it("leaves nothing of a failed BEGIN…COMMIT visible, definitions included", async () => {
    const ds = newDs();
    const out = await run(ds, rootSession(), "BEGIN; DEFINE TABLE x; CREATE x:1; DEFINE USER u ON ROOT PASSHASH 'h'; CREATE x:1; COMMIT; INFO FOR DB; SELECT * FROM x");
    expect(out.slice(0, 4)).toEqual([
      { err: "The query was not executed due to a failed transaction" },
      { err: "The query was not executed due to a failed transaction" },
      { err: "The query was not executed due to a failed transaction" },
      { err: "Database record `x:1` already exists" },
    ]);
    expect(ds.catalog.getUser("ROOT", undefined, undefined, "u")).toBeUndefined();
    expect(out[5]).toEqual({ ok: [] });
  });

  it("serialises concurrent calls so a transaction never sees another's uncommitted writes", async () => {
    const ds = newDs();
    const a = run(ds, rootSession(), "BEGIN; CREATE t:1; CREATE t:1; COMMIT;");
    const b = run(ds, rootSession(), "SELECT * FROM t");
    await a;
    expect(await b).toEqual([{ ok: [] }]);
  });
});
