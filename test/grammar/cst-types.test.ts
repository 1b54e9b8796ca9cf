// grammar/cst.ts (the CST node types to-ast/ reads) is generated from the parser: it must match the rules as they are.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CST_TYPES_FILE, cstTypesText } from "../../grammar/gen-cst.js";

describe("grammar/cst.ts", () => {
  it("is up to date with the parser's rules (else run `node --import tsx grammar/gen-cst.ts`)", () => {
    expect(readFileSync(CST_TYPES_FILE, "utf8")).toBe(cstTypesText());
  });
});
