// grammar/cst.ts (the CST node types to-ast/ reads) is generated from the parser: it must match the rules as they are.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DefineTableCstNode } from "../../grammar/cst.js";
import { CST_TYPES_FILE, cstTypesText } from "../../grammar/gen-cst.js";
import { has, nodes } from "../../grammar/to-ast/context.js";

describe("grammar/cst.ts", () => {
  it("is up to date with the parser's rules (else run `node --import tsx grammar/gen-cst.ts`)", () => {
    expect(readFileSync(CST_TYPES_FILE, "utf8")).toBe(cstTypesText());
  });
});

describe("to-ast/ reads the CST by checked keys", () => {
  it("a key the rule's node type lacks does not compile (npm run typecheck fails on a stale @ts-expect-error)", () => {
    const n = { name: "defineTable", children: { DROP: [] } } as unknown as DefineTableCstNode;
    // @ts-expect-error: DEFINE TABLE has no FIELDS clause
    expect(has(n, "FIELDS")).toBe(false);
    expect(has(n, "DROP")).toBe(true);
    expect(nodes(n, "permissions")).toEqual([]);
  });
});
