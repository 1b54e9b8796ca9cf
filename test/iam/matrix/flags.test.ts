import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { secretNamed } from "../../../src/iam/matrix/flags.js";
import type { FlagRule, Matrix } from "../../../src/iam/matrix/types.js";
import { inApp, matrixOf } from "./helpers.js";

const ACCESS = {
  2: "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET name = $name) SIGNIN (SELECT * FROM user WHERE name = $name);",
  1: "DEFINE SCOPE account SIGNUP (CREATE user SET name = $name) SIGNIN (SELECT * FROM user WHERE name = $name);",
} as const;

/** A schema that trips none of the flags. */
const CLEAN = `DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update WHERE id = $auth.id;
DEFINE FIELD name ON user TYPE string;
DEFINE FIELD password ON user TYPE string PERMISSIONS FOR select NONE;
DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select WHERE published = true OR author = $auth, FOR create, update, delete WHERE author = $auth;
DEFINE FIELD author ON post TYPE record<user>;
DEFINE FIELD published ON post TYPE bool;`;

const of = (m: Matrix, rule: FlagRule) => m.flags.filter((f) => f.rule === rule);

describe("risky rules: a clean schema", () => {
  for (const compat of [1, 2] as const) {
    it(`compat ${compat}: no flag`, async () => {
      expect((await matrixOf(inApp(`${ACCESS[compat]}\n${CLEAN}`), compat)).flags).toEqual([]);
    });
  }
});

describe("risky rules: each fires on a planted schema", () => {
  for (const compat of [1, 2] as const) {
    it(`compat ${compat}: a table FULL for record users`, async () => {
      const m = await matrixOf(inApp(`${ACCESS[compat]}\n${CLEAN}\nDEFINE TABLE log PERMISSIONS FOR create FULL;\nDEFINE TABLE open PERMISSIONS FULL;\nDEFINE TABLE gated PERMISSIONS FOR select WHERE ${compat === 2 ? "$access" : "$scope"} = 'account';`), compat);
      const flags = of(m, "full-table");
      expect(flags.map((f) => [f.table, f.severity])).toEqual([
        ["log", "medium"],
        ["open", "high"],
        ["gated", "high"],
      ]);
      expect(flags[1]!.why).toContain("select, create, update, delete allowed on every record");
      expect(flags[1]!.why).toContain("users of account and guests");
      expect(flags[2]!.why).toContain("users of account (WHERE");
    });

    it(`compat ${compat}: a secret-named field record users can read`, async () => {
      const m = await matrixOf(inApp(`${ACCESS[compat]}\n${CLEAN}\nDEFINE FIELD api_key ON user TYPE string;\nDEFINE FIELD refreshToken ON user TYPE string PERMISSIONS FOR select WHERE false;\nDEFINE TABLE pub PERMISSIONS FOR select FULL;\nDEFINE FIELD passHash ON pub TYPE string;`), compat);
      const flags = of(m, "secret-field");
      expect(flags.map((f) => [f.table, f.field, f.severity])).toEqual([
        ["user", "api_key", "medium"],
        ["pub", "passHash", "high"],
      ]);
      expect(flags[0]!.why).toContain("where id = $auth.id");
    });

    it(`compat ${compat}: a select rule on a record-user table that ignores who asks`, async () => {
      const m = await matrixOf(
        inApp(`${ACCESS[compat]}\n${CLEAN}
DEFINE FUNCTION fn::mine($r: record) { RETURN $r.author = $auth; };
DEFINE TABLE note PERMISSIONS FOR select WHERE archived = false;
DEFINE TABLE mine PERMISSIONS FOR select WHERE fn::mine($this.id);
DEFINE TABLE tok PERMISSIONS FOR select WHERE $token.admin = true;`),
        compat,
      );
      expect(of(m, "select-ignores-identity").map((f) => f.table)).toEqual(["note"]);
      // without record users there is no record-user table
      const bare = await matrixOf(inApp("DEFINE TABLE note PERMISSIONS FOR select WHERE archived = false;"), compat);
      expect(of(bare, "select-ignores-identity")).toEqual([]);
    });

    it(`compat ${compat}: a rule naming a field the table does not define (#2757)`, async () => {
      const m = await matrixOf(
        inApp(`${ACCESS[compat]}\n${CLEAN}
DEFINE TABLE doc SCHEMAFULL PERMISSIONS FOR select WHERE ownr = $auth.id AND (SELECT * FROM user WHERE nme = 'x'), FOR update WHERE $this.editor = $auth;
DEFINE FIELD owner ON doc TYPE record<user>;
DEFINE FIELD tags ON doc TYPE array<object> PERMISSIONS FOR select WHERE tags[WHERE kind = 'x'] AND colour = 'red';
DEFINE TABLE loose PERMISSIONS FOR select WHERE authr = $auth;
DEFINE FIELD author ON loose TYPE record<user>;
DEFINE TABLE bare PERMISSIONS FOR select WHERE whatever = $auth;`),
        compat,
      );
      const flags = of(m, "undefined-field");
      expect(flags.map((f) => [f.table, f.field ?? "", f.severity, /`(\w+)`/.exec(f.why)![1]])).toEqual([
        ["doc", "", "high", "ownr"],
        ["doc", "", "high", "editor"],
        ["doc", "tags", "high", "colour"],
        ["loose", "", "low", "authr"],
      ]);
      expect(flags[3]!.why).toContain("SCHEMALESS");
    });

    it(`compat ${compat}: a SIGNIN whose record its own user cannot select (#7464)`, async () => {
      const signin = (table: string) =>
        compat === 2 ? `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM ${table} WHERE name = $name);` : `DEFINE SCOPE account SIGNIN (SELECT * FROM ${table} WHERE name = $name);`;
      const v = compat === 2 ? "$access" : "$scope";
      const m = await matrixOf(
        inApp(`${signin("user")}
DEFINE TABLE user PERMISSIONS FOR select WHERE ${v} = 'other', FOR update WHERE id = $auth.id;`),
        compat,
      );
      expect(of(m, "signin-unreadable").map((f) => [f.access, f.table, f.severity])).toEqual([["account", "user", "high"]]);
      expect(of(m, "signin-unreadable")[0]!.why).toContain("#7464");
      const none = await matrixOf(inApp(`${signin("user")}\nDEFINE TABLE user;`), compat);
      expect(of(none, "signin-unreadable")).toHaveLength(1);
      if (compat === 2) {
        // AUTHENTICATE may hand the session another record: no flag
        const other = await matrixOf(inApp(`${signin("user").replace(";", " AUTHENTICATE (SELECT VALUE id FROM profile WHERE user = $auth)[0];")}\nDEFINE TABLE user;`), compat);
        expect(of(other, "signin-unreadable")).toEqual([]);
      }
      // its own record: `id = $auth` / `id = $auth.id` hold there
      for (const rule of ["id = $auth", "id = $auth.id", "$auth.id = id AND $auth != NONE"]) {
        const ok = await matrixOf(inApp(`${signin("user")}\nDEFINE TABLE user PERMISSIONS FOR select WHERE ${rule};`), compat);
        expect(of(ok, "signin-unreadable"), rule).toEqual([]);
      }
    });
  }

  it("the secret-name test", () => {
    for (const yes of ["password", "pass", "passwordHash", "api_key", "apiKey", "refresh_token", "accessToken", "client-secret", "salt", "credentials.password", "totp_secret", "accesstoken", "sessionTokens"]) expect(secretNamed(yes), yes).toBe(true);
    for (const no of ["name", "email", "keyboard", "monkey", "passenger", "hashtags", "tokenizer_name", "secretary"]) expect(secretNamed(no), no).toBe(false);
  });

  it("the example schemas: the owner may read their own password hash", async () => {
    for (const [compat, file] of [
      [2, "examples/schema-v2.surql"],
      [1, "examples/schema-v1.surql"],
    ] as const) {
      const m = await matrixOf(await readFile(file, "utf8"), compat);
      expect(m.flags.map((f) => [f.rule, f.table, f.field, f.severity])).toEqual([["secret-field", "user", "password", "medium"]]);
    }
  });
});
