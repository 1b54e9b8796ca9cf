// iam/: signup / signin credentials are the access clause's own variables — a field VALUE clause the clause's CREATE
// triggers never sees them, so a field an EDITOR defines cannot harvest plaintext passwords (attack finding F17).

import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";

describe.each([1, 2] as const)("credentials stay inside the access clause (compat %i)", (compat) => {
  it("a field VALUE $password defined beside the access method stores nothing of the password", async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    const root = db.connect({ ns: "app", db: "app" });
    await root.signin({ user: "root", pass: "root" });
    const clauses = "SIGNUP (CREATE user SET email = $email, password = crypto::argon2::generate($password)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password))";
    const access = compat === 1 ? `DEFINE SCOPE account SESSION 1h ${clauses}` : `DEFINE ACCESS account ON DATABASE TYPE RECORD ${clauses}`;
    for (const r of await root.query(`DEFINE TABLE user PERMISSIONS FULL; ${access}; DEFINE FIELD pwcopy ON user VALUE $password ?? $before.pwcopy; DEFINE FIELD emailcopy ON user VALUE $email`)) expect(r.status).toBe("OK");
    await db.connect().signup({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", email: "a@b.c", password: "SECRET_plain" });
    const [rows] = await root.query("SELECT * FROM user");
    const text = JSON.stringify(rows!.result);
    expect(text).toContain("a@b.c");
    expect(text).not.toContain("SECRET_plain");
    const [row] = rows!.result as { pwcopy?: unknown; emailcopy?: unknown }[];
    expect(row!.pwcopy).toBeUndefined();
    expect(row!.emailcopy).toBeUndefined();
  });
});
