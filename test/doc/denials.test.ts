// Denial reporting (--log-denials) only observes: the same queries give the same answers with it on and off, and on,
// each refusal is reported with its table, action, field and deciding clause.

import { describe, expect, it } from "vitest";
import { SurqlAuth, type AuditEvent } from "../../src/index.js";

const schema = (compat: 1 | 2) => `
  USE NS t DB t;
  DEFINE TABLE note SCHEMALESS PERMISSIONS
    FOR select WHERE owner = $auth.id OR public = true,
    FOR create WHERE owner = $auth.id,
    FOR update, delete WHERE owner = $auth.id;
  DEFINE FIELD secret ON note PERMISSIONS FOR select WHERE owner = $auth.id, FOR update NONE;
  DEFINE TABLE locked SCHEMALESS PERMISSIONS NONE;
  ${compat === 1 ? "DEFINE SCOPE acc SESSION 1h" : "DEFINE ACCESS acc ON DATABASE TYPE RECORD"} SIGNIN (SELECT * FROM user WHERE name = $name);
  CREATE user:a SET name = 'a';
  CREATE user:b SET name = 'b';
  CREATE note:1 SET owner = user:a, secret = 's1', public = false;
  CREATE note:2 SET owner = user:b, secret = 's2', public = true;
  CREATE note:3 SET owner = user:b, secret = 's3', public = false;
  CREATE locked:1 SET x = 1;
`;

const QUERIES = [
  "SELECT * FROM note",
  "SELECT secret FROM note:2",
  "UPDATE note SET touched = true",
  "UPDATE note:1 SET secret = 'changed'",
  "CREATE note:9 SET owner = user:b",
  "DELETE note:3",
  "SELECT * FROM locked",
  "CREATE locked:2",
  "SELECT * FROM note",
];

async function run(compat: 1 | 2, logDenials: boolean): Promise<{ answers: unknown[]; events: AuditEvent[] }> {
  const events: AuditEvent[] = [];
  const db = await SurqlAuth.open({ compat, audit: [(e) => events.push(e)], logDenials });
  await db.importText(schema(compat));
  const conn = db.connect();
  await conn.signin({ NS: "t", DB: "t", [compat === 1 ? "SC" : "AC"]: "acc", name: "a" });
  const answers: unknown[] = [];
  for (const q of QUERIES) answers.push(((await conn.query(q)) as { result: unknown; status: string }[]).map((r) => [r.status, r.result]));
  db.iam.close();
  return { answers, events: events.filter((e) => e.event === "permission_denied") };
}

for (const compat of [1, 2] as const) {
  describe(`denial reporting, compat ${compat}`, () => {
    it("changes no answer", async () => {
      const off = await run(compat, false);
      const on = await run(compat, true);
      expect(on.answers).toEqual(off.answers);
      expect(off.events).toEqual([]);
    });

    it("names the table, action, field and record of each refusal, and the record user refused", async () => {
      const { events } = await run(compat, true);
      const seen = events.map((e) => [e.table, e.action, e.field ?? null, e.target ?? null]);
      expect(seen).toContainEqual(["note", "select", null, "note:3"]);
      expect(seen).toContainEqual(["note", "select", "secret", "note:2"]);
      expect(seen).toContainEqual(["note", "update", "secret", "note:1"]);
      // the NONE pre-check names the record it skipped
      expect(seen).toContainEqual(["locked", "select", null, "locked:1"]);
      expect(seen.some(([t, a]) => t === "note" && (a === "update" || a === "create" || a === "delete"))).toBe(true);
      for (const e of events) expect(e).toMatchObject({ outcome: "failure", record: "user:a", access: "acc", ns: "t", db: "t" });
    });

    it("carries the clause that refused, as INFO prints it", async () => {
      const { events } = await run(compat, true);
      const clauses = events.map((e) => [e.table, e.action, e.field ?? null, e.clause]);
      expect(clauses).toContainEqual(["note", "select", null, "WHERE owner = $auth.id OR public = true"]);
      expect(clauses).toContainEqual(["note", "select", "secret", "WHERE owner = $auth.id"]);
      expect(clauses).toContainEqual(["note", "update", "secret", "NONE"]);
      expect(clauses).toContainEqual(["locked", "select", null, "NONE"]);
    });
  });
}
