// doc/: concrete paths of field definitions on array elements, and reading/writing them (both compats).

import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import type { IdiomPart } from "../../src/ast/nodes.js";
import { eachField, getPath, pickField, putPath, setPath, walkField, withoutPaths } from "../../src/doc/paths.js";

/** The parts of a DEFINE FIELD name as the grammar builds them. */
function name(text: string): readonly IdiomPart[] {
  const [s] = parse(`DEFINE FIELD ${text} ON t`);
  if (s?.kind !== "DefineField") throw new Error("not a field");
  return s.name.parts;
}

describe("walkField (write side)", () => {
  it("yields every element's path, NONE where an element lacks the field or is no object", () => {
    const doc = { emails: [{ verified: true }, {}, "x"] };
    for (const c of [1, 2] as const) {
      expect(walkField(doc, name("emails[*].verified"), c)).toEqual([
        [["emails", 0, "verified"], true],
        [["emails", 1, "verified"], undefined],
        [["emails", 2, "verified"], undefined],
      ]);
      expect(walkField(doc, name("emails.*.verified"), c)).toEqual(walkField(doc, name("emails[*].verified"), c));
    }
  });

  it("yields nothing for `[*]` over a missing field or a scalar, but a NONE path for a missing plain field", () => {
    expect(walkField({}, name("emails[*].verified"), 2)).toEqual([]);
    expect(walkField({ emails: "s" }, name("emails[*].verified"), 2)).toEqual([]);
    expect(walkField({}, name("a.b"), 2)).toEqual([[["a", "b"], undefined]]);
  });

  it("walks arrays of arrays", () => {
    const doc = { d: [[{ x: 1 }], [{ x: 2 }, { x: 3 }]] };
    expect(walkField(doc, name("d[*][*].x"), 2).map(([p]) => p)).toEqual([
      ["d", 0, 0, "x"],
      ["d", 1, 0, "x"],
      ["d", 1, 1, "x"],
    ]);
  });

  it("skips a name part met on an array (each element is the value), and `[n]` past the end", () => {
    expect(walkField({ f: [{ x: 1 }, 2] }, name("f.x"), 1)).toEqual([
      [["f", 0], { x: 1 }],
      [["f", 1], 2],
    ]);
    expect(walkField({ a: [] }, name("a[0].x"), 2)).toEqual([]);
    expect(walkField({ a: { "0": { x: 4 } } }, name("a[0].x"), 2)).toEqual([[["a", 0, "x"], 4]]);
  });

  it("`[*]` over an object: each value in 2.x, the object itself in 1.x", () => {
    expect(walkField({ e: { k: 3 } }, name("e[*]"), 2)).toEqual([[["e", "k"], 3]]);
    expect(walkField({ e: { k: 3 } }, name("e[*]"), 1)).toEqual([[["e"], { k: 3 }]]);
  });
});

describe("eachField (read side)", () => {
  it("yields only paths that exist", () => {
    const doc = { emails: [{ verified: true }, {}, "x", { verified: false }] };
    expect(eachField(doc, name("emails[*].verified"), 2)).toEqual([
      ["emails", 0, "verified"],
      ["emails", 3, "verified"],
    ]);
    expect(eachField({}, name("a.b"), 2)).toEqual([]);
    expect(eachField(undefined, name("a"), 1)).toEqual([]);
    expect(eachField({ h: { "0": { y: 1 } } }, name("h[0].y"), 2)).toEqual([]);
  });

  it("`[*]` over an object: each value in 2.x, the object itself in 1.x", () => {
    expect(eachField({ m: { a: 1, b: 2 } }, name("m.*"), 2)).toEqual([
      ["m", "a"],
      ["m", "b"],
    ]);
    expect(eachField({ m: { a: 1, b: 2 } }, name("m.*"), 1)).toEqual([["m"]]);
  });
});

describe("getPath / setPath", () => {
  it("read and write array elements by index (also the digits a data clause's `[0]` arrives as)", () => {
    const doc = { l: [{ x: 1 }, { x: 2 }] };
    expect(getPath(doc, ["l", 1, "x"])).toBe(2);
    expect(getPath(doc, ["l", "1", "x"])).toBe(2);
    expect(setPath(doc, ["l", "0", "x"], 5)).toEqual({ l: [{ x: 5 }, { x: 2 }] });
    expect(doc).toEqual({ l: [{ x: 1 }, { x: 2 }] });
  });

  it("removing an element moves the later ones up; an index past the end changes nothing", () => {
    expect(setPath({ g: [1, 2, 3] }, ["g", 0], undefined)).toEqual({ g: [2, 3] });
    expect(setPath({ g: [1] }, ["g", 4], 9)).toEqual({ g: [1] });
    expect(setPath({ g: [{ s: 1 }] }, ["g", 0, "s"], undefined)).toEqual({ g: [{}] });
  });
});

describe("withoutPaths", () => {
  it("removes every path given in the document's own coordinates, elements included", () => {
    const doc = { g: [1, 2, 3, 4, 5], e: [{ s: 1, n: 1 }, { s: 2 }], o: { a: 1, b: 2 } };
    expect(withoutPaths(doc, [["g", 0], ["g", 1], ["g", 3], ["e", 1, "s"], ["e", 0], ["o", "b"], ["o", "zz"], ["g", 9]])).toEqual({
      g: [3, 5],
      e: [{}],
      o: { a: 1 },
    });
    expect(doc.g).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("putPath (a processed field value)", () => {
  it("NONE keeps a NONE in an array element's place (1.x then removes the elements with withoutPaths)", () => {
    for (const c of [1, 2] as const) expect(putPath({ e: [1, 2, 3] }, ["e", 1], undefined, c)).toEqual({ e: [1, undefined, 3] });
  });

  it("turns NULL into an object (2.x also for NONE), leaves other scalars alone", () => {
    expect(putPath({ k: [null, 3] }, ["k", 0, "y"], 5, 1)).toEqual({ k: [{ y: 5 }, 3] });
    expect(putPath({ k: [null, 3] }, ["k", 1, "y"], 5, 2)).toEqual({ k: [null, 3] });
    expect(putPath({ k: [null] }, ["k", 0, "y"], undefined, 1)).toEqual({ k: [null] });
    expect(putPath({ k: [null] }, ["k", 0, "y"], undefined, 2)).toEqual({ k: [{}] });
  });

  it("creates missing objects for a value, and in 2.x for NONE too", () => {
    expect(putPath({}, ["a", "b"], 1, 1)).toEqual({ a: { b: 1 } });
    expect(putPath({}, ["a", "b"], undefined, 1)).toEqual({});
    expect(putPath({}, ["a", "b", "c"], undefined, 2)).toEqual({ a: { b: {} } });
    expect(putPath({ a: 5 }, ["a", "b"], undefined, 2)).toEqual({ a: 5 });
  });
});

describe("pickField (index values)", () => {
  it("reads a name from every element of an array, with or without `[*]`", () => {
    const doc = { emails: [{ address: "a" }, {}, { address: "b" }] };
    expect(pickField(doc, name("emails.address"))).toEqual(["a", undefined, "b"]);
    expect(pickField(doc, name("emails[*].address"))).toEqual(["a", undefined, "b"]);
    expect(pickField(doc, name("emails[2].address"))).toBe("b");
    expect(pickField({ emails: "x" }, name("emails.address"))).toBeUndefined();
  });
});
