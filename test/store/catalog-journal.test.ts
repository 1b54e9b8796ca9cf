// store/catalog-journal: the catalog version's stored form (decimal digits) and its reading.

import { describe, expect, it } from "vitest";
import { decodeVersion, encodeVersion } from "../../src/store/catalog-journal.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("catalog version bytes", () => {
  it("reads back what it writes, from 0 to past 2^32", () => {
    for (const v of [0, 1, 9, 10, 42, 1234567, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER]) expect(decodeVersion(encodeVersion(v))).toBe(v);
  });

  it("reads no entry and an empty one as 0", () => {
    expect(decodeVersion(undefined)).toBe(0);
    expect(decodeVersion(new Uint8Array(0))).toBe(0);
  });

  it("reads other text as its number, as before the digit fast path", () => {
    for (const s of ["007", " 12", "1e3", "12a", "x", "1234567890123456789"]) expect(decodeVersion(bytes(s))).toBe(Number(s));
  });
});
