// exec/records (missLikeHit, used by iterate's lookups): a read by id, link or indexed value that finds nothing does the
// work a hit on a hidden record does (attack R6: the response time told them apart) — the same record reads, the select
// permissions run on a stand-in — and the answer stays the miss's. Observed through the record reads a permission
// clause makes (`gate:1.open`), not timed.

import { describe, expect, it } from "vitest";
import { rootSession } from "./helpers.js";
import { hitAndMiss, missProbe } from "./miss-probe.js";

const SCHEMA = `
DEFINE TABLE gate SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE gate:1.open = true AND id = $auth.id;
DEFINE INDEX email ON user FIELDS email UNIQUE;
DEFINE TABLE profile SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD email ON profile PERMISSIONS FOR select WHERE gate:1.open = true AND owner = $auth.id;
DEFINE INDEX prof_email ON profile FIELDS email UNIQUE;
DEFINE TABLE msg SCHEMALESS PERMISSIONS FOR select WHERE gate:1.open = true AND (to = $auth.id OR from = $auth.id);
CREATE gate:1 SET open = true;
CREATE msg:1 SET from = user:alice, to = user:alice;
CREATE user:alice SET email = 'alice@victim.io';
CREATE user:mallory SET email = 'm@evil.io';
CREATE profile:alice SET owner = user:alice, email = 'alice@victim.io';
`;

const PROBES: [string, string, string][] = [
  ["a hidden record by index", "SELECT * FROM user WHERE email = 'alice@victim.io'", "SELECT * FROM user WHERE email = 'ghost@victim.io'"],
  ["a hidden field by WHERE (a scan: its index is not used for a client, A2)", "SELECT * FROM profile WHERE email = 'alice@victim.io'", "SELECT * FROM profile WHERE email = 'ghost@victim.io'"],
  ["a hidden record by id", "SELECT * FROM msg:1", "SELECT * FROM msg:2"],
  ["a hidden record by an id the WHERE requires", "SELECT * FROM msg WHERE id = msg:1", "SELECT * FROM msg WHERE id = msg:2"],
  ["a hidden record through a link", "RETURN msg:1.from", "RETURN msg:2.from"],
];

describe.each([1, 2] as const)("a miss works like a hidden hit (compat %i)", (compat) => {
  const setUp = async () => ({ probe: await missProbe(compat, SCHEMA) });

  const probes = compat === 2 ? [...PROBES, ["record::exists", "RETURN record::exists(msg:1)", "RETURN record::exists(msg:2)"]] : PROBES;
  it.each(probes)("%s: the same reads as the hit, permission clause included; the same answer", async (_title, hit, miss) => {
    const { probe } = await setUp();
    const { m } = await hitAndMiss(probe, hit!, miss!);
    expect(m.reads).toContain("gate");
  });

  it("does no stand-in work for an actor whose permissions do not apply", async () => {
    const { probe } = await setUp();
    const m = await probe("SELECT * FROM user WHERE email = 'ghost@victim.io'", rootSession());
    expect(m).toEqual({ out: [{ ok: [] }], reads: [], denials: [] });
  });

  it("drops an error the stand-in meets: the answer is the miss's", async () => {
    const { probe } = await setUp();
    await probe("DEFINE TABLE boom SCHEMALESS PERMISSIONS FOR select WHERE <int>level > 3; DEFINE INDEX name ON boom FIELDS name UNIQUE;", rootSession());
    expect((await probe("SELECT * FROM boom WHERE name = 'x'; SELECT * FROM boom:x; RETURN boom:x.name")).out).toEqual([{ ok: [] }, { ok: [] }, { ok: null }]);
  });
});
