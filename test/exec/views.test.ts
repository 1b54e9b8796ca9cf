// exec/views: a view's upkeep runs with the schema's rights whoever writes its table, its errors reach a record user
// without data, and it goes with the write's transaction.

import { describe, expect, it } from "vitest";
import { newDs, recordSession, rootSession, run } from "./helpers.js";

const SCHEMA = `
DEFINE TABLE person SCHEMALESS PERMISSIONS FULL;
DEFINE TABLE flag SCHEMALESS PERMISSIONS NONE;
CREATE flag:on SET on = true, secret = 's3cret';
DEFINE TABLE v AS SELECT name FROM person WHERE flag:on.on = true PERMISSIONS NONE;
DEFINE TABLE g AS SELECT count() AS n, city FROM person GROUP BY city PERMISSIONS NONE;
DEFINE TABLE bad AS SELECT name, <int> flag:on.secret AS x FROM person WHERE name = 'boom' PERMISSIONS NONE;
`;

describe("view upkeep", () => {
  for (const compat of [1, 2] as const) {
    it(`reads with the schema's rights for a record user's write, who still sees nothing through the view (compat ${compat})`, async () => {
      const ds = newDs({ compat });
      await run(ds, rootSession(), SCHEMA);
      const alice = recordSession("user", "alice");
      expect(await run(ds, alice, "CREATE person:1 SET name = 'a', city = 'L'; SELECT * FROM v; SELECT * FROM g")).toEqual([{ ok: [{ id: "person:1", name: "a", city: "L" }] }, { ok: [] }, { ok: [] }]);
      expect(await run(ds, rootSession(), "SELECT * FROM v; SELECT * FROM g")).toEqual([{ ok: [{ id: "v:1", name: "a" }] }, { ok: [{ id: "g:['L']", n: 1, city: "L" }] }]);
    });
    it(`an error of the view's query reaches a record user without the data it read, and undoes the write (compat ${compat})`, async () => {
      const ds = newDs({ compat });
      await run(ds, rootSession(), SCHEMA);
      const out = await run(ds, recordSession("user", "alice"), "CREATE person:9 SET name = 'boom'");
      expect(out).toEqual([{ err: "An error occurred in the view `bad`" }]);
      expect(await run(ds, rootSession(), "SELECT * FROM person:9; SELECT * FROM v")).toEqual([{ ok: [] }, { ok: [] }]);
    });
  }
  it("is cancelled with its transaction", async () => {
    const ds = newDs({ compat: 2 });
    await run(ds, rootSession(), SCHEMA);
    await run(ds, rootSession(), "BEGIN; CREATE person:1 SET name = 'a', city = 'L'; CANCEL");
    expect(await run(ds, rootSession(), "SELECT * FROM v; SELECT * FROM g")).toEqual([{ ok: [] }, { ok: [] }]);
  });
  it("ends a cycle of views at the first rewrite that changes nothing (a view of itself, two views of each other)", async () => {
    const ds = newDs({ compat: 2 });
    const out = await run(ds, rootSession(), "DEFINE TABLE x; DEFINE TABLE OVERWRITE x AS SELECT * FROM x; CREATE x:2 SET a = 2; DEFINE TABLE y; DEFINE TABLE z AS SELECT * FROM y; DEFINE TABLE OVERWRITE y AS SELECT * FROM z; CREATE y:1 SET b = 1; SELECT * FROM z");
    expect(out.slice(2)).toEqual([{ ok: [{ id: "x:2", a: 2 }] }, { ok: null }, { ok: null }, { ok: null }, { ok: [{ id: "y:1", b: 1 }] }, { ok: [{ id: "z:1", b: 1 }] }]);
  });
});
