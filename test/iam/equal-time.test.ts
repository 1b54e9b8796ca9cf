// Equal work on failure: an unknown system user costs exactly one argon2 verification, at the parameters
// DEFINE USER hashes with, like a known user with a wrong password; an unknown record user costs one verify of
// the algorithm its SIGNIN clause compares with, at generation cost. Counted through spies, not timed.

import argon2 from "argon2";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineAccessStatement } from "../../src/ast/nodes.js";
import { Datastore } from "../../src/exec/datastore.js";
import { HASHING, PASSWORD_ALGORITHMS, type PasswordAlgorithm } from "../../src/exec/functions/hashing.js";
import { newSession } from "../../src/exec/session.js";
import { compareAlgorithm } from "../../src/iam/equal-time.js";
import { Iam } from "../../src/iam/index.js";
import type { Value } from "../../src/value/types.js";

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` ⇒ type, version, parameters, salt and hash lengths. */
function shape(phc: string) {
  const [, type, v, params, salt, hash] = phc.split("$");
  return { type, v, params, salt: salt!.length, hash: hash!.length };
}

async function setup(compat: 1 | 2) {
  const ds = new Datastore({ compat });
  const iam = new Iam(ds);
  const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  const res = await ds.execute(
    "DEFINE USER root ON ROOT PASSWORD 'root' ROLES OWNER; DEFINE USER nsu ON NAMESPACE PASSWORD 'n'; DEFINE USER dbu ON DATABASE PASSWORD 'd'",
    root,
  );
  for (const r of res) if (r.status === "ERR") throw r.error;
  const stored = ds.catalog.getUser("ROOT", undefined, undefined, "root")!.def.passhash!;
  return { iam, stored };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("system-user signin failures do the same work, compat %i", (compat) => {
  const cases = {
    "known user, wrong password": { user: "root", pass: "wrong" },
    "unknown root user": { user: "ghost", pass: "root" },
    "unknown namespace user": { NS: "test", user: "ghost", pass: "root" },
    "unknown database user": { NS: "test", DB: "test", user: "ghost", pass: "root" },
    "unknown user in an unknown database": { NS: "nope", DB: "nope", user: "ghost", pass: "root" },
    "empty user name": { user: "", pass: "root" },
    "known user, empty password": { user: "root", pass: "" },
  };

  it.each(Object.entries(cases))("%s: exactly one argon2 verify, with DEFINE USER's parameters", async (_name, vars) => {
    const { iam, stored } = await setup(compat);
    const verify = vi.spyOn(argon2, "verify");
    await expect(iam.signin(newSession(), vars)).rejects.toThrow("There was a problem with authentication");
    expect(verify).toHaveBeenCalledTimes(1);
    const [hash] = verify.mock.calls[0]!;
    expect(shape(hash)).toEqual(shape(stored));
  });

  it("the same through HTTP Basic", async () => {
    const { iam, stored } = await setup(compat);
    const verify = vi.spyOn(argon2, "verify");
    for (const [user, pass] of [["ghost", "root"], ["root", "wrong"]] as const) {
      verify.mockClear();
      await expect(iam.basicAuth(newSession(), user, pass)).rejects.toThrow(/^There was a problem with authentication$/);
      expect(verify).toHaveBeenCalledTimes(1);
      expect(shape(verify.mock.calls[0]![0])).toEqual(shape(stored));
    }
  });

  it("a successful signin verifies once too", async () => {
    const { iam } = await setup(compat);
    const verify = vi.spyOn(argon2, "verify");
    await iam.signin(newSession(), { user: "root", pass: "root" });
    expect(verify).toHaveBeenCalledTimes(1);
  });
});

describe.each([1, 2] as const)("Basic with auth levels, compat %i: wrong password and unknown user look the same", (compat) => {
  it.each([
    ["unknown user", "ghost", "d"],
    ["wrong password", "dbu", "wrong"],
  ])("%s: the generic error after one verify", async (_name, user, pass) => {
    const ds = new Datastore({ compat });
    const iam = new Iam(ds, { authLevelEnabled: true });
    const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    for (const r of await ds.execute("DEFINE USER dbu ON DATABASE PASSWORD 'd'", root)) if (r.status === "ERR") throw r.error;
    const verify = vi.spyOn(argon2, "verify");
    const e = await iam.basicAuth(newSession(), user, pass, { ns: "test", db: "test" }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "InvalidAuth", message: "There was a problem with authentication" });
    expect(verify).toHaveBeenCalledTimes(1);
  });
});

/** A hash with its salt and digest replaced by their lengths: algorithm, version and cost parameters stay. */
function cost(hash: string): (string | number)[] {
  const parts = hash.split("$");
  const secret = hash.startsWith("$2") ? 1 : 2; // bcrypt: salt and digest are one field
  return parts.map((p, i) => (i >= parts.length - secret ? p.length : p));
}

/** Every verify a password check computes, with the stored hash it verified against. */
function spyVerifies(): { alg: PasswordAlgorithm; hash: string }[] {
  const seen: { alg: PasswordAlgorithm; hash: string }[] = [];
  for (const alg of PASSWORD_ALGORITHMS) {
    const hashing = HASHING[alg];
    const prepare = hashing.prepare.bind(hashing);
    vi.spyOn(hashing, "prepare").mockImplementation((hash) => {
      const prepared = prepare(hash);
      if (!prepared.ok) return prepared;
      return {
        ok: true,
        verify: (pass) => {
          seen.push({ alg, hash });
          return prepared.verify(pass);
        },
      };
    });
  }
  return seen;
}

async function recordSetup(compat: 1 | 2, signin: string) {
  const ds = new Datastore({ compat });
  const iam = new Iam(ds);
  const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  const define =
    compat === 1
      ? `DEFINE SCOPE account SESSION 1d SIGNIN (${signin})`
      : `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (${signin})`;
  const res = await ds.execute(`DEFINE INDEX email ON user FIELDS email UNIQUE; ${define}`, root);
  for (const r of res) if (r.status === "ERR") throw r.error;
  /** Creates a user; returns the stored hash. */
  const create = async (email: string, pass: string): Promise<string> => {
    const [r] = await ds.execute(`CREATE ONLY user SET email = $email, pass = ${pass} RETURN VALUE pass`, root, { email });
    if (r!.status === "ERR") throw r!.error;
    return r!.result as string;
  };
  /** Signs in with the payload fields `fields` (any types; `pass` left out when undefined). */
  const signinWith = (fields: Record<string, Value>) => iam.signin(newSession(), { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", ...fields });
  const signinAs = (email: string, pass: string) => signinWith({ email, pass });
  return { create, signinAs, signinWith };
}

describe.each([1, 2] as const)("record signin failures do the same work, compat %i", (compat) => {
  it.each(PASSWORD_ALGORITHMS)(
    "%s: known user right / wrong password and unknown user each compute exactly one verify at the stored cost",
    async (alg) => {
      const env = await recordSetup(compat, `SELECT * FROM user WHERE email = $email AND crypto::${alg}::compare(pass, $pass)`);
      const stored = await env.create("known@example.com", `crypto::${alg}::generate('right')`);
      const seen = spyVerifies();
      const outcomes: Record<string, unknown> = {};
      for (const [name, email, pass] of [
        ["right", "known@example.com", "right"],
        ["wrong", "known@example.com", "wrong"],
        ["unknown", "ghost@example.com", "right"],
      ] as const) {
        seen.length = 0;
        outcomes[name] = await env.signinAs(email, pass).then(
          () => "token",
          (e: Error) => e.message,
        );
        expect(seen.map((v) => v.alg), name).toEqual([alg]);
        expect(cost(seen[0]!.hash), name).toEqual(cost(stored));
      }
      expect(outcomes).toEqual({ right: "token", wrong: "No record was returned", unknown: "No record was returned" });
    },
    30_000,
  );

  it("argon2 through the library: one argon2.verify for the unknown user, none more", async () => {
    const env = await recordSetup(compat, "SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass)");
    const verify = vi.spyOn(argon2, "verify");
    await expect(env.signinAs("ghost@example.com", "x")).rejects.toThrow("No record was returned");
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("bcrypt through the library: one bcrypt.compare for the unknown user", async () => {
    const env = await recordSetup(compat, "SELECT * FROM user WHERE email = $email AND crypto::bcrypt::compare(pass, $pass)");
    const compare = vi.spyOn(bcrypt, "compare");
    await expect(env.signinAs("ghost@example.com", "x")).rejects.toThrow("No record was returned");
    expect(compare).toHaveBeenCalledTimes(1);
  });

  it("a stored hash the compare refuses without hashing still costs one verify of its algorithm", async () => {
    const env = await recordSetup(compat, "SELECT * FROM user WHERE email = $email AND crypto::scrypt::compare(pass, $pass)");
    await env.create("broken@example.com", "'$scrypt$ln=40,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo'");
    const seen = spyVerifies();
    await expect(env.signinAs("broken@example.com", "x")).rejects.toThrow("No record was returned");
    expect(seen.map((v) => [v.alg, v.hash])).toEqual([["scrypt", HASHING.scrypt.dummy]]);
  });

  it("a clause without a compare call pays SurrealDB's default, argon2", async () => {
    const env = await recordSetup(compat, "SELECT * FROM user WHERE email = $email AND pass = $pass");
    const seen = spyVerifies();
    await expect(env.signinAs("ghost@example.com", "x")).rejects.toThrow("No record was returned");
    expect(seen.map((v) => v.alg)).toEqual(["argon2"]);
  });
});

describe.each([1, 2] as const)("record signin with a credential of the wrong type, compat %i (pentest F6)", (compat) => {
  const shapes: [string, Record<string, Value>][] = [
    ["no password", {}],
    ["a number", { pass: 12 }],
    ["null", { pass: null }],
    ["an object", { pass: {} }],
    ["an array", { pass: ["x"] }],
    ["a bool", { pass: true }],
    ["a wrong string", { pass: "wrong" }],
  ];

  it.each(shapes)("%s: a known and an unknown email both answer No record was returned after exactly one verify", async (_name, fields) => {
    const env = await recordSetup(compat, "SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass)");
    const stored = await env.create("known@example.com", "crypto::argon2::generate('right')");
    const seen = spyVerifies();
    for (const email of ["known@example.com", "ghost@example.com"]) {
      seen.length = 0;
      const e = await env.signinWith({ email, ...fields }).catch((x: unknown) => x);
      expect(e, email).toMatchObject({ message: "No record was returned" });
      expect(seen.map((v) => v.alg), email).toEqual(["argon2"]);
      expect(cost(seen[0]!.hash), email).toEqual(cost(stored));
    }
  });

  it("a THROW in the clause keeps its text (the schema author's) and costs one verify too", async () => {
    const env = await recordSetup(
      compat,
      "{ IF type::is::number($pass) { THROW 'numeric password' }; RETURN SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $pass) }",
    );
    const seen = spyVerifies();
    await expect(env.signinWith({ email: "ghost@example.com", pass: 3 })).rejects.toThrow("An error occurred: numeric password");
    expect(seen.map((v) => v.alg)).toEqual(["argon2"]);
  });
});

describe("compareAlgorithm: the first password compare named anywhere in a SIGNIN clause", () => {
  it.each([
    ["SELECT * FROM user WHERE email = $email AND crypto::bcrypt::compare(pass, $pass)", "bcrypt"],
    ["{ LET $u = (SELECT * FROM user WHERE email = $email); IF Crypto::SCRYPT::Compare($u[0].pass, $pass) { RETURN $u } }", "scrypt"],
    ["SELECT * FROM user WHERE crypto::pbkdf2::compare(pass, $pass) OR crypto::argon2::compare(pass, $pass)", "pbkdf2"],
    ["SELECT * FROM user WHERE email = $email AND fn::check(pass, $pass)", "argon2"],
    ["SELECT * FROM user WHERE email = $email AND crypto::sha256($pass) = pass", "argon2"],
  ])("%s ⇒ %s", (signin, alg) => {
    const [def] = parse(`DEFINE ACCESS a ON DATABASE TYPE RECORD SIGNIN (${signin})`);
    expect(def!.kind).toBe("DefineAccess");
    const access = (def as DefineAccessStatement).access;
    expect(access.kind === "Record" && access.signin && compareAlgorithm(access.signin)).toBe(alg);
  });
});

describe.each([1, 2] as const)("record signup failures pay no dummy verify, compat %i", (compat) => {
  it("a refused signup computes what its SIGNUP clause computes, nothing more", async () => {
    const ds = new Datastore({ compat });
    const iam = new Iam(ds);
    const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
    const clause = "SIGNUP (CREATE user SET email = $email, pass = crypto::argon2::generate($pass)) SIGNIN (SELECT * FROM user)";
    const define = compat === 1 ? `DEFINE SCOPE account ${clause}` : `DEFINE ACCESS account ON DATABASE TYPE RECORD ${clause}`;
    for (const r of await ds.execute(`DEFINE INDEX email ON user FIELDS email UNIQUE; ${define}`, root)) if (r.status === "ERR") throw r.error;
    const vars = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: "a@example.com", pass: "pw" };
    await iam.signup(newSession(), vars);
    const seen = spyVerifies();
    const hash = vi.spyOn(argon2, "hash");
    await expect(iam.signup(newSession(), vars)).rejects.toThrow(/signup query failed/);
    expect(hash).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([]);
  });
});
