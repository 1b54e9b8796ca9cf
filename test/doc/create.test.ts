// doc/create: a create rule of NONE stops a client before any field clause runs, in both compats. 1.5.4 runs the fields
// first, so on a SCHEMAFULL PERMISSIONS NONE table an INSERT / RELATE of a missing id answered its field error while a
// stored (hidden) id answered [] — one statement per id told which records exist (attack pass 11, I3). Stricter than 1.5.4.

import { describe, expect, it } from "vitest";
import { newDs, recordSession, rootSession, run } from "../exec/helpers.js";

const schema = (compat: 1 | 2) => `
DEFINE TABLE sec SCHEMAFULL PERMISSIONS NONE;
DEFINE FIELD k ON sec TYPE string;
CREATE sec:a SET k = 'x';
DEFINE TABLE secedge ${compat === 2 ? "TYPE RELATION " : ""}SCHEMAFULL PERMISSIONS NONE;
DEFINE FIELD k ON secedge TYPE string;
RELATE user:vic->secedge:a->user:bob SET k = 'x';
`;

describe.each([1, 2] as const)("a NONE create rule comes before the fields (compat %i)", (compat) => {
  it.each([
    ["INSERT", "INSERT INTO sec { id: sec:ID }"],
    ["INSERT … ON DUPLICATE KEY UPDATE", "INSERT INTO sec { id: sec:ID } ON DUPLICATE KEY UPDATE k = 'y'"],
    ["RELATE … SET id", "RELATE user:vic->secedge->user:bob SET id = secedge:ID"],
    ["CREATE", "CREATE sec:ID"],
  ])("%s of a stored hidden id and of a missing one answer alike", async (_what, text) => {
    const ds = newDs({ compat });
    expect((await run(ds, rootSession(), schema(compat))).filter((o) => "err" in o)).toEqual([]);
    const mal = recordSession("user", "mal");
    const hit = await run(ds, mal, text.replace("ID", "a"));
    const miss = await run(ds, mal, text.replace("ID", "b"));
    expect(miss).toEqual(hit);
    expect(await run(ds, rootSession(), "RETURN [array::len(SELECT * FROM sec), array::len(SELECT * FROM secedge)]")).toEqual([{ ok: [1, 1] }]);
  });
});
