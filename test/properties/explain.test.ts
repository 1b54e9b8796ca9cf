// Property (issue #12 §6): explain tells exactly what a query withheld. For generated table, field and array-element
// select rules and generated records, a record user's SELECT returns every stored record but those explain says were
// denied, and each returned record is the stored one without exactly the field paths explain says were denied; its
// UPDATE changes every targeted record explain does not deny, and a field unless a field decision denied it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withoutPaths, type Path } from "../../src/doc/paths.js";
import { SurqlAuth, type ExplainedDecision, type ValueObject } from "../../src/index.js";
import { RecordId } from "../../src/value/types.js";

/** Select rules a table, a field or an array element may carry (`$value` is the element's or field's value). */
const TABLE_RULES = ["FULL", "NONE", "WHERE owner = $auth.id", "WHERE pub = true", "WHERE n > 2", "WHERE owner = $auth.id OR pub", "WHERE $auth.id = user:b"];
const FIELD_RULES = ["FULL", "NONE", "WHERE owner = $auth.id", "WHERE pub", "WHERE $value != 's1'", "WHERE n >= $this.n AND n < 3"];
const ELEMENT_RULES = ["FULL", "NONE", "WHERE $value != 'x'", "WHERE $value IN ['x', 'y']", "WHERE owner = $auth.id"];

const record = fc.record({
  owner: fc.constantFrom("user:a", "user:b"),
  pub: fc.boolean(),
  n: fc.integer({ min: 0, max: 5 }),
  secret: fc.option(fc.constantFrom("s1", "s2"), { nil: undefined }),
  tags: fc.option(fc.array(fc.constantFrom("x", "y", "z"), { maxLength: 3 }), { nil: undefined }),
});

const scenario = fc.record({
  compat: fc.constantFrom(1 as const, 2 as const),
  table: fc.constantFrom(...TABLE_RULES),
  secret: fc.constantFrom(...FIELD_RULES),
  element: fc.constantFrom(...ELEMENT_RULES),
  records: fc.array(record, { minLength: 1, maxLength: 5 }),
  query: fc.constantFrom("SELECT * FROM t", "SELECT * FROM t:1, t:2, t:3", "SELECT * FROM t WHERE true"),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function schema(s: Scenario): string {
  const access = s.compat === 1 ? "DEFINE SCOPE acc SESSION 1h" : "DEFINE ACCESS acc ON DATABASE TYPE RECORD";
  const rows = s.records.map((r, i) => {
    const set = [`owner = ${r.owner}`, `pub = ${r.pub}`, `n = ${r.n}`];
    if (r.secret !== undefined) set.push(`secret = '${r.secret}'`);
    if (r.tags !== undefined) set.push(`tags = [${r.tags.map((t) => `'${t}'`).join(", ")}]`);
    return `CREATE t:${i + 1} SET ${set.join(", ")};`;
  });
  return `
    USE NS p DB p;
    ${access} SIGNIN (SELECT * FROM user WHERE name = $name);
    DEFINE TABLE user SCHEMALESS PERMISSIONS FULL;
    DEFINE TABLE t SCHEMALESS PERMISSIONS FOR select ${s.table}, FOR create, update, delete NONE;
    DEFINE FIELD secret ON t PERMISSIONS FOR select ${s.secret};
    DEFINE FIELD tags ON t TYPE option<array<string>>;
    DEFINE FIELD ${s.compat === 2 ? "OVERWRITE " : ""}tags[*] ON t TYPE string PERMISSIONS FOR select ${s.element};
    CREATE user:a SET name = 'a';
    CREATE user:b SET name = 'b';
    ${rows.join("\n")}
  `;
}

/** `tags[1]`, `secret` → a Path. */
function pathOf(text: string): Path {
  return [...text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

const key = (v: unknown) => (v instanceof RecordId ? String(v) : JSON.stringify(v));

/** `tamper` changes what explain said before it is compared (to show the check can fail). */
async function check(s: Scenario, tamper: (ds: ExplainedDecision[]) => ExplainedDecision[] = (ds) => ds): Promise<void> {
  const db = await SurqlAuth.open({ compat: s.compat, root: { user: "root", pass: "root" } });
  try {
    await db.importText(schema(s));
    const root = db.connect();
    await root.signin({ user: "root", pass: "root" });
    await root.use("p", "p");
    const [stored] = await root.query(s.query);
    const user = db.connect();
    await user.signin({ NS: "p", DB: "p", [s.compat === 1 ? "SC" : "AC"]: "acc", name: "a" });
    const { results, decisions: told } = await user.explain(s.query);
    const decisions = tamper(told);
    expect(results[0]!.status).toBe("OK");
    const all = stored!.result as ValueObject[];
    const seen = results[0]!.result as ValueObject[];
    const denied = (d: ExplainedDecision) => !d.allowed && d.action === "select";
    // records: returned = stored minus those a table decision denied, and each stored record was judged
    const deniedIds = new Set(decisions.filter((d) => d.kind === "table" && denied(d)).map((d) => d.record));
    const judgedIds = new Set(decisions.filter((d) => d.kind === "table").map((d) => d.record));
    expect(all.map((r) => key(r.id)).filter((id) => !judgedIds.has(id))).toEqual([]);
    expect(seen.map((r) => key(r.id))).toEqual(all.map((r) => key(r.id)).filter((id) => !deniedIds.has(id)));
    // fields: each returned record is the stored one without exactly the paths a field decision denied
    for (const r of seen) {
      const full = all.find((x) => key(x.id) === key(r.id))!;
      const paths = decisions.filter((d) => d.kind === "field" && denied(d) && d.record === key(r.id)).map((d) => pathOf(d.path!));
      expect(r).toEqual(withoutPaths(full, paths));
    }
  } finally {
    db.iam.close();
  }
}

const writeScenario = fc.record({
  compat: fc.constantFrom(1 as const, 2 as const),
  table: fc.constantFrom(...TABLE_RULES),
  secret: fc.constantFrom(...FIELD_RULES, "WHERE $value = 'new'", "WHERE $before = 's1'"),
  records: fc.array(record, { minLength: 1, maxLength: 5 }),
  query: fc.constantFrom("UPDATE t SET touched = true, secret = 'new' RETURN NONE", "UPDATE t:1, t:2, t:3 SET touched = true, secret = 'new' RETURN NONE"),
});

type WriteScenario = typeof writeScenario extends fc.Arbitrary<infer T> ? T : never;

/** A write: every record explain does not deny is changed, and its field takes the new value unless a field decision denied it. */
async function checkWrite(w: WriteScenario): Promise<void> {
  // the select rule lets root's later read see all; the table rule under test is the update rule
  const s: Scenario = { compat: w.compat, table: "FULL", secret: "FULL", element: "FULL", records: w.records, query: "SELECT * FROM t" };
  const text = schema(s)
    .replace("FOR select FULL, FOR create, update, delete NONE", `FOR select FULL, FOR update ${w.table}, FOR create, delete NONE`)
    .replace("DEFINE FIELD secret ON t PERMISSIONS FOR select FULL", `DEFINE FIELD secret ON t PERMISSIONS FOR select FULL, FOR update ${w.secret}`);
  const db = await SurqlAuth.open({ compat: w.compat, root: { user: "root", pass: "root" } });
  try {
    await db.importText(text);
    const user = db.connect();
    await user.signin({ NS: "p", DB: "p", [w.compat === 1 ? "SC" : "AC"]: "acc", name: "a" });
    const { results, decisions } = await user.explain(w.query);
    expect(results[0]!.status).toBe("OK");
    const root = db.connect();
    await root.signin({ user: "root", pass: "root" });
    await root.use("p", "p");
    const [after] = await root.query("SELECT * FROM t");
    const targets = w.query.startsWith("UPDATE t ") ? w.records.map((_, i) => `t:${i + 1}`) : ["t:1", "t:2", "t:3"].filter((id) => Number(id.slice(2)) <= w.records.length);
    for (const r of after!.result as ValueObject[]) {
      const id = key(r.id);
      const mine = decisions.filter((d) => d.record === id && d.action === "update");
      const tableDenied = mine.some((d) => d.kind === "table" && !d.allowed);
      expect({ id, touched: r["touched"] === true }).toEqual({ id, touched: targets.includes(id) && !tableDenied });
      if (r["touched"] !== true) continue;
      const fieldDenied = mine.some((d) => d.kind === "field" && d.field === "secret" && !d.allowed);
      expect({ id, secret: r["secret"] === "new" }).toEqual({ id, secret: !fieldDenied });
    }
  } finally {
    db.iam.close();
  }
}

describe("explain (issue #12 §6)", () => {
  it("what explain says was denied is exactly what a record user's UPDATE did not change (records, and a field's update rule)", async () => {
    await fc.assert(fc.asyncProperty(writeScenario, (w) => checkWrite(w)), { numRuns: 40, seed: 12, endOnFailure: true });
  }, 120_000);

  it("what explain says was denied is exactly what a record user's SELECT did not return (records, fields, array elements)", async () => {
    await fc.assert(fc.asyncProperty(scenario, (s) => check(s)), { numRuns: 40, seed: 12, endOnFailure: true });
  }, 120_000);

  it("the check fails when explain and the answer disagree (a record's or a field's denial dropped)", async () => {
    const records: Scenario["records"] = [
      { owner: "user:b", pub: false, n: 1, secret: "s1", tags: ["x"] },
      { owner: "user:a", pub: true, n: 1, secret: "s2", tags: ["x", "y"] },
    ];
    const s: Scenario = { compat: 2, table: "WHERE pub = true", secret: "NONE", element: "WHERE $value != 'x'", records, query: "SELECT * FROM t" };
    await check(s);
    const without = (pick: (d: ExplainedDecision) => boolean) => (ds: ExplainedDecision[]) => ds.filter((d) => !pick(d));
    await expect(check(s, without((d) => d.kind === "table" && !d.allowed))).rejects.toThrow();
    await expect(check(s, without((d) => d.field === "secret" && !d.allowed))).rejects.toThrow();
    await expect(check(s, without((d) => d.field === "tags[*]" && !d.allowed))).rejects.toThrow();
  });
});
