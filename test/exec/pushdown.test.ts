// Permission / WHERE pushdown: lookups on `id` and indexed fields give exactly the rows a full scan gives.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const PERMISSIONS = [
  "WHERE id = $auth.id",
  "WHERE team = $auth.team",
  "WHERE team = $auth.team AND age > 3",
  "WHERE $auth.id = id OR age > 8",
  "FULL",
];

const QUERIES = [
  "SELECT * FROM user",
  "SELECT id FROM user WHERE team = 'red'",
  "SELECT VALUE age FROM user WHERE id = user:2",
  "SELECT * FROM user WHERE team = $auth.team AND age < 5",
  // operands run with the client's rights: another user's record is NONE unless the permission shows it
  "SELECT * FROM user WHERE id = user:2.id",
  "SELECT id FROM user WHERE team = user:3.team",
  // an operand that raises: the same error as the scan's, or none when no row reaches the WHERE
  "SELECT * FROM user WHERE id = math::sqrt(user:2.*)",
  "SELECT id FROM user WHERE team = math::sqrt('x') AND age > 100",
  "SELECT id FROM user WHERE team > user:2.team",
  // fn:: and $params keep their own PERMISSIONS in an operand
  "SELECT id FROM user WHERE team = $hidden",
  "SELECT id FROM user WHERE id = fn::deny()",
  "SELECT id FROM user WHERE team = fn::open()",
  "SELECT id FROM user WHERE team = $shown",
];

const DEFINITIONS = `
DEFINE PARAM $hidden VALUE 'red' PERMISSIONS NONE;
DEFINE PARAM $shown VALUE 'red';
DEFINE FUNCTION fn::deny() { RETURN user:1 } PERMISSIONS NONE;
DEFINE FUNCTION fn::open() { RETURN 'red' };`;

/** Rows in a stable order: an index may answer in its own order, a scan in key order. */
const unordered = (outcomes: unknown[]) =>
  outcomes.map((o) => (o && typeof o === "object" && "ok" in o && Array.isArray(o.ok) ? { ok: [...o.ok].map((r) => JSON.stringify(r)).sort() } : o));

const userArb = fc.record({ team: fc.constantFrom("red", "blue", "green"), age: fc.integer({ min: 0, max: 10 }) });

describe("permission pushdown", () => {
  it("answers with the same rows as a full scan", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArb, { minLength: 0, maxLength: 8 }),
        fc.constantFrom(...PERMISSIONS),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        async (users, perm, me, indexed) => {
          const setup = [
            `DEFINE TABLE user PERMISSIONS FOR select ${perm};`,
            indexed ? "DEFINE INDEX team ON user FIELDS team;" : "",
            ...users.map((u, i) => `CREATE user:${i + 1} SET team = '${u.team}', age = ${u.age};`),
          ].join("\n");
          // pushdown (and the generated index) against a plain scan of an unindexed table
          const results = [];
          for (const pushdown of [true, false]) {
            const ds = newDs({ pushdown });
            await run(ds, rootSession(), DEFINITIONS + (pushdown ? setup : setup.replace("DEFINE INDEX team ON user FIELDS team;", "")));
            results.push(unordered(await run(ds, recordSession("user", BigInt(me)), QUERIES.join(";\n"))));
          }
          expect(results[0]).toEqual(results[1]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("finds a record user's own row by id without a scan", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE TABLE user PERMISSIONS FOR select WHERE id = $auth.id; CREATE user:1 SET n = 1; CREATE user:2 SET n = 2");
    let scans = 0;
    const scan = ds.records.scan.bind(ds.records);
    ds.records.scan = (txn, t, range) => {
      scans++;
      return scan(txn, t, range);
    };
    expect(await run(ds, recordSession("user", 2n), "SELECT * FROM user")).toEqual([{ ok: [{ id: "user:2", n: 2 }] }]);
    expect(scans).toBe(0);
  });

  it("answers an equality on an indexed field from the index", async () => {
    const ds = newDs();
    await run(ds, rootSession(), "DEFINE INDEX email ON user FIELDS email UNIQUE; CREATE user:1 SET email = 'a@b.c'; CREATE user:2 SET email = 'd@e.f'");
    let scans = 0;
    const scan = ds.records.scan.bind(ds.records);
    ds.records.scan = (txn, t, range) => {
      scans++;
      return scan(txn, t, range);
    };
    expect(await run(ds, rootSession(), "SELECT VALUE id FROM user WHERE email = 'd@e.f'")).toEqual([{ ok: ["user:2"] }]);
    expect(scans).toBe(0);
  });
});
