// exec/records (writeMissLikeHit, used by the write statements' targets): an UPDATE / DELETE by id that finds no record
// does the judging a hit on a record the client may not see does (attack pass 9, G2: the time of a write told a hidden
// record from a missing one, the id repeated in one statement to add the difference up) — the same record reads, the
// same permission decisions — and the answer stays the miss's. Observed through the record reads a permission clause
// makes (`gate:1.open`) and the decisions the denial log hears (a NONE rule: both stop at the quick check), not timed.

import { describe, expect, it } from "vitest";
import { rootSession } from "./helpers.js";
import { hitAndMiss, missProbe } from "./miss-probe.js";

const SCHEMA = `
DEFINE TABLE gate SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE TABLE box SCHEMALESS PERMISSIONS FOR select, create, update, delete WHERE gate:1.open = true AND owner = $auth.id;
DEFINE TABLE vault SCHEMALESS PERMISSIONS NONE;
CREATE gate:1 SET open = true;
CREATE user:alice; CREATE user:mallory;
CREATE box:1 SET owner = user:alice;
CREATE vault:1 SET s = 'SECRET';
`;

const BOTH: [string, string, string][] = [
  ["DELETE by id", "DELETE box:1", "DELETE box:2"],
  ["DELETE by id with a WHERE", "DELETE box:1 WHERE true", "DELETE box:2 WHERE true"],
  ["DELETE of an array of ids", "LET $a = [box:1, box:1, box:1]; DELETE $a", "LET $a = [box:2, box:2, box:2]; DELETE $a"],
  ["DELETE on a PERMISSIONS NONE table", "DELETE vault:1, vault:1", "DELETE vault:2, vault:2"],
  ["SELECT on a PERMISSIONS NONE table", "SELECT * FROM vault:1, vault:1", "SELECT * FROM vault:2, vault:2"],
];
// 2.x UPDATE leaves a missing id alone (1.x creates it: the create rule, as CREATE's known limit)
const V2: [string, string, string][] = [
  ["UPDATE by id", "UPDATE box:1 SET x = 1", "UPDATE box:2 SET x = 1"],
  ["UPDATE by id with a WHERE", "UPDATE box:1 SET x = 1 WHERE true", "UPDATE box:2 SET x = 1 WHERE true"],
  ["UPDATE of an array of ids", "LET $a = [box:1, box:1]; UPDATE $a SET x = 1", "LET $a = [box:2, box:2]; UPDATE $a SET x = 1"],
  ["UPDATE on a PERMISSIONS NONE table", "UPDATE vault:1, vault:1 SET x = 1", "UPDATE vault:2, vault:2 SET x = 1"],
];

describe.each([1, 2] as const)("a write by id that misses works like a hidden hit (compat %i)", (compat) => {
  const setUp = async () => ({ probe: await missProbe(compat, SCHEMA) });

  it.each(compat === 2 ? [...BOTH, ...V2] : BOTH)("%s: the same reads and refused decisions as the hit; the same answer", async (_title, hit, miss) => {
    const { probe } = await setUp();
    const { h, m } = await hitAndMiss(probe, hit!, miss!);
    expect(m.denials).toEqual(h.denials);
    expect(h.denials.length).toBeGreaterThan(0);
  });

  it("does no stand-in work for an actor whose permissions do not apply", async () => {
    const { probe } = await setUp();
    const m = await probe("DELETE box:2; UPDATE box:3 SET x = 1 WHERE true", rootSession());
    expect(m.reads.filter((t) => t === "gate")).toEqual([]);
    expect(m.denials).toEqual([]);
  });

  it("a hidden hit's stored record is untouched and a miss creates nothing", async () => {
    const { probe } = await setUp();
    await probe("DELETE box:1; DELETE box:2 WHERE true");
    expect((await probe("SELECT * FROM box", rootSession())).out).toEqual([{ ok: [{ id: "box:1", owner: "user:alice" }] }]);
  });
});
