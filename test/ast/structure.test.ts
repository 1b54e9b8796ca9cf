// INFO FOR … STRUCTURE objects; expected values copied from SurrealDB 2.6.0 / 1.5.4 (`--typed` oracle output).
import { describe, expect, it } from "vitest";
import type { DefineStatement } from "../../src/ast/nodes.js";
import { structureOf } from "../../src/ast/structure.js";
import type { Value } from "../../src/value/types.js";
import {
  FULL_P,
  NONE_P,
  allPerms,
  basic,
  bin,
  block,
  call,
  defineAccess,
  defineField,
  defineTable,
  defineUser,
  dur,
  hsJwt,
  idiom,
  int,
  lit,
  param,
  record,
  select,
  sub,
  table,
  where,
} from "./build.js";

const base = { ifNotExists: false, overwrite: false, comment: undefined } as const;
const R = "[REDACTED]";

type Case = readonly [name: string, def: DefineStatement, compat: 1 | 2, expected: Value];

const u1 = defineUser("u1", { passhash: "h1", roles: ["OWNER", "EDITOR"], duration: { token: dur(7200), session: dur(86400) }, comment: "hi" });
const scope = defineAccess("s", record({ signin: sub(select("user")) }), {
  duration: { session: dur(7200) },
  legacy: { kind: "Scope", session: dur(7200) },
  comment: "sc",
});
const token = defineAccess("tk", { kind: "Jwt", jwt: hsJwt("sec", "HS256") }, { legacy: { kind: "Token", on: "DATABASE", scope: undefined, type: "HS256", value: "sec" } });
const defaultJwtRedacted = { verify: { alg: "HS512", key: R }, issuer: { alg: "HS512", key: R } };

const cases: Case[] = [
  [
    "user 2.x",
    u1,
    2,
    { name: "u1", base: "DATABASE", hash: "h1", roles: ["OWNER", "EDITOR"], duration: { token: dur(7200), session: dur(86400) }, comment: "hi" },
  ],
  ["user 2.x defaults: session NONE", defineUser("u2", { base: "ROOT", passhash: "x" }), 2, { name: "u2", base: "ROOT", hash: "x", roles: ["VIEWER"], duration: { token: dur(3600), session: undefined } }],
  [
    "user roles as written (default spelled Viewer)",
    defineUser("u", { passhash: "x", rolesAsWritten: ["Viewer"] }),
    1,
    { name: "u", base: "DATABASE", passhash: "x", roles: ["Viewer"] },
  ],
  [
    "user roles as written (2.x)",
    defineUser("u2", { base: "ROOT", passhash: "x", roles: ["EDITOR", "OWNER"], rolesAsWritten: ["editor", "Owner"] }),
    2,
    { name: "u2", base: "ROOT", hash: "x", roles: ["editor", "Owner"], duration: { token: dur(3600), session: undefined } },
  ],
  [
    "token ON SCOPE in 1.x",
    defineAccess("tk4", record({ jwt: { verify: { kind: "Key", alg: "HS384", key: "y" }, issuer: undefined } }), {
      legacy: { kind: "Token", on: "SCOPE", scope: "sc1", type: "HS384", value: "y" },
    }),
    1,
    { name: "tk4", base: "SCOPE sc1", kind: "HS384", code: "y" },
  ],
  ["user 1.x", u1, 1, { name: "u1", base: "DATABASE", passhash: "h1", roles: ["OWNER", "EDITOR"], comment: "hi" }],
  [
    "JWT access with public key and issuer",
    defineAccess("a2", { kind: "Jwt", jwt: { verify: { kind: "Key", alg: "RS256", key: "pub" }, issuer: { alg: "RS256", key: "priv" } } }, {
      authenticate: idiom("$token.x"),
      duration: { token: dur(7200), session: dur(10800) },
      comment: "c",
    }),
    2,
    {
      name: "a2",
      base: "DATABASE",
      authenticate: "$token.x",
      comment: "c",
      duration: { token: dur(7200), session: dur(10800) },
      kind: { kind: "JWT", jwt: { verify: { alg: "RS256", key: "pub" }, issuer: { alg: "RS256", key: R } } },
    },
  ],
  [
    "JWT access with URL",
    defineAccess("r2", { kind: "Jwt", jwt: { verify: { kind: "Jwks", url: "http://x" }, issuer: undefined } }),
    2,
    { name: "r2", base: "DATABASE", duration: { session: undefined }, kind: { kind: "JWT", jwt: { verify: { url: "http://x" } } } },
  ],
  [
    "record access with SIGNUP block",
    defineAccess("r", record({ signup: block({ kind: "Create", only: false, what: [table("user")], data: undefined, output: undefined, timeout: undefined, parallel: false }), jwt: hsJwt("k", "HS256") })),
    2,
    {
      name: "r",
      base: "DATABASE",
      duration: { token: dur(3600), session: undefined },
      kind: { kind: "RECORD", signup: "{ CREATE user; }", jwt: { verify: { alg: "HS256", key: R }, issuer: { alg: "HS256", key: R } } },
    },
  ],
  [
    "scope in 2.x",
    scope,
    2,
    { name: "s", base: "DATABASE", comment: "sc", duration: { token: dur(3600), session: dur(7200) }, kind: { kind: "RECORD", signin: "(SELECT * FROM user)", jwt: defaultJwtRedacted } },
  ],
  ["scope in 1.x", scope, 1, { name: "s", duration: dur(7200), signin: "(SELECT * FROM user)", comment: "sc" }],
  ["token in 2.x", token, 2, { name: "tk", base: "DATABASE", duration: { session: undefined }, kind: { kind: "JWT", jwt: { verify: { alg: "HS256", key: R } } } }],
  ["token in 1.x", token, 1, { name: "tk", base: "DATABASE", kind: "HS256", code: "sec" }],
  [
    "relation table",
    defineTable("t3", {
      schemafull: true,
      tableType: { kind: "Relation", from: ["user"], to: ["post", "comment"], enforced: true },
      changefeed: { expiry: dur(86400), includeOriginal: true },
      permissions: { ...allPerms(NONE_P), select: where(bin(idiom("a"), "=", int(1))), create: FULL_P },
      comment: "rel",
    }),
    2,
    {
      name: "t3",
      drop: false,
      full: true,
      kind: { kind: "RELATION", enforced: true, in: ["user"], out: ["post", "comment"] },
      changefeed: { expiry: "1d", original: true },
      permissions: { select: "a = 1", create: true, update: false, delete: false },
      comment: "rel",
    },
  ],
  [
    "view table",
    defineTable("t4", {
      drop: true,
      view: select("t3", { fields: { value: false, items: [{ kind: "Single", expr: call("count"), alias: idiom("n") }] }, group: { all: true, fields: [] } }),
    }),
    2,
    {
      name: "t4",
      drop: true,
      full: false,
      kind: { kind: "ANY" },
      view: "AS SELECT count() AS n FROM t3 GROUP ALL",
      permissions: { select: false, create: false, update: false, delete: false },
    },
  ],
  [
    "relation table without IN / OUT",
    defineTable("t5", { tableType: { kind: "Relation", from: [], to: [], enforced: false } }),
    2,
    { name: "t5", drop: false, full: false, kind: { kind: "RELATION", enforced: false }, permissions: { select: false, create: false, update: false, delete: false } },
  ],
  [
    "field",
    defineField(idiom("f1"), "t3", {
      flexible: true,
      type: { kind: "Option", inner: basic("object") },
      readonly: true,
      value: bin(param("value"), "||", { kind: "Object", entries: [] }),
      assert: bin(param("value"), "!=", lit(undefined)),
      default: int(1),
      permissions: { ...allPerms(FULL_P), select: NONE_P, update: where(bin(idiom("$auth.id"), "=", idiom("id"))) },
      comment: "c",
    }),
    2,
    {
      name: "f1",
      what: "t3",
      flex: true,
      kind: "option<object>",
      readonly: true,
      value: "$value OR {  }",
      assert: "$value != NONE",
      default: "1",
      permissions: { select: false, create: true, update: "$auth.id = id", delete: true },
      comment: "c",
    },
  ],
  [
    "unique index 2.x",
    { kind: "DefineIndex", ...base, name: "i1", table: "t3", fields: [idiom("a"), idiom("b.c")], unique: true, comment: "ic" },
    2,
    { name: "i1", what: "t3", cols: "a, b.c", index: "UNIQUE", defer: false, comment: "ic" },
  ],
  ["index 1.x", { kind: "DefineIndex", ...base, name: "i2", table: "t3", fields: [idiom("a")], unique: false }, 1, { name: "i2", what: "t3", cols: "a", index: "" }],
  ["event", { kind: "DefineEvent", ...base, name: "e", table: "t3", when: lit(true), then: [block(int(1))] }, 2, { name: "e", what: "t3", when: "true", then: ["{ 1 }"] }],
  ["param", { kind: "DefineParam", ...base, name: "p", value: int(1), permissions: where(lit(true)), comment: "c" }, 2, { name: "p", value: "1", permissions: "true", comment: "c" }],
  [
    "function",
    {
      kind: "DefineFunction",
      ...base,
      name: "f",
      args: [{ name: "a", type: basic("int") }],
      body: block({ kind: "Return", value: param("a"), fetch: undefined }),
      returns: undefined,
      permissions: NONE_P,
      comment: "fc",
    },
    1,
    { name: "f", args: [["a", "int"]], block: "{ RETURN $a; }", permissions: false, comment: "fc" },
  ],
  ["analyzer", { kind: "DefineAnalyzer", ...base, name: "an", text: "TOKENIZERS blank FILTERS lowercase", comment: "ac" }, 2, { name: "an", tokenizers: ["BLANK"], filters: ["LOWERCASE"], comment: "ac" }],
  ["database", { kind: "DefineDatabase", ...base, name: "d2", changefeed: dur(3600), comment: "x" }, 2, { name: "d2", comment: "x" }],
];

describe("structureOf", () => {
  it.each(cases)("%s (v%i)", (_name, def, compat, expected) => {
    expect(structureOf(def, { compat, redact: true })).toStrictEqual(expected);
  });

  it("keeps keys unredacted when asked", () => {
    const s = structureOf(defineAccess("r", record({ jwt: hsJwt("k") })), { compat: 2 }) as { kind: { jwt: unknown } };
    expect(s.kind.jwt).toStrictEqual({ verify: { alg: "HS512", key: "k" }, issuer: { alg: "HS512", key: "k" } });
  });
});
