// store/kv/bytes: a key's string form is one char per byte (so string order is byte order) and reads back to the bytes.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareKeys, keyBytes, keyString } from "../../../src/store/kv/bytes.js";

const charPerByte = (b: Uint8Array): string => Array.from(b, (c) => String.fromCharCode(c)).join("");

describe("keyString", () => {
  it("is one char per byte for every byte value, short and long keys", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(keyString(all)).toBe(charPerByte(all));
    const long = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
    expect(keyString(long)).toBe(charPerByte(long));
    expect(keyString(new Uint8Array(0))).toBe("");
  });

  it("reads a view of a larger buffer from its own offset only", () => {
    const whole = Uint8Array.from({ length: 64 }, (_, i) => i + 100);
    const view = whole.subarray(10, 20);
    expect(keyString(view)).toBe(charPerByte(whole.slice(10, 20)));
    expect(keyString(Buffer.from(view))).toBe(keyString(view));
  });

  it("round trips through keyBytes and orders as the bytes do", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        expect(keyBytes(keyString(a))).toEqual(a);
        const bytewise = Math.sign(compareKeys(a, b));
        const stringwise = keyString(a) < keyString(b) ? -1 : keyString(a) > keyString(b) ? 1 : 0;
        expect(stringwise).toBe(bytewise);
      }),
    );
  });
});
