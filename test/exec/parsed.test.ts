// Parsed texts kept for reuse are kept per compat: 1.x reads a record-id string literal as a record id.

import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/exec/parsed.js";

describe("parseQuery", () => {
  it("answers a kept text as the compat asking reads it", () => {
    const kind = (compat: 1 | 2) => {
      const [s] = parseQuery("RETURN 'user:ann'", compat);
      return s?.kind === "Return" ? s.value.kind : undefined;
    };
    expect([kind(1), kind(2), kind(1), kind(2)]).toEqual(["RecordId", "Literal", "RecordId", "Literal"]);
  });
});
