import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { Duration } from "../../src/value/types.js";
import { one, parseFails, strip } from "./helpers.js";

const sec = (n: bigint) => new Duration(n * 1_000_000_000n);

describe("control statements", () => {
  it("USE, LET with type, RETURN with FETCH, THROW, SLEEP, transactions", () => {
    expect(strip(one("USE NS test DB app", "Use"))).toEqual({ kind: "Use", ns: "test", db: "app" });
    expect(strip(one("use database app", "Use"))).toEqual({ kind: "Use", ns: undefined, db: "app" });
    expect(strip(one("LET $x: int = 1", "Let"))).toEqual({ kind: "Let", name: "x", type: { kind: "Basic", name: "int" }, value: { kind: "Literal", value: 1n } });
    expect(one("LET $x = SELECT * FROM user", "Let").value).toMatchObject({ kind: "Subquery", inner: { kind: "Select" } });
    expect(one("RETURN $a FETCH b, c", "Return").fetch).toHaveLength(2);
    expect(one("THROW 'nope'", "Throw").value).toMatchObject({ kind: "Literal", value: "nope" });
    expect(one("SLEEP 2s", "Sleep").duration).toEqual(sec(2n));
    expect(parse("BEGIN; BEGIN TRANSACTION; COMMIT; COMMIT TRANSACTION; CANCEL; CANCEL TRANSACTION").map((s) => s.kind)).toEqual(["Begin", "Begin", "Commit", "Commit", "Cancel", "Cancel"]);
  });
  it("USE stands only at the top of a query (also between BEGIN and COMMIT); nested, `use` is a field name (SurrealDB 1.5.4 / 2.6.0)", () => {
    expect(parse("BEGIN; USE NS a DB b; COMMIT").map((s) => s.kind)).toEqual(["Begin", "Use", "Commit"]);
    for (const nested of ["RETURN { USE NS a; 1 }", "RETURN (USE DB b)", "IF true { USE NS a }", "FOR $x IN [1] { USE DB b; }", "RETURN |$x| { USE NS a; 1 }", "DEFINE FIELD f ON t VALUE { USE DB o; 1 }", "DEFINE TABLE t PERMISSIONS FOR select WHERE (USE NS x)"]) {
      expect(parseFails(nested).message, nested).toMatch(/^Parse error: Unexpected token `(NAMESPACE|DATABASE)`/);
    }
    expect(one("RETURN { use; 1 }", "Return").value).toMatchObject({ kind: "Block", statements: [{ kind: "Expr" }, { kind: "Expr" }] });
  });
  it("IF … THEN … ELSE IF … ELSE … END and the block form", () => {
    const a = one("IF $a > 1 THEN 'a' ELSE IF $a < 0 THEN 'b' ELSE 'c' END", "If");
    expect([a.style, a.branches.length, a.otherwise?.kind]).toEqual(["Then", 2, "Literal"]);
    const b = one("IF $a { 1 } ELSE IF $b { 2; 3 } ELSE { 4 }", "If");
    expect([b.style, b.branches.length, b.branches[1].then.kind, b.otherwise?.kind]).toEqual(["Block", 2, "Block", "Block"]);
    expect(one("IF $a { 1 }", "If").otherwise).toBeUndefined();
    expect(one("IF $a THEN (CREATE x) END", "If").branches[0].then).toMatchObject({ kind: "Subquery" });
  });
  it("FOR with BREAK / CONTINUE inside a block", () => {
    const f = one("FOR $x IN [1, 2] { IF $x = 2 { BREAK; }; CONTINUE; CREATE t SET v = $x; }", "For");
    expect(f.param).toBe("x");
    expect(f.body.statements.map((s) => s.kind)).toEqual(["If", "Continue", "Create"]);
  });
  it("INFO FOR every target", () => {
    const i = (t: string) => strip(one(t, "Info"));
    expect(i("INFO FOR ROOT")).toEqual({ kind: "Info", target: "ROOT", name: undefined, base: undefined, table: undefined, structure: false });
    expect(i("INFO FOR KV").target).toBe("ROOT");
    expect(i("INFO FOR NS").target).toBe("NAMESPACE");
    expect(i("INFO FOR NAMESPACE").target).toBe("NAMESPACE");
    expect(i("INFO FOR DB STRUCTURE")).toMatchObject({ target: "DATABASE", structure: true });
    expect(i("INFO FOR TABLE user")).toMatchObject({ target: "TABLE", name: "user" });
    expect(i("INFO FOR USER u ON NS")).toMatchObject({ target: "USER", name: "u", base: "NAMESPACE" });
    expect(i("INFO FOR USER u")).toMatchObject({ target: "USER", base: undefined });
    expect(i("INFO FOR SCOPE s")).toMatchObject({ target: "SCOPE", name: "s" });
    expect(i("INFO FOR INDEX i ON user STRUCTURE")).toMatchObject({ target: "INDEX", name: "i", table: "user", structure: true });
  });
  it("OPTION statements: the option and its value (the executor gives them no result)", () => {
    expect(parse("OPTION IMPORT;")).toMatchObject([{ kind: "Option", name: "IMPORT", value: true }]);
    expect(parse("OPTION import = false; RETURN 1")).toMatchObject([{ kind: "Option", name: "IMPORT", value: false }, { kind: "Return" }]);
  });
  it("statement separators: empty statements and comments of every kind", () => {
    expect(parse("")).toEqual([]);
    expect(parse(";;")).toEqual([]);
    expect(parse("-- a\n# b\n// c\n/* d\n e */ RETURN 1;;\nRETURN 2 -- trailing").map((s) => s.kind)).toEqual(["Return", "Return"]);
  });
  it("statement positions are 1-based", () => {
    const [a, b] = parse("RETURN 1;\n  RETURN 2");
    expect(a.pos).toEqual({ line: 1, column: 1, offset: 0 });
    expect(b.pos).toEqual({ line: 2, column: 3, offset: 12 });
  });
});

describe("SELECT", () => {
  it("projections, VALUE, OMIT, ONLY, targets", () => {
    const s = one("SELECT *, name AS n, ->likes->person AS friends FROM ONLY user:1, user, $x, (SELECT * FROM a), [1, 2]", "Select");
    expect(s.fields.items.map((f) => f.kind)).toEqual(["All", "Single", "Single"]);
    expect(s.only).toBe(true);
    expect(s.what.map((w) => w.kind)).toEqual(["RecordId", "Table", "Param", "Subquery", "Array"]);
    const v = one("SELECT VALUE name FROM user", "Select");
    expect([v.fields.value, v.fields.items.length]).toEqual([true, 1]);
    // As in SurrealDB, `SELECT value FROM …` reads VALUE as the keyword (then `FROM` as the expression).
    expect(parseFails("SELECT value FROM user").message).toContain("Unexpected token `USER`, expected `FROM`");
    expect(one("SELECT `value` FROM user", "Select").fields.value).toBe(false);
    expect(one("SELECT * OMIT password, secret FROM user", "Select").omit).toHaveLength(2);
  });
  it("every clause", () => {
    const s = one("SELECT * FROM user WITH INDEX a, b WHERE age > 18 SPLIT ON tags GROUP BY name ORDER BY name COLLATE NUMERIC DESC, age LIMIT BY 10 START AT 2 FETCH friends VERSION d'2024-01-01T00:00:00Z' TIMEOUT 5s PARALLEL EXPLAIN FULL", "Select");
    expect(s.with).toEqual({ kind: "Index", names: ["a", "b"] });
    expect(s.cond?.kind).toBe("Binary");
    expect(s.split).toHaveLength(1);
    expect(s.group).toMatchObject({ all: false, fields: [{ kind: "Idiom" }] });
    expect(s.order).toMatchObject({ kind: "Fields", items: [{ direction: "DESC", collate: true, numeric: true }, { direction: "ASC", collate: false, numeric: false }] });
    expect([s.limit?.kind, s.start?.kind, s.fetch?.length, s.version?.kind, s.timeout, s.parallel, s.explain]).toEqual(["Literal", "Literal", 1, "Literal", sec(5n), true, { full: true }]);
    expect(one("SELECT * FROM user WITH NOINDEX ORDER BY RAND()", "Select")).toMatchObject({ with: { kind: "NoIndex" }, order: { kind: "Random" } });
    expect(one("SELECT count() FROM user GROUP ALL", "Select").group).toEqual({ all: true, fields: [] });
    expect(one("SELECT * FROM user START 1 LIMIT 2", "Select")).toMatchObject({ limit: { kind: "Literal", value: 2n }, start: { kind: "Literal", value: 1n } });
  });
  it("lower-case keywords and keyword-named fields", () => {
    const s = one("select value, type from user where user = $auth.id and session != none", "Select");
    expect(s.fields.items).toHaveLength(2);
    expect(s.what).toEqual([{ kind: "Table", name: "user", pos: s.what[0].pos }]);
  });
});

describe("write statements", () => {
  it("CREATE with data clauses, RETURN, TIMEOUT, PARALLEL", () => {
    const c = one("CREATE ONLY user:1 SET name = 'x', age += 1 RETURN NONE TIMEOUT 1s PARALLEL", "Create");
    expect([c.only, c.what[0].kind, c.data?.kind, c.output, c.timeout, c.parallel]).toEqual([true, "RecordId", "Set", { kind: "None" }, sec(1n), true]);
    expect(one("CREATE session CONTENT { user: $auth.id }", "Create").data?.kind).toBe("Content");
    expect(one("CREATE t RETURN AFTER", "Create").output).toEqual({ kind: "After" });
    expect(one("CREATE t RETURN id, name", "Create").output).toMatchObject({ kind: "Fields", fields: { value: false, items: [{ kind: "Single" }, { kind: "Single" }] } });
    expect(one("CREATE t RETURN VALUE id", "Create").output).toMatchObject({ kind: "Fields", fields: { value: true } });
  });
  it("UPDATE / UPSERT with every assignment operator and data clause", () => {
    const u = one("UPDATE user:1 SET a = 1, b += 2, c -= 3, d +?= 4, e.f[0] = NONE WHERE x RETURN DIFF", "Update");
    expect(u.data?.kind === "Set" && u.data.items.map((i) => i.op)).toEqual(["=", "+=", "-=", "+?=", "="]);
    expect(u.data?.kind === "Set" && u.data.items[4].place.parts.length).toBe(3);
    expect([u.cond?.kind, u.output]).toEqual(["Idiom", { kind: "Diff" }]);
    expect(one("UPSERT ONLY t MERGE {a: 1} RETURN BEFORE", "Upsert")).toMatchObject({ kind: "Upsert", only: true, data: { kind: "Merge" }, output: { kind: "Before" } });
    expect(one("UPDATE t UNSET a, b.c", "Update").data).toMatchObject({ kind: "Unset", fields: [{}, {}] });
    expect(one("CREATE user SET select = 1, value.in = 2", "Create").data).toMatchObject({ kind: "Set", items: [{ place: { parts: [{ kind: "Field", name: "select" }] } }, { place: { parts: [{ name: "value" }, { name: "in" }] } }] });
    expect(one("UPDATE t REPLACE {}", "Update").data?.kind).toBe("Replace");
    expect(one("UPDATE t PATCH []", "Update").data?.kind).toBe("Patch");
    expect(one("UPDATE t CONTENT $c RETURN NULL", "Update").output).toEqual({ kind: "Null" });
  });
  it("DELETE [FROM] [ONLY]", () => {
    expect(one("DELETE FROM user WHERE age < 18 RETURN BEFORE", "Delete")).toMatchObject({ what: [{ kind: "Table", name: "user" }], cond: { kind: "Binary" }, output: { kind: "Before" } });
    expect(one("DELETE ONLY user:1", "Delete")).toMatchObject({ only: true, what: [{ kind: "RecordId" }] });
  });
  it("INSERT forms", () => {
    const v = one("INSERT INTO user (name, age) VALUES ('a', 1), ('b', 2) ON DUPLICATE KEY UPDATE age += 1", "Insert");
    expect(v.into).toEqual({ kind: "Table", name: "user" });
    expect(v.data.kind === "Values" && [v.data.fields.length, v.data.rows.length]).toEqual([2, 2]);
    expect(v.update?.map((a) => a.op)).toEqual(["+="]);
    expect(one("INSERT IGNORE INTO user [{a: 1}]", "Insert")).toMatchObject({ ignore: true, data: { kind: "Single", value: { kind: "Array" } } });
    expect(one("INSERT INTO $t $data", "Insert")).toMatchObject({ into: { kind: "Param", name: "t" }, data: { kind: "Single", value: { kind: "Param" } } });
    expect(one("INSERT RELATION INTO likes {in: a:1, out: b:2}", "Insert")).toMatchObject({ relation: true, data: { value: { kind: "Object" } } });
    expect(one("INSERT INTO t (SELECT * FROM x)", "Insert").data).toMatchObject({ kind: "Single", value: { kind: "Subquery" } });
  });
  it("RELATE both directions", () => {
    const r = one("RELATE person:1->likes->person:2 CONTENT {a: 1} RETURN NONE", "Relate");
    expect([r.from.kind, r.through, r.to.kind, r.data?.kind]).toEqual(["RecordId", { kind: "Table", name: "likes", pos: r.through.pos }, "RecordId", "Content"]);
    const b = one("RELATE person:2<-likes<-person:1 UNIQUE", "Relate");
    expect(b.from).toMatchObject({ kind: "RecordId", key: { kind: "Number", value: 1n } });
    expect(b.to).toMatchObject({ kind: "RecordId", key: { kind: "Number", value: 2n } });
    expect(b.uniq).toBe(true);
    expect(one("RELATE $a->likes->$b SET x = 1", "Relate")).toMatchObject({ from: { kind: "Param" }, to: { kind: "Param" } });
  });
  it("LIVE SELECT and KILL", () => {
    expect(one("LIVE SELECT * FROM user WHERE a = 1 FETCH b", "Live")).toMatchObject({ diff: false, what: { kind: "Table", name: "user" }, cond: { kind: "Binary" }, fetch: [{}] });
    expect(one("LIVE SELECT DIFF FROM user", "Live").diff).toBe(true);
    expect(one("KILL $id", "Kill").id).toMatchObject({ kind: "Param" });
  });
  it("rejects incomplete statements with a ParseError", () => {
    for (const t of ["SELECT * FROM", "SELECT FROM user", "UPDATE", "CREATE user SET", "INSERT INTO", "RELATE a->b", "DELETE user WHERE", "LET x = 1", "IF a THEN b", "FOR $x IN [1]"]) {
      expect(parseFails(t).line).toBeGreaterThan(0);
    }
  });
});
