// Equal work on failure: an unknown system user costs exactly one argon2 verification, at the parameters
// DEFINE USER hashes with, like a known user with a wrong password. Counted through a spy, not timed.

import argon2 from "argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";

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
      await expect(iam.basicAuth(newSession(), user, pass)).rejects.toThrow();
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
