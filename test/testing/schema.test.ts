// readSchema: the tables, fields, params, functions and record access methods a schema text defines, in its ns / db.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { targetOf } from "../../src/testing/attacks.js";
import { readSchema } from "../../src/testing/schema.js";

describe("readSchema", () => {
  it("reads both example schemas' users table and record access, with the variables SIGNUP reads", () => {
    for (const file of ["examples/schema-v2.surql", "examples/schema-v1.surql"]) {
      const s = readSchema(readFileSync(file, "utf8"));
      expect(s.tables.map((t) => [t.ns, t.db, t.name, t.schemafull, t.fields.map((f) => f.path)])).toEqual([["app", "app", "user", true, ["name", "email", "password"]]]);
      expect(s.tables[0]!.fields[1]!.assert).toBe("string::is::email($value)");
      expect(s.accesses.map((a) => [a.name, a.ns, a.db, a.table, a.signupVars])).toEqual([
        ["account", "app", "app", "user", [{ name: "name", field: "name" }, { name: "email", field: "email" }, { name: "password", field: undefined }]],
      ]);
    }
  });

  it("leaves DEFINE PARAMs and system variables out of the signup variables; reads params, functions, relations and escaped names", () => {
    const s = readSchema(`USE NS n DB d;
      DEFINE PARAM $default_role VALUE 'user';
      DEFINE FUNCTION fn::owns($a: record, $b: record) { RETURN $a = $b };
      DEFINE TABLE likes TYPE RELATION FROM user TO post;
      DEFINE FIELD \`info\`.secret ON profile TYPE string;
      DEFINE FIELD owner ON profile TYPE option<record<user>>;
      DEFINE TABLE user SCHEMAFULL; DEFINE FIELD role ON user TYPE string; DEFINE FIELD name ON user TYPE string;
      DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user CONTENT { name: $name, role: $default_role, at: $session.ip });`);
    expect(s.accesses[0]!.signupVars).toEqual([{ name: "name", field: "name" }]);
    expect(s.params).toEqual([{ ns: "n", db: "d", name: "default_role" }]);
    expect(s.functions).toEqual([{ ns: "n", db: "d", name: "owns", args: 2 }]);
    expect(s.tables.find((t) => t.name === "likes")!.relation).toEqual({ from: ["user"], to: ["post"] });
    expect(s.tables.find((t) => t.name === "profile")!.fields.map((f) => f.path)).toEqual(["info.secret", "owner"]);
    // what the attacker aims at: owner fields to take over, and the user's own fields SIGNUP leaves unset
    const t = targetOf(s, s.accesses[0]!, 2);
    expect(t.tables.find((tb) => tb.name === "profile")).toMatchObject({ fields: ["info", "owner"], owners: ["owner"] });
    expect(t.escalations).toEqual(["role"]);
    expect(t.params).toEqual(["default_role"]);
  });
});
