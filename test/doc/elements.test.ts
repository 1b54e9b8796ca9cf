// doc/elements: a write of an array under an element rule (`tags[*]`) is merged against the stored array by the rules
// (attack pass 7, E7; stricter than SurrealDB, which judges the new array index by index and drops what lies past it):
// hidden elements stay, visible elements the update rule denies cannot be removed or changed, and what the client sees
// after a write depends only on what it saw. A write at an index (`tags[1] = …`, `items[1].n = …`, `+=` on an element,
// UNSET, PATCH) addresses the array as the client sees it (attack pass 8, F5). Also: a nested field the update rule
// denies survives its parent's removal.

import { describe, expect, it } from "vitest";
import { clientArrays } from "../../src/doc/elements.js";
import { newDs, recordSession, rootSession, run } from "../exec/helpers.js";

const SHAPES = [["a", "hidden", "b"], ["a", "b", "hidden"], ["hidden", "a", "b"]];

async function tagged(compat: 1 | 2, tags: string[], rule = "FOR select WHERE $value != 'hidden', FOR update NONE") {
  const ds = newDs({ compat });
  const star = compat === 1 ? "tags.*" : "tags[*]";
  const setup = await run(ds, rootSession(), `DEFINE TABLE p2 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD tags ON p2 PERMISSIONS FULL;
    DEFINE FIELD ${star} ON p2 PERMISSIONS ${rule}; CREATE p2:1 SET tags = ${JSON.stringify(tags)}`);
  expect(setup.filter((o) => "err" in o)).toEqual([]);
  const as = async (q: string) => (await run(ds, recordSession("user", "mal"), q))[0];
  const stored = async () => (await run(ds, rootSession(), "SELECT VALUE tags FROM ONLY p2:1"))[0];
  return { ds, as, stored };
}

describe.each([1, 2] as const)("element rules on writes (compat %s)", (compat) => {
  it.each(["SET tags = tags", "SET tags = ['x']", "SET tags = []", "SET tags -= 'b'", "SET x = 1", "CONTENT { tags: ['z'] }"])(
    "%s: the same answer for every place of the hidden element, which stays; update NONE elements stay",
    async (q) => {
      const answers = [];
      for (const tags of SHAPES) {
        const t = await tagged(compat, tags);
        answers.push(await t.as(`UPDATE p2:1 ${q} RETURN VALUE tags`));
        expect(await t.stored()).toEqual({ ok: tags });
      }
      expect(answers).toEqual([{ ok: [["a", "b"]] }, { ok: [["a", "b"]] }, { ok: [["a", "b"]] }]);
    },
  );

  it("a hidden element the client may update is still kept: its array replaces the visible slots only", async () => {
    const rule = "FOR select WHERE $value != 'hidden'";
    const out = [];
    for (const tags of SHAPES) {
      const t = await tagged(compat, tags, rule);
      out.push([await t.as("UPDATE p2:1 SET tags = ['x', 'y', 'z'] RETURN VALUE tags"), await t.stored()]);
    }
    expect(out).toEqual([
      [{ ok: [["x", "y", "z"]] }, { ok: ["x", "hidden", "y", "z"] }],
      [{ ok: [["x", "y", "z"]] }, { ok: ["x", "y", "hidden", "z"] }],
      [{ ok: [["x", "y", "z"]] }, { ok: ["hidden", "x", "y", "z"] }],
    ]);
    const t = await tagged(compat, ["a", "hidden", "b"], rule);
    expect(await t.as("UPDATE p2:1 SET tags = [] RETURN VALUE tags")).toEqual({ ok: [[]] });
    expect(await t.stored()).toEqual({ ok: ["hidden"] });
    expect(await t.as("UPDATE p2:1 SET tags += 'c' RETURN VALUE tags")).toEqual({ ok: [["c"]] });
    expect(await t.stored()).toEqual({ ok: ["hidden", "c"] });
  });

  it("an update rule judges each visible slot against the element stored there; removals it denies are kept", async () => {
    const t = await tagged(compat, ["keep", "hidden", "free", "keep2"], "FOR select WHERE $value != 'hidden', FOR update WHERE $before != 'keep' AND $before != 'keep2'");
    expect(await t.as("UPDATE p2:1 SET tags = ['x'] RETURN VALUE tags")).toEqual({ ok: [["keep", "keep2"]] });
    expect(await t.stored()).toEqual({ ok: ["keep", "hidden", "keep2"] });
  });

  const LOCKED = "FOR select WHERE $value != 'hidden', FOR update WHERE $value != 'hidden' AND $value != 'locked'";
  it.each([
    "SET tags[1] = 'z'",
    "SET tags[2] = 'w'",
    "SET tags[0] = 'x', tags[1] = 'y'",
    "SET tags[1] = 'locked'",
    "SET tags[0] = 'hidden'",
    "SET tags = ['hidden']",
    "SET tags += 'hidden'",
    "SET tags -= 'hidden'",
    "SET tags[0] = NONE",
    "UNSET tags[0]",
    "PATCH [{ op: 'replace', path: '/tags/1', value: 'y' }]",
    "MERGE { tags: ['hidden', 'a'] }",
  ])("%s answers alike with a hidden element anywhere or none, and writes the same visible array around it (F5)", async (q) => {
    const runs = [];
    for (const tags of [...SHAPES, ["a", "b"]]) {
      const t = await tagged(compat, tags, LOCKED);
      const answer = await t.as(`UPDATE p2:1 ${q} RETURN VALUE tags`);
      const stored = ((await t.stored()) as { ok: string[] }).ok;
      // the hidden element is kept, once; what else is stored is what the client was answered
      expect(stored.filter((x) => x === "hidden")).toHaveLength(tags.length - 2);
      runs.push({ answer, visible: stored.filter((x) => x !== "hidden") });
    }
    expect(new Set(runs.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(runs[0]!.answer).toEqual({ ok: [runs[0]!.visible] });
  });

  it("a TYPE on the array (its value copied by the cast) keeps the hidden element once, written or not", async () => {
    for (const q of ["SET x = 1", "SET tags[1] = 'z'", "SET tags = tags"]) {
      const ds = newDs({ compat });
      // (2.x defines tags[*] with the array's TYPE)
      const star = compat === 1 ? "tags.*" : "OVERWRITE tags[*]";
      const setup = await run(ds, rootSession(), `DEFINE TABLE p2 SCHEMALESS PERMISSIONS FULL; DEFINE FIELD tags ON p2 TYPE array<string>;
        DEFINE FIELD ${star} ON p2 TYPE string PERMISSIONS ${LOCKED}; CREATE p2:1 SET tags = ['a', 'hidden', 'b']`);
      expect(setup.filter((o) => "err" in o)).toEqual([]);
      await run(ds, recordSession("user", "mal"), `UPDATE p2:1 ${q}`);
      const [stored] = await run(ds, rootSession(), "SELECT VALUE tags FROM ONLY p2:1");
      expect(stored).toEqual({ ok: q === "SET tags[1] = 'z'" ? ["a", "hidden", "z"] : ["a", "hidden", "b"] });
    }
  });

  it("tags[1] is the client's second element, whichever stored slot it sits in; the hidden one keeps its place", async () => {
    const stored = [];
    for (const tags of [...SHAPES, ["a", "b"]]) {
      const t = await tagged(compat, tags, LOCKED);
      expect(await t.as("UPDATE p2:1 SET tags[1] = 'z' RETURN VALUE tags")).toEqual({ ok: [["a", "z"]] });
      stored.push(await t.stored());
    }
    expect(stored).toEqual([{ ok: ["a", "hidden", "z"] }, { ok: ["a", "z", "hidden"] }, { ok: ["hidden", "a", "z"] }, { ok: ["a", "z"] }]);
  });

  it("a field of an element by index (items[1].n = …, += on it) is the client's element's, with its hidden fields kept", async () => {
    const runs = [];
    const star = compat === 1 ? "items.*" : "items[*]";
    for (const items of ["[{ n: 1 }, { n: 2, hide: true }, { n: 3, s: 's' }]", "[{ n: 1 }, { n: 3, s: 's' }]"]) {
      const ds = newDs({ compat });
      await run(ds, rootSession(), `DEFINE TABLE q SCHEMALESS PERMISSIONS FULL; DEFINE FIELD ${star} ON q PERMISSIONS FOR select WHERE $value.hide != true;
        DEFINE FIELD ${star}.s ON q PERMISSIONS FOR select NONE; CREATE q:1 SET items = ${items}`);
      const answer = await run(ds, recordSession("user", "mal"), "UPDATE q:1 SET items[1].n = 9, items[0].n += 10 RETURN VALUE items");
      const [stored] = await run(ds, rootSession(), "SELECT VALUE items FROM ONLY q:1");
      runs.push({ answer, stored });
    }
    expect(runs).toEqual([
      { answer: [{ ok: [[{ n: 11 }, { n: 9 }]] }], stored: { ok: [{ n: 11 }, { n: 2, hide: true }, { n: 9, s: "s" }] } },
      { answer: [{ ok: [[{ n: 11 }, { n: 9 }]] }], stored: { ok: [{ n: 11 }, { n: 9, s: "s" }] } },
    ]);
  });

  it("root writes the array as given", async () => {
    const t = await tagged(compat, ["a", "hidden", "b"]);
    expect(await run(t.ds, rootSession(), "UPDATE p2:1 SET tags = ['x'] RETURN VALUE tags")).toEqual([{ ok: [["x"]] }]);
  });
});

describe.each([1, 2] as const)("a nested field the update rule denies, under a parent the client replaces (compat %s)", (compat) => {
  const SCHEMA = `DEFINE TABLE cx SCHEMALESS PERMISSIONS FULL; DEFINE FIELD secret ON cx PERMISSIONS FOR select, update NONE;
    DEFINE FIELD obj ON cx FLEXIBLE TYPE option<object>; DEFINE FIELD obj.inner ON cx PERMISSIONS FOR select, update NONE;
    CREATE cx:1 SET secret = 'S', obj = { inner: 'I', o: 1 }`;
  const writes = ["SET obj = NONE", "UNSET obj", "CONTENT { a: 1 }", "SET obj = { x: 1 }"];

  it.each(writes)("%s keeps obj.inner (as it keeps a top-level field with the same rule)", async (q) => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), SCHEMA);
    const [answer] = await run(ds, recordSession("user", "mal"), `UPDATE cx:1 ${q} RETURN VALUE obj.inner`);
    expect(answer).not.toHaveProperty("err");
    const [stored] = await run(ds, rootSession(), "SELECT VALUE [secret, obj.inner] FROM ONLY cx:1");
    expect(stored).toEqual({ ok: ["S", "I"] });
  });

  it("ON DUPLICATE KEY UPDATE obj = NONE keeps obj.inner; root replaces it", async () => {
    const ds = newDs({ compat });
    await run(ds, rootSession(), SCHEMA);
    await run(ds, recordSession("user", "mal"), "INSERT INTO cx { id: 1, a: 4 } ON DUPLICATE KEY UPDATE obj = NONE");
    expect(await run(ds, rootSession(), "SELECT VALUE [secret, obj.inner] FROM ONLY cx:1")).toEqual([{ ok: ["S", "I"] }]);
    await run(ds, rootSession(), "UPDATE cx:1 UNSET obj");
    expect(await run(ds, rootSession(), "SELECT * FROM ONLY cx:1")).toEqual([{ ok: { id: "cx:1", secret: "S" } }]);
  });
});

describe("clientArrays", () => {
  it("takes the hidden elements out of every array on the way, re-indexing the hidden ones below them", () => {
    const doc = { id: 1, g: [{ t: ["h", "a"] }, "H", { t: ["b", "h2"] }], o: ["x", "X"] };
    const elements = [["g", 1], ["g", 0, "t", 0], ["g", 2, "t", 1], ["o", 1]];
    expect(clientArrays(doc, elements, ["g", "1", "t", "0"])).toEqual({ doc: { id: 1, g: [{ t: ["h", "a"] }, { t: ["b"] }], o: ["x", "X"] }, elements: [["o", 1], ["g", 0, "t", 0]] });
    // a path past the visible elements, or through none, leaves the other arrays as stored
    expect(clientArrays(doc, elements, ["o"]).doc).toEqual({ ...doc, o: ["x"] });
    expect(clientArrays(doc, elements, ["z", "0"])).toEqual({ doc, elements });
  });
});
