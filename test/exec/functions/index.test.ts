import { describe, expect, it } from "vitest";
import { isBuiltin, unknownFunctionMessage } from "../../../src/exec/functions/index.js";
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
  it("count and not", async () => {
    expect(await call("count", [])).toBe(1n);
    expect(await call("count", [[1n, 0n, true, null]])).toBe(2n);
    expect(await call("not", [""])).toBe(true);
  });
});
