// exec/statements/define-checks: 2.x's nested field type check and SCHEMAFULL index columns (facts from the 2.6.0 oracle).

import { describe, expect, it } from "vitest";
import type { IdiomPart, TypeKind } from "../../../src/ast/nodes.js";
import { parseType } from "../../../grammar/index.js";
import { allowsNested } from "../../../src/exec/statements/define-checks.js";
import { newDs, rootSession, run } from "../helpers.js";

const f = (name: string): IdiomPart => ({ kind: "Field", name });
const all: IdiomPart = { kind: "All" };
const first: IdiomPart = { kind: "Index", index: { kind: "Literal", value: 0 } };
const t = (text: string): TypeKind => parseType(text);

describe("allowsNested", () => {
  it.each([
    ["object", [f("b")], "int", true],
    ["object", [all], "int", true],
    ["option<object>", [f("b")], "int", true],
    ["any", [f("b")], "int", true],
    ["array", [all], "int", true],
    ["array<object>", [all, f("n")], "int", true],
    // `first[0].secret` under option<array>, and `b[0]` checked as an element (oracle: `b[0]` int under array<string> refused)
    ["option<array>", [first, f("secret")], "string", true],
    ["array<string>", [first], "int", false],
    ["array<int>", [all], "int", true],
    ["string", [f("b")], "any", true],
    ["string", [f("b")], "int", false],
    ["object | string", [f("b")], "int", false],
    ["array<int>", [f("v")], "int", false],
    ["array<option<int>>", [all], "option<int>", false],
    ["record<x>", [f("p")], "int", false],
    ["option<string>", [f("b")], "int", false],
  ] as const)("%s at %j holding %s: %s", (parent, path, child, want) => {
    expect(allowsNested(t(parent), path, t(child))).toBe(want);
  });
});

describe.each([1, 2] as const)("DEFINE checks (compat %i)", (compat) => {
  it("a field under a string field is refused in 2.x only", async () => {
    const out = await run(newDs({ compat }), rootSession(), "DEFINE FIELD e ON x TYPE string; DEFINE FIELD e.f ON x TYPE int; DEFINE FIELD e.g ON x");
    const err = "Cannot set field `e.f` with type `int` as it mismatched with field `e` with type `string`";
    expect(out).toEqual(compat === 2 ? [{ ok: null }, { err }, { ok: null }] : [{ ok: null }, { ok: null }, { ok: null }]);
  });

  it("an index over an undefined field of a SCHEMAFULL table is refused in 2.x only (its first part is checked)", async () => {
    const out = await run(
      newDs({ compat }),
      rootSession(),
      "DEFINE TABLE sf SCHEMAFULL; DEFINE FIELD name ON sf TYPE object; DEFINE INDEX a ON sf FIELDS name.first; DEFINE INDEX b ON sf FIELDS name, `a-b`; DEFINE INDEX c ON free FIELDS nope",
    );
    const refused = compat === 2 ? { err: "The field '`a-b`' does not exist" } : { ok: null };
    expect(out).toEqual([{ ok: null }, { ok: null }, { ok: null }, refused, { ok: null }]);
  });

  it("INFO FOR TABLE keys a field by its escaped name", async () => {
    const out = await run(newDs({ compat }), rootSession(), "DEFINE FIELD `a-b` ON tt PERMISSIONS NONE; INFO FOR TABLE tt");
    expect((out[1] as { ok: { fields: object } }).ok.fields).toEqual({ "`a-b`": "DEFINE FIELD `a-b` ON tt PERMISSIONS NONE" });
  });
});
