// Differential scenarios: system users on every level, RBAC, token authentication and expiry.

import type { Step } from "../harness/steps.js";

const root = { method: "signin", params: [{ user: "root", pass: "root" }] } as const;

/** System users: definitions, signin on each level, wrong credentials, roles (both variants). */
export const systemUsers: readonly Step[] = [
  root,
  { method: "use", params: ["test", "test"] },
  {
    method: "query",
    params: [
      `DEFINE USER owner ON ROOT PASSWORD 'o-pass' ROLES OWNER;
       DEFINE USER ed ON NAMESPACE PASSWORD 'e-pass' ROLES EDITOR;
       DEFINE USER viewer ON DATABASE PASSWORD 'v-pass' ROLES VIEWER;
       DEFINE USER nopass ON DATABASE;
       DEFINE TABLE item PERMISSIONS FULL;
       CREATE item:1 SET n = 1;`,
    ],
  },
  { method: "query", params: ["DEFINE USER bad ON DATABASE PASSWORD 'x' ROLES NOBODY"], skipCompare: "parse error text differs per version; compared in grammar tests" },
  { method: "signin", params: [{ user: "owner", pass: "o-pass" }] },
  { method: "signin", params: [{ user: "owner", pass: "wrong" }] },
  { method: "signin", params: [{ NS: "test", user: "ed", pass: "e-pass" }] },
  { method: "query", params: ["SELECT * FROM item; DEFINE TABLE other; DEFINE USER x ON DATABASE PASSWORD 'x'"] },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "viewer", pass: "v-pass" }] },
  { method: "query", params: ["SELECT * FROM item; CREATE item:2; DEFINE TABLE third; INFO FOR DB"], skipCompare: "INFO FOR DB shows generated hashes" },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "viewer", pass: "nope" }] },
  { method: "signin", params: [{ NS: "test", user: "viewer", pass: "v-pass" }] },
  {
    method: "signin",
    params: [{ NS: "test", DB: "test", user: "nopass", pass: "x" }],
    surrealPanics: "2.6.x panics verifying a user defined without PASSWORD (empty hash); surql-auth fails with InvalidAuth",
    oursExpected: { error: "There was a problem with the database: There was a problem with authentication" },
  },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "viewer" }] },
  { method: "signin", params: [{ DB: "test", user: "viewer", pass: "v-pass" }] },
  { method: "signin", params: [{ user: "ghost", pass: "x" }] },
];

/** Tokens from a third party (DEFINE ACCESS … TYPE JWT, 2.x) and SurrealDB-issued ones (2.x only: the 1.5.4 wasm build cannot authenticate). */
export const tokensV2: readonly Step[] = [
  root,
  { method: "use", params: ["test", "test"] },
  {
    method: "query",
    params: [
      `DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'a-long-shared-secret-for-hs512';
       DEFINE USER viewer ON DATABASE PASSWORD 'v-pass' ROLES VIEWER;
       DEFINE TABLE item PERMISSIONS FOR select WHERE $token.tenant = 'acme';
       CREATE item:1 SET n = 1;`,
    ],
  },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "viewer", pass: "v-pass" }] },
  { method: "invalidate" },
  { method: "authenticate", params: [{ $result: 4 }] },
  { method: "query", params: ["RETURN [$auth, $access, session::ns(), session::db(), $token.ID]"] },
  {
    method: "authenticate",
    params: [{ $jwt: { alg: "HS512", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "api", tenant: "acme", exp: "now+3600" } } }],
  },
  { method: "query", params: ["SELECT * FROM item; RETURN [$access, $token.tenant, $token.AC]"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS512", key: "wrong-key", claims: { NS: "test", DB: "test", AC: "api", exp: "now+3600" } } }] },
  { method: "query", params: ["RETURN $access"] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS512", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "api", exp: "now-120" } } }] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS512", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "api" } } }] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS512", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "api", nbf: "now+600", exp: "now+3600" } } }] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS256", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "api", exp: "now+3600" } } }] },
  { method: "authenticate", params: [{ $jwt: { alg: "HS512", key: "a-long-shared-secret-for-hs512", claims: { NS: "test", DB: "test", AC: "nope", exp: "now+3600" } } }] },
  { method: "authenticate", params: ["not.a.token"] },
];

/** Session expiry with DURATION FOR SESSION (2.x): expired sessions refuse queries; signin on the same connection revives them. */
export const expiryV2: readonly Step[] = [
  root,
  { method: "use", params: ["test", "test"] },
  { method: "query", params: ["DEFINE USER brief ON DATABASE PASSWORD 'b' ROLES VIEWER DURATION FOR SESSION 1s"] },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "brief", pass: "b" }] },
  { method: "query", params: ["RETURN 1"] },
  { method: "sleep", params: [2100] },
  { method: "query", params: ["RETURN 2"] },
  { method: "use", params: ["test", "test"] },
  { method: "signin", params: [{ NS: "test", DB: "test", user: "brief", pass: "b" }] },
  { method: "query", params: ["RETURN 3"] },
];
