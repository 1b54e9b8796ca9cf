import { describe, expect, it } from "vitest";
import { isBuiltin, unknownFunctionMessage } from "../../../src/exec/functions/index.js";
import { Datetime, Uuid } from "../../../src/value/types.js";
import { call, errorOf } from "./helpers.js";

describe("registry", () => {
  it("knows builtins per compat", () => {
    expect(isBuiltin("count")).toBe(true);
    expect(isBuiltin("session::ac", 2)).toBe(true);
    expect(isBuiltin("session::ac", 1)).toBe(false);
    expect(isBuiltin("session::sc", 1)).toBe(true);
    expect(isBuiltin("foo::bar")).toBe(false);
  });
  it("unknown function texts (oracle: parse errors)", async () => {
    expect(unknownFunctionMessage("string::foo", 1)).toBe("Path is not a member of string");
    expect(unknownFunctionMessage("foo::bar", 2)).toBe("Invalid function/constant path");
    expect(await errorOf("foo::bar", [])).toBe("Invalid function/constant path");
  });
  it("arity texts (oracle, both versions)", async () => {
    expect(await errorOf("count", [1n, 2n])).toBe("Incorrect arguments for function count(). Expected 0 or 1 arguments.");
    expect(await errorOf("session::ns", [1n])).toBe("Incorrect arguments for function session::ns(). Expected no arguments.");
  });
  it("values in messages are printed per version (oracle)", async () => {
    const d = new Datetime(1704067200000000000n);
    const u = new Uuid("0190d8d4-2d4f-7a5c-b000-000000000000");
    const prefix = "Incorrect arguments for function array::len(). Argument 1 was the wrong type. Expected a array but found ";
    expect(await errorOf("array::len", [d], 1)).toBe(`${prefix}'2024-01-01T00:00:00Z'`);
    expect(await errorOf("array::len", [d], 2)).toBe(`${prefix}d'2024-01-01T00:00:00Z'`);
    expect(await errorOf("array::len", [u], 1)).toBe(`${prefix}'0190d8d4-2d4f-7a5c-b000-000000000000'`);
    expect(await errorOf("array::len", [u], 2)).toBe(`${prefix}u'0190d8d4-2d4f-7a5c-b000-000000000000'`);
    expect(await errorOf("type::int", [d], 1)).toBe("Expected a int but cannot convert '2024-01-01T00:00:00Z' into a int");
    expect(await errorOf("type::int", [d], 2)).toBe("Expected a int but cannot convert d'2024-01-01T00:00:00Z' into a int");
  });
  it("count and not", async () => {
    expect(await call("count", [])).toBe(1n);
    expect(await call("count", [[1n, 0n, true, null]])).toBe(2n);
    expect(await call("count", [0n])).toBe(0n);
    expect(await call("count", [undefined])).toBe(0n);
    expect(await call("count", [""])).toBe(0n);
    expect(await call("count", [{}])).toBe(0n);
    expect(await call("not", [0n])).toBe(true);
    expect(await errorOf("not", [])).toBe("Incorrect arguments for function not(). Expected 1 argument.");
    expect(await call("not", [""])).toBe(true);
  });
});
