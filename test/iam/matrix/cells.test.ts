import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { inApp, matrixOf, row, short, cell } from "./helpers.js";

const OWNER_ROW = { select: "always", create: "always", update: "always", delete: "always" };

describe("access matrix cells: the example schemas", () => {
  for (const [compat, file, recordId] of [
    [2, "examples/schema-v2.surql", "access:account"],
    [1, "examples/schema-v1.surql", "scope:account"],
  ] as const) {
    it(`compat ${compat}: every identity kind of ${file}`, async () => {
      const m = await matrixOf(await readFile(file, "utf8"), compat);
      const d = m.databases[0]!;
      expect([d.ns, d.db]).toEqual(["app", "app"]);
      expect(d.identities.map((i) => i.id)).toEqual([
        "root:OWNER", "namespace:OWNER", "database:OWNER",
        "root:EDITOR", "namespace:EDITOR", "database:EDITOR",
        "root:VIEWER", "namespace:VIEWER", "database:VIEWER",
        recordId, "anonymous",
      ]);
      expect(d.identities.find((i) => i.id === "root:OWNER")).toMatchObject({ users: ["admin"] });
      expect(d.identities.find((i) => i.id === "namespace:EDITOR")).toMatchObject({ users: ["ops"] });
      expect(d.identities.find((i) => i.id === "database:VIEWER")).toMatchObject({ users: ["reader"] });
      // system users bypass the rules, a VIEWER only for reads: its writes meet `id = $auth.id` with $auth NONE
      for (const level of ["root", "namespace", "database"]) {
        expect(row(m, "user", `${level}:OWNER`)).toEqual(OWNER_ROW);
        expect(row(m, "user", `${level}:EDITOR`)).toEqual(OWNER_ROW);
        expect(row(m, "user", `${level}:VIEWER`)).toEqual({ select: "always", create: "never", update: "never*", delete: "never*" });
      }
      expect(row(m, "user", recordId)).toEqual({ select: "id = $auth.id", create: "never", update: "id = $auth.id", delete: "id = $auth.id" });
      expect(row(m, "user", "anonymous")).toEqual({ select: "never*", create: "never", update: "never*", delete: "never*" });
      // a FULL field is reachable where its table is; fields have no delete rule
      expect(row(m, "user.password", recordId)).toEqual({ select: "id = $auth.id", create: "never", update: "id = $auth.id", delete: "n/a" });
      expect(d.tables[0]!.rules).toEqual({ select: "WHERE id = $auth.id", create: "NONE", update: "WHERE id = $auth.id", delete: "WHERE id = $auth.id" });
      expect(d.notes[0]).toContain("api");
    });
  }
});

describe("access matrix cells: WHERE clauses decided per identity", () => {
  it("$access / $scope decides for each access, and guests and system users have none", async () => {
    for (const [compat, v, define] of [
      [2, "$access", (n: string) => `DEFINE ACCESS ${n} ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE name = $name);`],
      [1, "$scope", (n: string) => `DEFINE SCOPE ${n} SIGNIN (SELECT * FROM user WHERE name = $name);`],
    ] as const) {
      const m = await matrixOf(inApp(`${define("admin")}\n${define("member")}\nDEFINE TABLE t PERMISSIONS FOR select, update WHERE ${v} = 'admin', FOR create WHERE ${v} IN ['admin', 'member'], FOR delete WHERE ${v} != NONE;`), compat);
      const [admin, member] = compat === 2 ? ["access:admin", "access:member"] : ["scope:admin", "scope:member"];
      expect(row(m, "t", admin)).toEqual({ select: "always*", create: "always*", update: "always*", delete: "always*" });
      expect(row(m, "t", member)).toEqual({ select: "never*", create: "always*", update: "never*", delete: "always*" });
      expect(row(m, "t", "anonymous")).toEqual({ select: "never*", create: "never*", update: "never*", delete: "never*" });
      expect(row(m, "t", "database:VIEWER")).toEqual({ select: "always", create: "never*", update: "never*", delete: "never*" });
    }
  });

  it("the name compat does not protect ($scope in 2.x, $access in 1.x) stays unknown: it may be a DEFINE PARAM", async () => {
    const m2 = await matrixOf(inApp("DEFINE TABLE t PERMISSIONS FOR select WHERE $scope = 'x';"), 2);
    expect(short(cell(m2, "t", "anonymous", "select"))).toBe("$scope = 'x'");
    const m1 = await matrixOf(inApp("DEFINE TABLE t PERMISSIONS FOR select WHERE $access = 'x';"), 1);
    expect(short(cell(m1, "t", "anonymous", "select"))).toBe("$access = 'x'");
  });

  it("a guest's $auth is NONE: `id = $auth.id` never holds, but a stored field may be NONE too, so `owner = $auth.id` stays", async () => {
    const m = await matrixOf(inApp("DEFINE ACCESS a ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user);\nDEFINE TABLE t PERMISSIONS FOR select WHERE owner = $auth.id, FOR update WHERE id = $auth.id, FOR create WHERE $auth, FOR delete WHERE $session.rd = NONE;"));
    expect(row(m, "t", "anonymous")).toEqual({ select: "owner = $auth.id", create: "never*", update: "never*", delete: "always*" });
    expect(row(m, "t", "access:a")).toEqual({ select: "owner = $auth.id", create: "always*", update: "id = $auth.id", delete: "never*" });
  });

  it("an OR whose left side is unknown stays conditional (it may throw); AND with a false side never holds", async () => {
    const m = await matrixOf(inApp("DEFINE TABLE t PERMISSIONS FOR select WHERE fn::x() OR true, FOR create WHERE true OR fn::x(), FOR update WHERE fn::x() AND $auth != NONE, FOR delete WHERE !($access = 'nope');"));
    expect(row(m, "t", "anonymous")).toEqual({ select: "fn::x() OR true", create: "always*", update: "never*", delete: "always*" });
  });

  it("a VIEWER's $access is unknown where a JWT access could name it", async () => {
    const text = "DEFINE TABLE t PERMISSIONS FOR create WHERE $access = 'api';";
    expect(short(cell(await matrixOf(inApp(text)), "t", "database:VIEWER", "create"))).toBe("never*");
    const m = await matrixOf(inApp(`DEFINE ACCESS api ON DATABASE TYPE JWT ALGORITHM HS512 KEY 'k';\n${text}`));
    expect(short(cell(m, "t", "database:VIEWER", "create"))).toBe("$access = 'api'");
  });
});

describe("access matrix cells: fields", () => {
  it("a field's cell combines its table's rule, its parents' and its own", async () => {
    const m = await matrixOf(
      inApp(`DEFINE ACCESS a ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user);
DEFINE TABLE t SCHEMAFULL PERMISSIONS FOR select WHERE owner = $auth, FOR create, update FULL;
DEFINE FIELD owner ON t TYPE record<user>;
DEFINE FIELD note ON t TYPE string PERMISSIONS FOR select WHERE published = true, FOR create NONE, FOR update WHERE $access = 'a';
DEFINE FIELD published ON t TYPE bool;
DEFINE FIELD meta ON t TYPE object PERMISSIONS FOR select NONE;
DEFINE FIELD meta.tag ON t TYPE string;`),
    );
    expect(row(m, "t.note", "access:a")).toEqual({ select: "owner = $auth & note: published = true", create: "never", update: "always*", delete: "n/a" });
    expect(row(m, "t.note", "anonymous")).toEqual({ select: "owner = $auth & note: published = true", create: "never", update: "never*", delete: "n/a" });
    expect(row(m, "t.meta.tag", "access:a")).toEqual({ select: "never", create: "always", update: "always", delete: "n/a" });
    // a VIEWER reads every field; its writes meet the rules
    expect(row(m, "t.note", "root:VIEWER")).toEqual({ select: "always", create: "never", update: "never*", delete: "n/a" });
    expect(m.databases[0]!.tables[0]!.fields.find((f) => f.name === "note")!.rules).toEqual({ select: "WHERE published = true", create: "NONE", update: "WHERE $access = 'a'", delete: "n/a" });
  });
});

describe("access matrix: namespaces and databases", () => {
  it("groups by ns/db in name order, each with its own identities, and filters", async () => {
    const text = `DEFINE USER boss ON ROOT PASSWORD 'p' ROLES OWNER;
USE NS b DB two; DEFINE TABLE x PERMISSIONS FULL; DEFINE USER v ON DATABASE PASSWORD 'p' ROLES VIEWER, EDITOR;
USE NS a DB one; DEFINE TABLE y; DEFINE ACCESS acc ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM y);`;
    const db = await (await import("../../../src/index.js")).SurqlAuth.open();
    await db.importText(text);
    const { accessMatrix } = await import("../../../src/iam/matrix/index.js");
    const m = accessMatrix(db.engine.catalog, { compat: 2 });
    expect(m.databases.map((d) => `${d.ns}/${d.db}`)).toEqual(["a/one", "b/two"]);
    expect(m.databases[0]!.identities.map((i) => i.id)).toContain("access:acc");
    expect(m.databases[1]!.identities.map((i) => i.id)).not.toContain("access:acc");
    expect(m.databases[1]!.identities.find((i) => i.id === "database:EDITOR")).toMatchObject({ users: ["v"] });
    expect(m.databases[1]!.identities.find((i) => i.id === "root:OWNER")).toMatchObject({ users: ["boss"] });
    expect(accessMatrix(db.engine.catalog, { compat: 2, ns: "b" }).databases.map((d) => d.db)).toEqual(["two"]);
    expect(accessMatrix(db.engine.catalog, { compat: 2, ns: "a", db: "two" }).databases).toEqual([]);
  });
});
