// exec/: a record user's writes never show or copy what it may not select — data clauses, RETURN, WHERE, INSERT of an existing id.

import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import type { Session } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";
import { rootSession, run } from "./helpers.js";

// every value the record user may not select carries the marker HIDDEN
const SCHEMA = `
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select, update WHERE id = $auth.id FOR create, delete NONE;
DEFINE FIELD secret ON user PERMISSIONS FOR select NONE;
CREATE user:1 SET name = 'me', secret = 'HIDDEN-own';
CREATE user:2 SET name = 'HIDDEN-name', password = 'HIDDEN-hash', secret = 'HIDDEN-other';
DEFINE TABLE post SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD pin ON post PERMISSIONS FOR select NONE;
DEFINE FIELD level ON post PERMISSIONS FOR select WHERE $value = 'public';
CREATE post:1 SET pin = 'HIDDEN-pin', level = 'HIDDEN-level', title = 't';
DEFINE TABLE likes TYPE RELATION SCHEMALESS PERMISSIONS FOR select, update WHERE in = $auth.id FOR create FULL;
RELATE user:2->likes:e->user:2 SET note = 'HIDDEN-edge';
`;

/** Expressions a client could use to reach a document's contents. */
const EXPRESSIONS = ["<int> secret", "<int> password", "<int> pin", "array::len($this)", "<int> $parent", "(UPDATE $auth.id SET stolen = $parent)", "(UPDATE $auth.id SET stolen = $before)"];

/** Write statements around one expression `{E}`. */
const STATEMENTS = [
  "UPDATE user:2 SET a = {E}",
  "UPDATE user SET a = {E}",
  "UPDATE user:2 MERGE { a: {E} }",
  "UPDATE user:2 CONTENT { a: {E} }",
  "UPDATE user:2 PATCH [{ op: 'add', path: '/a', value: {E} }]",
  "INSERT INTO user { id: user:2 } ON DUPLICATE KEY UPDATE a = {E}",
  "RELATE user:1->likes:e->user:1 SET a = {E}",
  "UPDATE likes SET a = {E}",
  "UPDATE post:1 SET a = {E}",
  "UPDATE post:1 CONTENT { title: 't', a: {E} }",
  "UPDATE post:1 SET title = 'x' RETURN {E}",
  "UPDATE $auth SET a = {E}",
  "UPDATE $auth MERGE { a: {E} }",
  "UPDATE $auth SET title = 'x' RETURN {E}, $before, $after",
  "DELETE user:2 WHERE {E}",
  "DELETE post:1 RETURN {E}",
];

/** Statements without an expression: PATCH tests, RETURN BEFORE, INSERT of an existing id. */
const FIXED = [
  "UPDATE post:1 PATCH [{ op: 'test', path: '/pin', value: 'x' }]",
  "UPDATE $auth PATCH [{ op: 'test', path: '/secret', value: 'x' }]",
  "UPDATE post:1 SET title = 'x' RETURN BEFORE",
  "UPDATE post:1 SET level = 'public' RETURN BEFORE",
  "UPDATE post:1 SET level = 'public' RETURN $before, $before.level",
  "UPDATE post:1 SET level = 'public' RETURN DIFF",
  "DELETE post:1 RETURN BEFORE",
  "UPDATE post:1 SET pin += 1 RETURN AFTER",
  "INSERT INTO user { id: user:2 }",
  "INSERT INTO user [{ id: user:2 }, { id: user:1 }]",
  "INSERT INTO post { id: post:1 }",
  "INSERT INTO likes { id: likes:e, in: user:1, out: user:1 }",
];

function recordUser(compat: 1 | 2): Session {
  const tk = { NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", ID: "user:1" };
  return newSession({ ns: "test", db: "test", actor: { level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: "user:1", roles: [] }, rd: new RecordId("user", 1n), ac: "account", tk });
}

/** What the record user is answered, its own record and the others' records afterwards (as root sees them). */
async function probe(compat: 1 | 2, statement: string): Promise<{ seen: string; mine: string; others: string }> {
  const ds = new Datastore({ compat });
  await run(ds, rootSession(), SCHEMA);
  const seen = JSON.stringify(await run(ds, recordUser(compat), statement));
  const [mine, others] = await run(ds, rootSession(), "SELECT * FROM user:1; SELECT * FROM user:2, likes:e");
  return { seen, mine: JSON.stringify(mine), others: JSON.stringify(others) };
}

describe("a record user's writes reveal and copy nothing it may not select", () => {
  const statements = [...STATEMENTS.flatMap((s) => EXPRESSIONS.map((e) => s.replace("{E}", e))), ...FIXED];
  for (const compat of [1, 2] as const) {
    it(`answers (results and error texts) without hidden values (compat ${compat})`, async () => {
      const leaks: string[] = [];
      for (const s of statements) {
        const { seen } = await probe(compat, s);
        if (seen.includes("HIDDEN")) leaks.push(`${s}\n  → ${seen}`);
      }
      expect(leaks).toEqual([]);
    });

    it(`leaves other users' records as they were, and copies none of them into the client's (compat ${compat})`, async () => {
      const ds = new Datastore({ compat });
      await run(ds, rootSession(), SCHEMA);
      const [, untouched] = await run(ds, rootSession(), "SELECT * FROM user:1; SELECT * FROM user:2, likes:e");
      for (const s of statements) {
        const { mine, others } = await probe(compat, s);
        expect(others, s).toEqual(JSON.stringify(untouched));
        expect(mine, s).not.toMatch(/HIDDEN-(name|hash|other|edge|pin|level)/);
      }
    });
  }

  it("copies nothing with the nested UPDATE $auth.id SET … $parent.password of the issue (both versions)", async () => {
    for (const compat of [1, 2] as const) {
      const ds = new Datastore({ compat });
      await run(ds, rootSession(), SCHEMA);
      expect(await run(ds, recordUser(compat), "UPDATE user:2 SET x = (UPDATE $auth.id SET name = $parent.password)")).toEqual([{ ok: [] }]);
      const [mine] = await run(ds, rootSession(), "SELECT * FROM user:1");
      expect(mine).toEqual({ ok: [{ id: "user:1", name: "me", secret: "HIDDEN-own" }] });
    }
  });
});
