// doc/decide: the one permission decision — its outcome for every action and clause kind, what it reports and to whom,
// and (through the engine, both compats) the table, field and array-element decisions a record user's queries make.

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { DefineFieldStatement, DefineTableStatement, Expr } from "../../src/ast/nodes.js";
import { printExpr } from "../../src/ast/print.js";
import { decide, decideQuick, type DecideEnv, type Decision } from "../../src/doc/decide.js";
import type { Action } from "../../src/doc/env.js";
import { SurqlAuth, type AuditEvent, type ExplainedDecision } from "../../src/index.js";
import { newTableEntry } from "../../src/store/catalog.js";
import type { Value } from "../../src/value/types.js";
import { RecordId } from "../../src/value/types.js";

const ACTIONS: readonly Action[] = ["select", "create", "update", "delete"];

function tableOf(sql: string) {
  return newTableEntry("ns", "db", parse(sql)[0] as DefineTableStatement);
}
const fieldOf = (sql: string) => parse(sql)[0] as DefineFieldStatement;

/** A clause evaluator that understands `true`, `false`, `$auth = $this.owner`, and throws on `fn::boom()`. */
function env(opts: { applies?: boolean; observe?: "all" | "denials"; compat?: 1 | 2 } = {}) {
  const decisions: Decision[] = [];
  const asked = { apply: [] as boolean[], identity: 0, print: 0 };
  const built: DecideEnv = {
    compat: opts.compat ?? 2,
    permissionsApply: (write) => {
      asked.apply.push(write);
      return opts.applies ?? true;
    },
    evaluate: async (_def, clause: Expr, doc: Value) => {
      const text = printExpr(clause);
      if (text.startsWith("fn::boom")) throw new Error("clause failed");
      if (text === "$auth = owner") return (doc as { owner?: Value } | undefined)?.owner === "ann";
      return text === "true";
    },
    observe: opts.observe ? { all: opts.observe === "all", decided: (d) => decisions.push(d) } : undefined,
    identity: (clause) => {
      asked.identity++;
      return printExpr(clause).includes("$auth") ? { auth: "user:ann" } : {};
    },
    printExpr: (e) => {
      asked.print++;
      return printExpr(e);
    },
    printValue: (v) => (v instanceof RecordId ? `${v.table}:${String(v.id)}` : String(v)),
  };
  return { env: built, decisions, asked };
}

const doc = { id: new RecordId("t", 1n), owner: "ann" };

describe("decide: one table permission", () => {
  for (const action of ACTIONS) {
    it(`${action}: NONE denies, FULL allows, WHERE by its value; each with its reason and clause text`, async () => {
      const cases = [
        ["NONE", false, "none"],
        ["FULL", true, "full"],
        ["WHERE true", true, "where-true"],
        ["WHERE false", false, "where-false"],
        ["WHERE $auth = owner", true, "where-true"],
      ] as const;
      for (const [clause, allowed, reason] of cases) {
        const { env: e, decisions, asked } = env({ observe: "all" });
        const table = { kind: "table", table: tableOf(`DEFINE TABLE t PERMISSIONS FOR ${action} ${clause}`) } as const;
        expect(await decide(e, table, action, doc, {})).toBe(allowed);
        expect(asked.apply).toEqual([action !== "select"]);
        expect(decisions).toEqual([
          { kind: "table", table: "t", record: "t:1", action, clause, allowed, reason, ...(clause.includes("$auth") ? { values: { auth: "user:ann" } } : {}) },
        ]);
      }
    });

    it(`${action}: a WHERE that fails raises its error, reported as where-error`, async () => {
      const { env: e, decisions } = env({ observe: "all" });
      const table = { kind: "table", table: tableOf(`DEFINE TABLE t PERMISSIONS FOR ${action} WHERE fn::boom()`) } as const;
      await expect(decide(e, table, action, doc, {})).rejects.toThrow("clause failed");
      expect(decisions).toMatchObject([{ action, allowed: false, reason: "where-error", error: "clause failed" }]);
    });

    it(`${action}: an actor whose roles cover it bypasses the clause (reported as bypass, nothing evaluated)`, async () => {
      const { env: e, decisions } = env({ applies: false, observe: "all" });
      const table = { kind: "table", table: tableOf(`DEFINE TABLE t PERMISSIONS FOR ${action} NONE`) } as const;
      expect(await decide(e, table, action, doc, {})).toBe(true);
      expect(decisions).toEqual([{ kind: "table", table: "t", record: "t:1", action, clause: "NONE", allowed: true, reason: "bypass" }]);
    });
  }

  it("builds nothing when nobody listens: no clause printed, no identity asked", async () => {
    const { env: e, asked } = env();
    const table = { kind: "table", table: tableOf("DEFINE TABLE t PERMISSIONS FOR select WHERE $auth = owner") } as const;
    expect(await decide(e, table, "select", doc, {})).toBe(true);
    expect(await decide(e, table, "select", { ...doc, owner: "bob" }, {})).toBe(false);
    expect(asked).toMatchObject({ identity: 0, print: 0 });
  });

  it("reports only refusals to the denial log (no bypass, FULL or allowing WHERE)", async () => {
    const { env: e, decisions } = env({ observe: "denials" });
    const table = { kind: "table", table: tableOf("DEFINE TABLE t PERMISSIONS FOR select WHERE $auth = owner, FOR create FULL, FOR update NONE") } as const;
    await decide(e, table, "select", doc, {});
    await decide(e, table, "create", doc, {});
    await decide(e, table, "select", { ...doc, owner: "bob" }, {});
    await decide(e, table, "update", doc, {});
    expect(decisions.map((d) => [d.action, d.reason])).toEqual([
      ["select", "where-false"],
      ["update", "none"],
    ]);
    const bypass = env({ applies: false, observe: "denials" });
    await decide(bypass.env, table, "update", doc, {});
    expect(bypass.decisions).toEqual([]);
  });

  it("the quick pre-check denies NONE alone, before anything is evaluated, and names the record", () => {
    const { env: e, decisions } = env({ observe: "all" });
    const t = tableOf("DEFINE TABLE t PERMISSIONS FOR select NONE, FOR create WHERE false");
    expect(decideQuick(e, { kind: "table", table: t }, "select", doc)).toBe(false);
    expect(decideQuick(e, { kind: "table", table: t }, "create", doc)).toBe(true);
    expect(decisions).toEqual([{ kind: "table", table: "t", record: "t:1", action: "select", clause: "NONE", allowed: false, reason: "none" }]);
    const bypass = env({ applies: false, observe: "all" });
    expect(decideQuick(bypass.env, { kind: "table", table: t }, "select", doc)).toBe(true);
  });
});

describe("decide: field and array-element permissions", () => {
  const t = tableOf("DEFINE TABLE t");
  for (const action of ACTIONS) {
    it(`${action}: a field's clause decides the path it covers`, async () => {
      const { env: e, decisions } = env({ observe: "all" });
      const field = fieldOf(`DEFINE FIELD secret ON t PERMISSIONS FOR ${action} WHERE $auth = owner`);
      expect(await decide(e, { kind: "field", table: t, field, path: ["secret"] }, action, doc, {})).toBe(true);
      expect(await decide(e, { kind: "field", table: t, field, path: ["secret"] }, action, { ...doc, owner: "bob" }, {})).toBe(false);
      expect(decisions.map((d) => [d.field, d.path, d.action, d.allowed, d.reason])).toEqual([
        ["secret", "secret", action, true, "where-true"],
        ["secret", "secret", action, false, "where-false"],
      ]);
    });

    it(`${action}: an array element's clause (tags[*]) names the definition and the element judged`, async () => {
      const { env: e, decisions } = env({ observe: "all" });
      const field = fieldOf(`DEFINE FIELD tags[*] ON t PERMISSIONS FOR ${action} NONE`);
      expect(await decide(e, { kind: "field", table: t, field, path: ["tags", 2] }, action, doc, {})).toBe(false);
      expect(decisions).toEqual([{ kind: "field", table: "t", field: "tags[*]", path: "tags[2]", record: "t:1", action, clause: "NONE", allowed: false, reason: "none" }]);
    });
  }

  it("nested object fields print as a.b", async () => {
    const { env: e, decisions } = env({ observe: "all" });
    const field = fieldOf("DEFINE FIELD a.b ON t PERMISSIONS FULL");
    await decide(e, { kind: "field", table: t, field, path: ["a", "b"] }, "select", doc, {});
    expect(decisions).toMatchObject([{ field: "a.b", path: "a.b", clause: "FULL", reason: "full" }]);
  });
});

/** A record user `ann` (or root) of a small schema with table, field and element rules; its queries explained. */
async function explained(compat: 1 | 2, sql: string, as: "ann" | "root" = "ann"): Promise<{ results: unknown[]; decisions: ExplainedDecision[]; events: AuditEvent[] }> {
  const events: AuditEvent[] = [];
  const db = await SurqlAuth.open({ compat, audit: [(e) => events.push(e)], logDenials: true, root: { user: "root", pass: "root" } });
  await db.importText(`
    USE NS t DB t;
    DEFINE TABLE post SCHEMALESS PERMISSIONS FOR select WHERE published = true OR author = $auth.id, FOR create, update WHERE author = $auth.id, FOR delete NONE;
    DEFINE FIELD secret ON post PERMISSIONS FOR select WHERE author = $auth.id, FOR update NONE;
    DEFINE FIELD tags ON post TYPE option<array>;
    DEFINE FIELD tags[*] ON post PERMISSIONS FOR select WHERE $value != 'internal';
    DEFINE PARAM $limit VALUE 3 PERMISSIONS WHERE ${compat === 1 ? "$scope" : "$access"} = 'acc' AND $auth.name = 'nobody';
    ${compat === 1 ? "DEFINE SCOPE acc SESSION 1h" : "DEFINE ACCESS acc ON DATABASE TYPE RECORD"} SIGNIN (SELECT * FROM user WHERE name = $name);
    CREATE user:ann SET name = 'ann';
    CREATE post:1 SET author = user:ann, published = false, secret = 'a', tags = ['x', 'internal'];
    CREATE post:2 SET author = user:bob, published = true, secret = 'b';
    CREATE post:3 SET author = user:bob, published = false, secret = 'c';
  `);
  const conn = db.connect();
  if (as === "ann") await conn.signin({ NS: "t", DB: "t", [compat === 1 ? "SC" : "AC"]: "acc", name: "ann" });
  else {
    await conn.signin({ user: "root", pass: "root" });
    await conn.use("t", "t");
  }
  const before = events.length;
  const { results, decisions } = await conn.explain(sql);
  db.iam.close();
  return { results: results.map((r) => r.result), decisions, events: events.slice(before).filter((e) => e.event === "permission_denied") };
}

const brief = (d: Decision) => [d.kind, d.record ?? null, d.field ?? null, d.path ?? null, d.action, d.allowed, d.reason];

for (const compat of [1, 2] as const) {
  describe(`explained through the engine, compat ${compat}`, () => {
    it("SELECT: each record's table decision and each field and element decision (a missing field is not judged), with the session values the clause reads", async () => {
      const { decisions } = await explained(compat, "SELECT * FROM post");
      expect(decisions.map(brief)).toEqual([
        ["table", "post:1", null, null, "select", true, "where-true"],
        ["field", "post:1", "secret", "secret", "select", true, "where-true"],
        ["field", "post:1", "tags", "tags", "select", true, "full"],
        ["field", "post:1", "tags[*]", "tags[0]", "select", true, "where-true"],
        ["field", "post:1", "tags[*]", "tags[1]", "select", false, "where-false"],
        ["table", "post:2", null, null, "select", true, "where-true"],
        ["field", "post:2", "secret", "secret", "select", false, "where-false"],
        ["table", "post:3", null, null, "select", false, "where-false"],
      ]);
      expect(decisions[0]).toMatchObject({ statement: 0, clause: "WHERE published = true OR author = $auth.id", values: { auth: "user:ann" } });
      expect(decisions[3]).toMatchObject({ clause: "WHERE $value != 'internal'" });
      expect(decisions[3]!.values).toBeUndefined();
    });

    it(`names the access method as $${compat === 1 ? "scope" : "access"} when a clause reads it; root bypasses`, async () => {
      const { decisions } = await explained(compat, "RETURN $limit");
      expect(decisions[0]!.values).toEqual({ auth: "user:ann", [compat === 1 ? "scope" : "access"]: "'acc'" });
      const root = await explained(compat, "SELECT * FROM post:2", "root");
      expect(root.decisions.map(brief)).toEqual([["table", "post:2", null, null, "select", true, "bypass"]]);
    });

    it("writes: the update rule on the stored record, a field's update rule keeping the old value, and NONE for delete", async () => {
      const { decisions, results } = await explained(compat, "UPDATE post:1 SET secret = 'new'; DELETE post:1; UPDATE post:2 SET x = 1");
      const writes = decisions.filter((d) => d.action !== "select");
      expect(writes.map((d) => [d.statement, ...brief(d)])).toEqual([
        [0, "table", "post:1", null, null, "update", true, "where-true"],
        [0, "field", "post:1", "secret", "secret", "update", false, "none"],
        [0, "field", "post:1", "tags", "tags", "update", true, "full"],
        [0, "field", "post:1", "tags[*]", "tags[0]", "update", true, "full"],
        [0, "field", "post:1", "tags[*]", "tags[1]", "update", true, "full"],
        [0, "table", "post:1", null, null, "update", true, "where-true"],
        [1, "table", "post:1", null, null, "delete", false, "none"],
        [2, "table", "post:2", null, null, "update", false, "where-false"],
      ]);
      expect((results[0] as { secret: string }[])[0]!.secret).toBe("a");
    });

    it("a DEFINE PARAM's permission is a decision too (kind param, action use)", async () => {
      const { decisions, results } = await explained(compat, "RETURN $limit");
      expect(String(results[0])).toContain("$limit");
      const clause = `WHERE ${compat === 1 ? "$scope" : "$access"} = 'acc' AND $auth.name = 'nobody'`;
      expect(decisions).toMatchObject([{ kind: "param", name: "$limit", action: "use", clause, allowed: false, reason: "where-false" }]);
    });

    it("the denial log hears each refusal with its deciding clause, and nothing else", async () => {
      const { decisions, events } = await explained(compat, "SELECT * FROM post");
      const refused = decisions.filter((d) => !d.allowed);
      expect(events.map((e) => [e.table, e.action, e.field ?? null, e.target ?? null, e.clause])).toEqual(
        refused.map((d) => [d.table, d.action, d.field ?? null, d.record ?? null, d.clause]),
      );
    });
  });
}
