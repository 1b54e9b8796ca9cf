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

// Attack pass 3, A3: the functions an access clause calls are the access method's (src/exec/access-reach.ts). An EDITOR
// may not overwrite fn::pwcheck / fn::pwhash to copy the password they receive as an argument; its events and fields
// on the signup table see only what the clause wrote (the hash).
describe.each([1, 2] as const)("an EDITOR cannot harvest passwords through what an access clause calls (compat %i)", (compat) => {
  const IAM = "IAM error: Not enough permissions to perform this action";
  const AC = compat === 1 ? "SC" : "AC";
  const ow = compat === 2 ? "OVERWRITE " : "";
  const clauses = "SIGNUP (CREATE acc9 SET email = $email, pw = fn::pwhash($password)) SIGNIN (SELECT * FROM acc9 WHERE email = $email AND fn::pwcheck(pw, $password))";

  it("the EDITOR's overwrite, removal and param are refused; signup and signin still work; no plaintext is stored anywhere", async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    const root = db.connect({ ns: "app", db: "app" });
    await root.signin({ user: "root", pass: "root" });
    const schema = [
      "DEFINE USER e ON DATABASE PASSWORD 'e' ROLES EDITOR",
      "DEFINE FUNCTION fn::pwcheck($h: string, $p: string) { RETURN crypto::argon2::compare($h, $p); } PERMISSIONS FULL",
      "DEFINE FUNCTION fn::pwhash($p: string) { RETURN crypto::argon2::generate($p); } PERMISSIONS FULL",
      "DEFINE TABLE acc9 SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id",
      compat === 1 ? `DEFINE SCOPE acc9 SESSION 1h ${clauses}` : `DEFINE ACCESS acc9 ON DATABASE TYPE RECORD ${clauses} DURATION FOR TOKEN 1h`,
    ];
    for (const r of await root.query(schema.join(";"))) expect(r.status).toBe("OK");
    const editor = db.connect({ ns: "app", db: "app" });
    await editor.signin({ NS: "app", DB: "app", user: "e", pass: "e" });
    const attack = [
      `DEFINE FUNCTION ${ow}fn::pwcheck($h: string, $p: string) { CREATE loot SET p = $p, via = 'signin'; RETURN crypto::argon2::compare($h, $p); } PERMISSIONS FULL`,
      `DEFINE FUNCTION ${ow}fn::pwhash($p: string) { CREATE loot SET p = $p, via = 'signup'; RETURN crypto::argon2::generate($p); } PERMISSIONS FULL`,
      "REMOVE FUNCTION fn::pwcheck",
      "DEFINE PARAM $password VALUE 'known'",
    ];
    expect((await editor.query(attack.join(";"))).map((r) => r.result)).toEqual(attack.map(() => IAM));
    // what an EDITOR may still do on the signup table: its events and field clauses see the hash only
    const plant = [
      "DEFINE TABLE loot SCHEMALESS PERMISSIONS FULL",
      "DEFINE EVENT grab ON acc9 THEN (CREATE loot SET via = 'event', a = $after, i = $input, pw = $password)",
      "DEFINE FIELD copy ON acc9 VALUE [$this.pw, $value, $input, $password]",
      "DEFINE FIELD pw ON acc9 ASSERT { CREATE loot SET via = 'assert', v = $value; true }",
      "DEFINE FUNCTION fn::app() { RETURN 1; }",
    ];
    for (const r of await editor.query(plant.join(";"))) expect(r.status).toBe("OK");
    await db.connect().signup({ NS: "app", DB: "app", [AC]: "acc9", email: "vic2@x.io", password: "SECRET_plain_signup" });
    const user = db.connect();
    await user.signin({ NS: "app", DB: "app", [AC]: "acc9", email: "vic2@x.io", password: "SECRET_plain_signup" });
    const [me] = await user.query("SELECT email FROM $auth");
    expect(me!.result).toEqual([{ email: "vic2@x.io" }]);
    await expect(db.connect().signin({ NS: "app", DB: "app", [AC]: "acc9", email: "vic2@x.io", password: "wrong" })).rejects.toThrow();
    const [loot, acc] = await root.query("SELECT * FROM loot; SELECT * FROM acc9");
    expect((loot!.result as unknown[]).length).toBeGreaterThan(0);
    const text = JSON.stringify([loot!.result, acc!.result]);
    expect(text).toContain("$argon2id$");
    expect(text).not.toContain("SECRET_plain");
  });
});
