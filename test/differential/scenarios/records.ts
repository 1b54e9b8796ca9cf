// Differential scenarios: scope users (1.5.4) and record users (2.6.0): signup, signin, payload variables, clause outcomes.

import type { Step } from "../harness/steps.js";

type V = 1 | 2;
const root = { method: "signin", params: [{ user: "root", pass: "root" }] } as const;

/** A scope (v1) or database record access (v2) with the given clauses; plain-text passwords keep the wasm engines fast. */
const def = (v: V, name: string, clauses: string) =>
  v === 1 ? `DEFINE SCOPE ${name} SESSION 1h ${clauses};` : `DEFINE ACCESS ${name} ON DATABASE TYPE RECORD ${clauses};`;

const signin = `SIGNIN (SELECT * FROM user WHERE email = $email AND pass = $password)`;
/** Captures every kind of payload variable into the new record. */
const signup = `SIGNUP (CREATE user CONTENT {
  email: $email, pass: $password, n: $n, nested: $nested,
  ns: $NS, db: $DB, sc: $SC, ac: $AC, user: $user, pass2: $pass, lower_ns: $ns
})`;

/** A SIGNIN clause error (other than THROW) answers as no record in surql-auth; SurrealDB says the signin query failed. */
const clauseErrorAsNoRecord = (v: V): Pick<Step, "skipCompare" | "oursExpected"> => ({
  skipCompare: `KNOWN DIFFERENCE: stricter: a SIGNIN clause error answers \`No record was returned\` after the dummy verify (SurrealDB ${v === 1 ? "1.5.4: `The signin query failed`" : "2.6.0: `The record access signin query failed`"}, which tells a registered email from an unknown one); test/iam/equal-time.test.ts`,
  oursExpected: { error: "There was a problem with the database: No record was returned" },
});

/** Signup and signin: typical flow, variables, reserved keys, every clause outcome (both variants). */
export function recordUsers(v: V): Step[] {
  const K = v === 1 ? "SC" : "AC";
  const cred = (name: string, extra: object = {}) => ({ NS: "test", DB: "test", [K]: name, ...extra });
  const setup = [
    "DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;",
    def(v, "acc", `${signup} ${signin}`),
    def(v, "zero", "SIGNIN (SELECT * FROM user WHERE false) SIGNUP (SELECT * FROM user WHERE false)"),
    def(v, "two", "SIGNIN (SELECT * FROM user) SIGNUP (SELECT * FROM user)"),
    def(v, "scalar", "SIGNIN (RETURN 42) SIGNUP (RETURN 'user:ann')"),
    def(v, "noid", "SIGNIN (RETURN { name: 'x' }) SIGNUP (RETURN { id: 'user:ann' })"),
    def(v, "obj", "SIGNIN (RETURN { id: user:ann, extra: 1 }) SIGNUP (RETURN user:ghost)"),
    def(v, "nested", "SIGNIN (RETURN [[user:ann]]) SIGNUP (RETURN [user:ann, user:bob])"),
    def(v, "thrower", "SIGNIN { THROW 'no entry for ' + $email } SIGNUP { IF true { THROW 'closed' } }"),
    def(v, "broken", "SIGNIN (RETURN <int> 'abc') SIGNUP (CREATE user:ann SET email = 'dup')"),
    def(v, "inonly", signin),
    def(v, "uponly", "SIGNUP (CREATE user SET email = $email)"),
    def(v, "empty", ""),
    // a field ASSERT block returns its value to the ASSERT, not to the SIGNUP's CREATE (issue #11 §1)
    "DEFINE FIELD email ON member TYPE string ASSERT { IF !string::is::email($value) { THROW 'bad email: ' + $value; }; RETURN true; };",
    def(v, "blocks", "SIGNUP (CREATE type::thing('member', $n) SET email = $email) SIGNIN (SELECT * FROM member WHERE email = $email)"),
    "CREATE user:ann SET email = 'ann@example.com', pass = 'pw-ann';",
    "CREATE user:bob SET email = 'bob@example.com', pass = 'pw-bob';",
  ].join("\n");
  return [
    root,
    { method: "use", params: ["test", "test"] },
    { method: "query", params: [setup] },
    // THROW is not an expression inside parentheses (a parse error in SurrealDB)
    {
      method: "query",
      params: [def(v, "parens", "SIGNUP (THROW 'closed')")],
      skipCompare: "KNOWN DIFFERENCE: SurrealDB refuses THROW inside parentheses (Parse error: Missing closing delimiter / Unexpected token `THROW`); surql-auth accepts the definition",
    },
    { method: "invalidate" },
    // typical flow, payload fields as $variables (odd names, numbers, nested values, NS/DB/SC/AC themselves)
    {
      method: "signup",
      params: [cred("acc", { email: "cy@example.com", password: "pw-cy", n: 7, nested: { a: [1, 2] }, "odd-name": "odd", "with space": "sp", user: "u", pass: "p" })],
    },
    { method: "query", params: ["SELECT * OMIT id FROM user; RETURN [$auth.email, $token.ID = <string> $auth]"] },
    // escaped variable names reach payload keys that are not identifiers
    { method: "signin", params: [root.params[0]] },
    {
      method: "query",
      params: [def(v, "odd", "SIGNUP (CREATE user CONTENT { email: 'odd', odd: $⟨odd-name⟩, spaced: $`with space`, tick: $`odd-name` })")],
      skipCompare: "KNOWN DIFFERENCE: SurrealDB parses $⟨odd-name⟩ / $`with space` (escaped parameter names); surql-auth answers Parse error: Unexpected token `$`, expected an expression",
    },
    {
      method: "signup",
      params: [cred("odd", { "odd-name": "o", "with space": "s" })],
      skipCompare: "KNOWN DIFFERENCE: follows the escaped-parameter parse error (SurrealDB signs up; surql-auth: the scope / access method does not exist)",
    },
    {
      method: "query",
      params: ["SELECT odd, spaced, tick FROM user WHERE email = 'odd'"],
      skipCompare: "KNOWN DIFFERENCE: follows the escaped-parameter parse error",
    },
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: "pw-ann" })] },
    { method: "query", params: ["SELECT email FROM user; RETURN $auth"] },
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: "wrong" })] },
    // a credential of the wrong type makes the clause fail only when the email matched: stricter, answered as no record
    { method: "signin", params: [cred("acc", { email: "ann@example.com" })], ...clauseErrorAsNoRecord(v) },
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: 5 })], ...clauseErrorAsNoRecord(v) },
    { method: "signin", params: [cred("acc", { email: "ghost@example.com", password: 5 })] },
    // the failed signins leave the session as it was
    { method: "query", params: ["RETURN $auth"] },
    // reserved / protected keys
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: "pw-ann", auth: "x" })] },
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: "pw-ann", token: "x" })] },
    { method: "signin", params: [cred("acc", { email: "ann@example.com", password: "pw-ann", session: "x" })] },
    ...(["scope", "access"] as const).map((name) => ({
      method: "signin",
      params: [cred("acc", { email: "ann@example.com", password: "pw-ann", [name]: "x" })],
      ...((v === 1) === (name === "access") && {
        skipCompare: `KNOWN DIFFERENCE: surql-auth refuses the other version's identity name ($${name}) as protected (SurrealDB ${v === 1 ? "1.5.4" : "2.6.0"} signs in); exec/protected.ts`,
      }),
    })),
    { method: "signup", params: [cred("acc", { email: "dee@example.com", password: "x", auth: "x" })] },
    { method: "signup", params: [cred("acc", { email: "dee@example.com", password: "x", token: "x" })] },
    // clause outcomes
    { method: "signin", params: [cred("zero")] },
    { method: "signup", params: [cred("zero")] },
    { method: "signin", params: [cred("two")] },
    { method: "signup", params: [cred("two")] },
    { method: "signin", params: [cred("scalar")] },
    { method: "signup", params: [cred("scalar")] },
    { method: "signin", params: [cred("noid")] },
    { method: "signup", params: [cred("noid")] },
    { method: "signin", params: [cred("obj")] },
    { method: "query", params: ["RETURN $auth"] },
    { method: "signup", params: [cred("obj")] },
    { method: "query", params: ["RETURN $auth; SELECT * FROM user"] },
    { method: "signin", params: [cred("nested")] },
    { method: "signup", params: [cred("nested")] },
    { method: "signin", params: [cred("thrower", { email: "e@x" })] },
    { method: "signup", params: [cred("thrower")] },
    { method: "signup", params: [cred("blocks", { email: "blk@example.com", n: 1 })] },
    { method: "signup", params: [cred("blocks", { email: "not-an-email", n: 2 })] },
    { method: "signin", params: [cred("blocks", { email: "blk@example.com" })] },
    { method: "signin", params: [cred("broken")], ...clauseErrorAsNoRecord(v) },
    { method: "signup", params: [cred("broken")] },
    // definitions without a clause, missing definitions, missing targets
    { method: "signin", params: [cred("uponly", { email: "x" })] },
    { method: "signup", params: [cred("inonly", { email: "x" })] },
    { method: "signin", params: [cred("empty")] },
    { method: "signup", params: [cred("empty")] },
    { method: "signin", params: [cred("nope")] },
    { method: "signup", params: [cred("nope")] },
    { method: "signin", params: [{ NS: "test", DB: "other", [K]: "acc", email: "ann@example.com", password: "pw-ann" }] },
    { method: "signup", params: [{ NS: "test", [K]: "acc", email: "x" }] },
    { method: "signup", params: [{ [K]: "acc", email: "x" }] },
    { method: "signup", params: [{ NS: "test", DB: "test", email: "x" }] },
    { method: "signup", params: [{ user: "root", pass: "root" }] },
    { method: "signup", params: [{}] },
    { method: "signin", params: [{ ns: "test", db: "test", [K.toLowerCase()]: "acc", email: "ann@example.com", password: "pw-ann" }] },
    { method: "query", params: ["RETURN $auth"] },
    // the other variant's key is an ordinary variable
    { method: "signin", params: [{ NS: "test", DB: "test", [v === 1 ? "AC" : "SC"]: "acc", email: "ann@example.com", password: "pw-ann" }] },
    { method: "query", params: ["RETURN $auth"] },
  ];
}

/** v2 only: AUTHENTICATE clauses on record access, and a JWT access used for signin / signup. */
export const accessClausesV2: readonly Step[] = [
  root,
  { method: "use", params: ["test", "test"] },
  {
    method: "query",
    params: [
      `DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
       CREATE user:ann SET email = 'ann@example.com', banned = false;
       CREATE user:ban SET email = 'ban@example.com', banned = true;
       CREATE user:alt SET email = 'alt@example.com';
       DEFINE ACCESS guarded ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email)
         AUTHENTICATE { IF $auth.banned { THROW 'banned: ' + <string> $auth }; RETURN $auth };
       DEFINE ACCESS swap ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) AUTHENTICATE (RETURN user:alt);
       DEFINE ACCESS nothing ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) AUTHENTICATE (RETURN NONE);
       DEFINE ACCESS scalar ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) AUTHENTICATE (RETURN 1);
       DEFINE ACCESS seetoken ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) AUTHENTICATE { IF $token.AC != 'seetoken' { THROW 'odd token' }; RETURN $auth };
       DEFINE ACCESS jw ON DATABASE TYPE JWT ALGORITHM HS256 KEY 'jw-secret';
       DEFINE ACCESS rec_verify ON DATABASE TYPE RECORD WITH JWT ALGORITHM HS256 KEY 'k' ;
       DEFINE ACCESS rec384 ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) WITH JWT ALGORITHM HS384 KEY 'rec-key' DURATION FOR TOKEN 2m;
       INFO FOR DB;`,
    ],
  },
  { method: "invalidate" },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "guarded", email: "ann@example.com" }] },
  { method: "query", params: ["RETURN [$auth, $access, $token.ID]"] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "guarded", email: "ban@example.com" }] },
  { method: "query", params: ["RETURN [$auth, $access]"] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "swap", email: "ann@example.com" }] },
  { method: "query", params: ["RETURN [$auth, $token.ID, session::rd()]; SELECT email FROM user"] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "nothing", email: "ann@example.com" }] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "scalar", email: "ann@example.com" }] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "seetoken", email: "ann@example.com" }] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "jw", email: "ann@example.com" }] },
  { method: "signup", params: [{ NS: "test", DB: "test", AC: "jw", email: "ann@example.com" }] },
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "rec_verify", email: "ann@example.com" }] },
  { method: "query", params: ["RETURN [$auth, $access]"] },
  // a record access with its own algorithm and key: it issues HS384 tokens, and accepts record tokens signed elsewhere with that key
  { method: "signin", params: [{ NS: "test", DB: "test", AC: "rec384", email: "alt@example.com" }] },
  { method: "invalidate" },
  { method: "authenticate", params: [{ $result: 18 }] },
  { method: "query", params: ["RETURN [$auth, $access]; SELECT email FROM user"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS384", key: "rec-key", claims: { NS: "test", DB: "test", AC: "rec384", ID: "user:ann", exp: "now+60", extra: "x" } } }] },
  { method: "query", params: ["RETURN [$auth, $access, $token.extra]; SELECT email FROM user"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "rec_verify", ID: "user:⟨odd id⟩", exp: "now+60" } } }] },
  { method: "query", params: ["RETURN [$auth, $access]"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "rec_verify", ID: "user:`tick`", exp: "now+60" } } }] },
  { method: "query", params: ["RETURN [$auth, $access]"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "rec_verify", ID: "user:1", exp: "now+60" } } }] },
  { method: "query", params: ["RETURN [$auth, $access]"] },
  {
    method: "authenticate",
    params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "rec_verify", ID: "not a record", exp: "now+60" } } }],
    skipCompare: "KNOWN DIFFERENCE: record-id parse error for ID 'not a record': SurrealDB 'Unexpected token `an identifier`, expected :' ; surql-auth '… expected Eof' (same position)",
  },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "jw", ID: "user:ann", exp: "now+60" } } }] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "k", claims: { NS: "test", DB: "test", AC: "rec_verify", exp: "now+60" } } }] },
];
