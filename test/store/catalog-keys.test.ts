// store/: catalog keys read back to what they name, and a namespace / database / table range holds exactly its own.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TAGS, VERSION_KEY, defKey, levelDefs, parseDefKey, subtree, type Level, type Tag } from "../../src/store/catalog-keys.js";
import { DefMap } from "../../src/store/catalog.js";
import { keyString } from "../../src/store/kv/bytes.js";
import { recordKey } from "../../src/store/kv/keys.js";
import type { Key, KeyRange } from "../../src/store/kv/types.js";

const name = fc.oneof(fc.string(), fc.constantFrom("", "a", "a\u0000", "a\u0001b", "ab", "ä"));
const level: fc.Arbitrary<Level> = fc.oneof(
  fc.constant({}),
  name.map((ns) => ({ ns })),
  fc.tuple(name, name).map(([ns, db]) => ({ ns, db })),
  fc.tuple(name, name, name).map(([ns, db, tb]) => ({ ns, db, tb })),
);
const tagsOf = (at: Level): readonly Tag[] => (at.ns === undefined ? TAGS.root : at.db === undefined ? TAGS.ns : at.tb === undefined ? TAGS.db : TAGS.tb);
const inside = (k: Key, r: KeyRange) => keyString(k) >= keyString(r.start) && keyString(k) < keyString(r.end);

describe("catalog keys", () => {
  it("read back to their level, tag and name", () => {
    fc.assert(
      fc.property(level, name, fc.nat(), (at, n, i) => {
        const tags = tagsOf(at);
        const tag = tags[i % tags.length]!;
        expect(parseDefKey(defKey(at, tag, n))).toEqual({ at: { ns: at.ns, db: at.db, tb: at.tb }, tag, name: n });
        expect(inside(defKey(at, tag, n), levelDefs(at))).toBe(true);
      }),
    );
  });

  it("a map's keys, made from its cached level-and-tag prefix, are the keys defKey makes", () => {
    fc.assert(
      fc.property(level, name, name, fc.nat(), (at, n, m, i) => {
        const tags = tagsOf(at);
        const map = new DefMap(at, tags[i % tags.length]!);
        expect(map.keyOf(n)).toEqual(defKey(at, map.tag, n));
        expect(map.keyOf(m)).toEqual(defKey(at, map.tag, m));
      }),
    );
  });

  it("a subtree holds its definitions, children and records, and nothing of a namespace whose name it prefixes", () => {
    fc.assert(
      fc.property(name, name, name, (ns, other, id) => {
        fc.pre(ns !== other);
        const range = subtree({ ns });
        expect(inside(defKey({ ns }, "db", "d"), range)).toBe(true);
        expect(inside(defKey({ ns, db: "d", tb: "t" }, "fd", "f"), range)).toBe(true);
        expect(inside(recordKey(ns, "d", "t", id), range)).toBe(true);
        expect(inside(defKey({ ns: other }, "db", "d"), range)).toBe(false);
        expect(inside(recordKey(other, "d", "t", id), range)).toBe(false);
        expect(inside(defKey({}, "ns", ns), range)).toBe(false);
      }),
    );
  });

  it("sorts a level's definitions before its children, and is not confused with the version key", () => {
    expect(keyString(defKey({ ns: "n" }, "us", "zzz")) < keyString(defKey({ ns: "n", db: "a" }, "tb", "t"))).toBe(true);
    expect(parseDefKey(VERSION_KEY)).toBeUndefined();
    expect(inside(VERSION_KEY, levelDefs({}))).toBe(true);
  });
});
