// exec/expressions/idiom: a graph step anchored at a record reaches an edge only through the edge's `in` (->) or `out`
// (<-) as the client may select it (attack pass 7, E4: a hidden `in` was confirmed by `prof:vic->anon_like`, so every
// "anonymous" like was de-anonymised). Stricter than SurrealDB 2.6.0, which answers the step from the graph keys.

import { describe, expect, it } from "vitest";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const SCHEMA = `
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE TABLE pub SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE prof SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE anon_like SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD in ON anon_like PERMISSIONS FOR select NONE;
DEFINE TABLE anon_out SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD out ON anon_out PERMISSIONS FOR select NONE;
DEFINE TABLE vote SCHEMALESS PERMISSIONS FULL;
DEFINE FIELD in ON vote PERMISSIONS FOR select WHERE in = $auth.id;
CREATE user:vic, user:mal, pub:2, prof:vic;
RELATE user:vic->anon_like->pub:2 SET id = anon_like:a; RELATE prof:vic->anon_like->pub:2 SET id = anon_like:b;
RELATE prof:vic->anon_out->pub:2 SET id = anon_out:c;
RELATE user:vic->vote->pub:2 SET id = vote:v; RELATE user:mal->vote->pub:2 SET id = vote:m;
`;

describe.each([1, 2] as const)("compat %i: graph steps from a node judge the edge's in / out as the client sees it", (compat) => {
  it("a hidden `in` / `out` never names the node a step starts from; visible ones still do", async () => {
    const ds = newDs({ compat });
    const setup = await run(ds, rootSession(), SCHEMA);
    expect(setup.filter((o) => "err" in o)).toEqual([]);
    const mal = recordSession("user", "mal");
    const ask = async (q: string): Promise<unknown> => (await run(ds, mal, q))[0];
    // the edges are visible, their hidden field is not
    expect(await ask("SELECT VALUE out FROM anon_like ORDER BY out")).toEqual({ ok: ["pub:2", "pub:2"] });
    expect(await ask("SELECT in FROM anon_like")).toEqual({ ok: [{}, {}] });
    // from the node whose edge hides `in`: nothing (before: [pub:2], the edge, a count of 1)
    expect(await ask("SELECT ->anon_like->pub AS p FROM prof:vic")).toEqual({ ok: [{ p: [] }] });
    expect(await ask("RETURN user:vic->anon_like->pub")).toEqual({ ok: [] });
    expect(await ask("SELECT * FROM prof:vic->anon_like")).toEqual({ ok: [] });
    expect(await ask("RETURN count(prof:vic->anon_like)")).toEqual({ ok: 0 });
    // mirror case: a hidden `out` never names the node of a `<-` step
    expect(await ask("RETURN pub:2<-anon_out<-prof")).toEqual({ ok: [] });
    expect(await ask("RETURN prof:vic->anon_out")).toEqual({ ok: ["anon_out:c"] });
    // a rule that shows each voter its own `in`: Mal reaches its own vote, never another's
    expect(await ask("SELECT id, ->vote->pub AS voted FROM user:mal, prof:vic ORDER BY id")).toEqual({ ok: [{ id: "prof:vic", voted: [] }, { id: "user:mal", voted: ["pub:2"] }] });
    expect(await ask("RETURN user:vic->vote")).toEqual({ ok: [] });
    // root sees every edge from every side
    expect((await run(ds, rootSession(), "RETURN [prof:vic->anon_like->pub, pub:2<-anon_out<-prof, user:vic->vote->pub]"))[0]).toEqual({ ok: [["pub:2"], ["prof:vic"], ["pub:2"]] });
  });
});


describe("compat 2: RELATE onto an existing edge whose in / out the client may not select (attack pass 8, F1)", () => {
  const schema = `
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE TABLE pub SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE prof SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE vote SCHEMALESS PERMISSIONS FOR select, create FULL, FOR update WHERE out.owner = $auth.id, FOR delete NONE;
DEFINE FIELD in ON vote PERMISSIONS FOR select WHERE in = $auth.id;
CREATE user:mal; CREATE pub:m SET owner = user:mal; CREATE prof:vic;
RELATE prof:vic->vote->pub:m CONTENT { id: vote:v1 };
RELATE user:mal->vote->pub:m CONTENT { id: vote:own };
`;
  it("answers one text that names no stored end, whether the statement names the hidden end or not; a visible end keeps SurrealDB's text", async () => {
    const ds = newDs({ compat: 2 });
    expect((await run(ds, rootSession(), schema)).filter((o) => "err" in o)).toEqual([]);
    const mal = recordSession("user", "mal");
    const hidden = "Found a value for the `in` field, which does not match the existing field value";
    // before: "Found prof:vic for the `in` field …" printed the hidden voter; a right guess succeeded
    expect(await run(ds, mal, "RELATE prof:x->vote->pub:m CONTENT { id: vote:v1 }")).toEqual([{ err: hidden }]);
    expect(await run(ds, mal, "RELATE prof:vic->vote->pub:m CONTENT { id: vote:v1 }")).toEqual([{ err: hidden }]);
    // the edge Mal may see whole: a wrong `out` prints the stored one, as SurrealDB does
    expect(await run(ds, mal, "RELATE user:mal->vote->pub:zz CONTENT { id: vote:own }")).toEqual([{ err: "Found pub:m for the `out` field, which does not match the existing field value" }]);
    // nothing changed
    expect(await run(ds, rootSession(), "SELECT VALUE in FROM vote:v1")).toEqual([{ ok: ["prof:vic"] }]);
  });
});
