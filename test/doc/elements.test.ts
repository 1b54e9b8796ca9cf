// doc/elements: a write of an array under an element rule (`tags[*]`) is merged against the stored array by the rules
// (attack pass 7, E7; stricter than SurrealDB, which judges the new array index by index and drops what lies past it):
// hidden elements stay, visible elements the update rule denies cannot be removed or changed, and what the client sees
// after a write depends only on what it saw. Also: a nested field the update rule denies survives its parent's removal.

import { describe, expect, it } from "vitest";
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
