// 1.x scope clauses read record-id string literals as record ids (SurrealDB 1.5.4, checked with the oracle: the
// parse under compat 1 makes them record-id literals, test/grammar/literals.test.ts); 2.x record access keeps them
// strings and refuses them as an identity.

import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import { Iam } from "../../src/iam/index.js";
import { formatRecordId } from "../../src/value/record.js";

async function setup(compat: 1 | 2, clauses: Record<string, string>) {
  const ds = new Datastore({ compat });
  const iam = new Iam(ds);
  const root = newSession({ ns: "test", db: "test", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });
  const defs = Object.entries(clauses).map(([name, c]) =>
    compat === 1 ? `DEFINE SCOPE ${name} SESSION 1h SIGNIN (${c}) SIGNUP (${c});` : `DEFINE ACCESS ${name} ON DATABASE TYPE RECORD SIGNIN (${c}) SIGNUP (${c});`,
  );
  for (const r of await ds.execute(defs.join("\n"), root)) if (r.status === "ERR") throw r.error;
  return { iam, cred: (name: string) => ({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: name }) };
}

const CLAUSES = {
  bare: "RETURN 'user:ann'",
  obj: "RETURN { id: 'user:ann' }",
  arr: "RETURN [{ id: 'user:ann' }]",
  odd: "RETURN 'user:⟨a b⟩'",
  computed: "RETURN string::concat('user:', 'ann')",
  cast: "RETURN <string> user:ann",
  spaced: "RETURN 'user:ann '",
  plain: "RETURN 'ann'",
};

describe("v1 record-id string literals in SIGNIN / SIGNUP", () => {
  it("compat 1: a literal record-id string (bare, as an object's id, in a one-element array) signs up and in", async () => {
    const { iam, cred } = await setup(1, CLAUSES);
    for (const [name, rid] of [["bare", "user:ann"], ["obj", "user:ann"], ["arr", "user:ann"], ["odd", "user:⟨a b⟩"]] as const) {
      for (const op of ["signup", "signin"] as const) {
        const s = newSession();
        await iam[op](s, cred(name));
        expect(s.rd && formatRecordId(s.rd, { compat: 1 }), `${name} ${op}`).toBe(rid);
        expect(s.actor).toMatchObject({ level: "Scope", id: rid });
      }
    }
  });

  it("compat 1: a computed string, a string with spaces or without a table stays a string: No record was returned", async () => {
    const { iam, cred } = await setup(1, CLAUSES);
    for (const name of ["computed", "cast", "spaced", "plain"]) {
      await expect(iam.signup(newSession(), cred(name)), name).rejects.toThrow("No record was returned");
      await expect(iam.signin(newSession(), cred(name)), name).rejects.toThrow("No record was returned");
    }
  });

  it("compat 2 (SurrealDB 2.6.0): every string form is refused", async () => {
    const { iam, cred } = await setup(2, CLAUSES);
    for (const name of Object.keys(CLAUSES)) {
      await expect(iam.signup(newSession(), cred(name)), name).rejects.toThrow("No record was returned");
      await expect(iam.signin(newSession(), cred(name)), name).rejects.toThrow("No record was returned");
    }
  });
});
