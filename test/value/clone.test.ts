import { describe, expect, it } from "vitest";
import { cloneValue } from "../../src/value/clone.js";
import { RecordId } from "../../src/value/types.js";

describe("cloneValue", () => {
  it("deep-copies containers and shares immutable values", () => {
    const rid = new RecordId("user", 1n);
    const src = { a: [1n, { b: rid }], c: new Uint8Array([1]) };
    const copy = cloneValue(src);
    expect(copy).toEqual(src);
    expect(copy.a).not.toBe(src.a);
    expect((copy.a[1] as { b: RecordId }).b).toBe(rid);
    expect(copy.c).not.toBe(src.c);
  });
});
