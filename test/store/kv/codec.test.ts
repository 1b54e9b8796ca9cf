// store/kv/codec: every stored value kind round-trips through the document bytes exactly.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeDocument, decodeRecord, encodeDocument, encodeRecord } from "../../../src/store/kv/codec.js";
import { RecordId, Regex, type Value } from "../../../src/value/types.js";
import { documentValue, show } from "./values.js";

describe("document codec", () => {
  it("decode ∘ encode is the identity for every value kind", () => {
    fc.assert(
      fc.property(documentValue, (v) => {
        expect(show(decodeDocument(encodeDocument(v)))).toBe(show(v));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps int and float apart, NONE and NULL apart, and an own __proto__ key", () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}, "n": null}') as Record<string, Value>;
    doc.i = 1n;
    doc.f = 1;
    doc.none = undefined;
    const back = decodeDocument(encodeDocument(doc)) as Record<string, Value>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back).sort()).toEqual(["__proto__", "f", "i", "n", "none"]);
    expect([typeof back.i, typeof back.f, back.n, "none" in back && back.none === undefined]).toEqual(["bigint", "number", null, true]);
  });

  it("keeps a regex a regex", () => {
    const back = decodeDocument(encodeDocument({ re: new Regex("a/b") })) as Record<string, Value>;
    expect(back.re).toEqual(new Regex("a/b"));
    expect(back.re).toBeInstanceOf(Regex);
  });

  it("decodes bytes from a Buffer row as a plain Uint8Array copy", () => {
    const row = Buffer.from(encodeDocument({ b: new Uint8Array([1, 2, 3]) }));
    const back = decodeDocument(row) as { b: Uint8Array };
    row.fill(0);
    expect(back.b.constructor).toBe(Uint8Array);
    expect(Array.from(back.b)).toEqual([1, 2, 3]);
  });

  it("earlier encodings stay intact after later ones", () => {
    const first = encodeDocument({ a: "first" });
    for (let i = 0; i < 1000; i++) encodeDocument({ a: "x".repeat(i) });
    expect(decodeDocument(first)).toEqual({ a: "first" });
  });
});

describe("document codec and __proto__ keys", () => {
  it("keeps an own __proto__ key inside a record id's key and a range bound", async () => {
    const { RecordId, RecordIdRange } = await import("../../../src/value/types.js");
    const key = JSON.parse('{"__proto__": {"a": 1}}') as Record<string, Value>;
    const doc = { id: new RecordId("t", key), r: new RecordId("t", new RecordIdRange({ value: [key], inclusive: true }, undefined)) };
    const back = decodeDocument(encodeDocument(doc)) as { id: InstanceType<typeof RecordId>; r: InstanceType<typeof RecordId> };
    expect(Object.keys(back.id.id)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(back.id.id)).toBe(Object.prototype);
    expect(show(back)).toBe(show(doc));
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});

describe("record codec: the edge marker", () => {
  const ends = { id: new RecordId("likes", 1n), in: new RecordId("person", "a"), out: new RecordId("person", "b") };

  it("keeps an edge an edge, and a record with record-id ends that is none, none", () => {
    expect(decodeRecord(encodeRecord(ends, true))).toEqual({ doc: ends, edge: true });
    expect(decodeRecord(encodeRecord(ends, false))).toEqual({ doc: ends, edge: false });
    const plain = { id: new RecordId("t", 1n), in: 1n, __proto__x: "y" };
    expect(decodeRecord(encodeRecord(plain, false))).toEqual({ doc: plain, edge: false });
  });

  it("costs nothing on a record without record-id ends, and an edge's own __proto__ key survives", () => {
    const doc = { id: new RecordId("t", 1n), n: 1n };
    expect(encodeRecord(doc, false)).toEqual(encodeDocument(doc));
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, Value>;
    const back = decodeRecord(encodeRecord({ ...ends, ...proto }, true));
    expect([back.edge, Object.keys(back.doc).sort()]).toEqual([true, ["__proto__", "id", "in", "out"]]);
  });

  it("reads data stored before the marker: record-id `in` and `out` made an edge", () => {
    expect(decodeRecord(encodeDocument(ends))).toEqual({ doc: ends, edge: true });
    const half = { id: new RecordId("t", 1n), in: new RecordId("person", "a") };
    expect(decodeRecord(encodeDocument(half))).toEqual({ doc: half, edge: false });
  });
});
