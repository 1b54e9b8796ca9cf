// value/object: own-key access — prototype members are no keys, and `__proto__` is written as an ordinary key.

import { describe, expect, it } from "vitest";
import { cloneValue } from "../../src/value/clone.js";
import { fromJson, toJson } from "../../src/value/json.js";
import { hasField, ownField, setField } from "../../src/value/object.js";
import type { Value, ValueObject } from "../../src/value/types.js";

const protoKeys = (): string[] => Object.getOwnPropertyNames(Object.prototype).sort();
const before = protoKeys();
const untouched = () => {
  expect(protoKeys()).toEqual(before);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
};

describe("ownField / hasField", () => {
  it("read prototype members as NONE", () => {
    const o: ValueObject = { a: 1n };
    for (const k of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      expect(ownField(o, k)).toBeUndefined();
      expect(hasField(o, k)).toBe(false);
    }
    expect(ownField(o, "a")).toBe(1n);
  });

  it("read an own __proto__ key, and a key holding NONE is held", () => {
    const o: ValueObject = JSON.parse('{"__proto__": 1}') as ValueObject;
    o.none = undefined;
    expect(ownField(o, "__proto__")).toBe(1);
    expect([hasField(o, "none"), ownField(o, "none")]).toEqual([true, undefined]);
  });
});

describe("setField", () => {
  it("writes __proto__ as an own key and leaves the prototype alone", () => {
    const o: ValueObject = {};
    setField(o, "__proto__", { x: 1n });
    expect(Object.keys(o)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(ownField(o, "__proto__")).toEqual({ x: 1n });
    setField(o, "__proto__", 2n);
    expect(ownField(o, "__proto__")).toBe(2n);
    untouched();
  });

  it("writes other keys as plain assignment", () => {
    const o: ValueObject = {};
    setField(o, "constructor", 1n);
    expect(Object.keys(o)).toEqual(["constructor"]);
    expect(o.constructor).toBe(1n);
  });
});

describe("value conversions keep a __proto__ key", () => {
  const withProto = (): ValueObject => {
    const o: ValueObject = { b: 1n };
    setField(o, "__proto__", { x: 1n });
    return o;
  };

  it("cloneValue", () => {
    const c = cloneValue(withProto());
    expect(Object.keys(c).sort()).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    untouched();
  });

  it("toJson and fromJson", () => {
    const j = toJson(withProto()) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(["__proto__", "b"]);
    const back = fromJson(JSON.parse('{"__proto__": {"x": 1}, "b": 1}')) as Record<string, Value>;
    expect(Object.keys(back).sort()).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    untouched();
  });
});
