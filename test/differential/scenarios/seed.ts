// Differential scenarios: the seed's typical set-up (§2.4) driven over RPC, one list per variant.

import type { Step } from "../harness/steps.js";

const schema = (auth: string) => `
DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update, delete WHERE id = $auth.id;
DEFINE FIELD name ON user TYPE string;
DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value);
DEFINE FIELD password ON user TYPE string;
DEFINE INDEX email ON user FIELDS email UNIQUE;
${auth}
INFO FOR TABLE user;`;

const signupLogic = `SIGNUP (CREATE user SET name = $name, email = $email, password = crypto::argon2::generate($password))
  SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password))`;

/** Steps shared by both variants; `who` is the SC or AC key of the payloads. */
function flow(who: "SC" | "AC", auth: string): Step[] {
  const cred = (extra: object) => ({ NS: "test", DB: "test", [who]: "account", ...extra });
  return [
    { method: "signin", params: [{ user: "root", pass: "root" }] },
    { method: "use", params: ["test", "test"] },
    { method: "query", params: [schema(auth)] },
    { method: "signup", params: [cred({ name: "Ann", email: "ann@example.com", password: "pw-ann" })] },
    { method: "query", params: ["SELECT name, email FROM user; RETURN $auth.name; SELECT VALUE exp != NONE FROM ONLY $session"] },
    { method: "signup", params: [cred({ name: "Ann again", email: "ann@example.com", password: "x" })] },
    { method: "signup", params: [cred({ name: "Bad", email: "not-an-email", password: "x" })] },
    { method: "signup", params: [cred({ name: "Bob", email: "bob@example.com", password: "pw-bob" })] },
    { method: "query", params: ["SELECT name FROM user"] },
    { method: "signin", params: [cred({ email: "ann@example.com", password: "wrong" })] },
    { method: "signin", params: [cred({ email: "ann@example.com", password: "pw-ann" })] },
    { method: "query", params: ["SELECT name FROM user; UPDATE user SET name = 'Ann B' RETURN name; DELETE user RETURN BEFORE"] },
    { method: "invalidate" },
    { method: "signin", params: [{ user: "root", pass: "root" }] },
    { method: "query", params: ["SELECT name, email FROM user ORDER BY email"] },
  ];
}

export const seedV1: readonly Step[] = flow("SC", `DEFINE SCOPE account SESSION 1d ${signupLogic};`);
export const seedV2: readonly Step[] = flow(
  "AC",
  `DEFINE ACCESS account ON DATABASE TYPE RECORD ${signupLogic} DURATION FOR TOKEN 15m, FOR SESSION 1d;`,
);
