// exec/expressions/graph-near: a graph step from a node skips unread the edges whose near side (`in` for `->`, `out`
// for `<-`) the rules hide whatever the edge, so its work does not grow with the edges hidden from the client (attack
// pass 8, F7: `count(prof:vic->anon_like)` answered 0 but took 46 ms with 2,000 hidden edges against 0.75 ms with none).
// Work is counted in edge scans and record reads (no timed test; bench/graph-hidden.ts measures the time).

import { describe, expect, it } from "vitest";
import type { Datastore } from "../../../src/exec/datastore.js";
import { newDs, recordSession, rootSession, run } from "../helpers.js";

const K = 40;

/** Edge scans and record reads of the edge table `e` while `fn` runs. */
async function work(ds: Datastore, fn: () => Promise<unknown>): Promise<{ scans: number; reads: number }> {
  const records = ds.records;
  const [get, edges] = [records.get, records.edges];
  const count = { scans: 0, reads: 0 };
  records.get = (txn, t, id) => ((count.reads += id.table === "e" ? 1 : 0), get.call(records, txn, t, id));
  records.edges = (...a) => (count.scans++, edges.apply(records, a));
  try {
    await fn();
  } finally {
    records.get = get;
    records.edges = edges;
  }
  return count;
}

async function graph(compat: 1 | 2, rules: string) {
  const ds = newDs({ compat });
  const edges = Array.from({ length: K }, () => "RELATE prof:vic->e->pub:1 SET public = false;").join("");
  const setup = await run(ds, rootSession(), `DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
    DEFINE TABLE prof SCHEMALESS PERMISSIONS FULL; DEFINE TABLE pub SCHEMALESS PERMISSIONS FULL; ${rules}
    CREATE user:mal, prof:vic, prof:bob, pub:1; ${edges} RELATE user:mal->e->pub:1 SET public = true;`);
  expect(setup.filter((o) => "err" in o)).toEqual([]);
  const mal = recordSession("user", "mal");
  const ask = async (q: string) => (await run(ds, mal, q))[0];
  return { ds, ask };
}

/** The rules, and how many edges the client's own step (`user:mal->e`) finds. */
const DECIDED: [string, string, number][] = [
  ["in hidden (field NONE)", "DEFINE TABLE e SCHEMALESS PERMISSIONS FULL; DEFINE FIELD in ON e PERMISSIONS FOR select NONE;", 0],
  ["in shown to its own node (field WHERE $value = $auth.id)", "DEFINE TABLE e SCHEMALESS PERMISSIONS FULL; DEFINE FIELD in ON e PERMISSIONS FOR select WHERE $value = $auth.id;", 1],
  ["edge shown to its `in` (table WHERE in = $auth.id)", "DEFINE TABLE e SCHEMALESS PERMISSIONS FOR select WHERE in = $auth.id, FOR create, update, delete NONE;", 1],
  ["in hidden by its field, the edge by a rule reading another field", "DEFINE TABLE e SCHEMALESS PERMISSIONS FOR select WHERE public = true, FOR create, update, delete NONE; DEFINE FIELD in ON e PERMISSIONS FOR select NONE;", 0],
];

describe.each([1, 2] as const)("compat %i: graph steps and edges hidden by their near side", (compat) => {
  it.each(DECIDED)("%s: a node with hidden edges costs what a node with none does; answers unchanged", async (_name, rules, own) => {
    const { ds, ask } = await graph(compat, rules);
    const vic = await work(ds, async () => expect(await ask("RETURN count(prof:vic->e)")).toEqual({ ok: 0 }));
    const bob = await work(ds, async () => expect(await ask("RETURN count(prof:bob->e)")).toEqual({ ok: 0 }));
    expect(vic).toEqual(bob);
    expect(vic.reads).toBe(0);
    // the client's own edge is still found, and root's step reads them all
    expect(await ask("RETURN count(user:mal->e)")).toEqual({ ok: own });
    expect((await run(ds, rootSession(), "RETURN count(prof:vic->e)"))[0]).toEqual({ ok: K });
  });

  it("the mirror step (`<-` over edges whose `out` is hidden) is skipped the same way; one table rule serves both sides", async () => {
    const { ds, ask } = await graph(compat, "DEFINE TABLE e SCHEMALESS PERMISSIONS FULL; DEFINE FIELD out ON e PERMISSIONS FOR select NONE;");
    const pub = await work(ds, async () => expect(await ask("RETURN count(pub:1<-e)")).toEqual({ ok: 0 }));
    expect(pub.reads).toBe(0);
    expect(await ask("RETURN count(prof:vic->e)")).toEqual({ ok: K });
    const both = await graph(compat, "DEFINE TABLE e SCHEMALESS PERMISSIONS FOR select WHERE out = $auth.id, FOR create, update, delete NONE;");
    expect(await both.ask("RETURN [count(prof:vic<->e), count(pub:1<-e)]")).toEqual({ ok: [0, 0] });
    expect((await work(both.ds, () => both.ask("RETURN count(prof:vic->e)"))).reads).toBe(K);
    expect((await work(both.ds, () => both.ask("RETURN count(pub:1<-e)"))).reads).toBe(0);
  });

  it("a rule reading more of the edge than its near side is judged edge by edge (the residual SECURITY.md names)", async () => {
    const { ds, ask } = await graph(compat, "DEFINE TABLE e SCHEMALESS PERMISSIONS FOR select WHERE public = true, FOR create, update, delete NONE;");
    const vic = await work(ds, async () => expect(await ask("RETURN count(prof:vic->e)")).toEqual({ ok: 0 }));
    expect(vic.reads).toBe(K);
    expect(await ask("RETURN count(user:mal->e)")).toEqual({ ok: 1 });
  });
});
