// Hostile client text of 1 MiB is answered with a ParseError: every token kind left unterminated, long digit runs
// before a bad character, long flat input ending in an error, deep nesting. No timings here: a super-linear path
// would take minutes on 1 MiB and trip vitest's timeout (bench/adversarial.ts prints the figures).
import { describe, expect, it } from "vitest";
import { MiB, fill, parseFamilies } from "../../bench/adversarial.js";
import { parse } from "../../grammar/index.js";
import { MAX_RULE_DEPTH } from "../../grammar/parser.js";
import { parseFails } from "./helpers.js";

describe("1 MiB adversarial inputs end in a ParseError", () => {
  for (const f of parseFamilies) {
    it(f.name, () => {
      const e = parseFails(f.text(f.flat ? MiB / 4 : MiB));
      // (not toContain: a failure would print the 1 MiB message)
      expect(e.message.includes(f.error), e.message.slice(0, 200)).toBe(true);
      // the snippet stays one shortened line however long the input
      expect(e.message.length).toBeLessThan(f.error.startsWith("Unexpected token") ? MiB + 400 : 600);
    });
  }
});

describe("the unterminated-token errors point where SurrealDB does", () => {
  it("the error starts at the opening quote and spans the rest of the line", () => {
    const e = parseFails("RETURN [1, ⟨" + "a".repeat(100));
    expect(e.message).toContain(" --> [1:12]");
    expect(e.line).toBe(1);
    expect(e.column).toBe(12);
  });
  it("only the first lexing error is reported", () => {
    expect(parseFails("RETURN § 'abc").message).toContain("Invalid token `§`");
    expect(parseFails("RETURN 'abc' § ⟨").message).toContain("Invalid token `§`");
    expect(parseFails("RETURN ⟨a⟩ ⟨b").column).toBe(12);
  });
  it("a prefixed string left open is reported at its quote", () => {
    expect(parseFails("RETURN r'abc").column).toBe(9);
    expect(parseFails('RETURN d"2020').column).toBe(9);
  });
  it("a run of opening ⟨ ends at the first one", () => {
    expect(parseFails("RETURN " + fill("⟨", 10_000)).column).toBe(8);
  });
});

describe("long valid inputs still parse", () => {
  it("a 1 MiB string, identifier and comment", () => {
    expect(parse(`RETURN '${"a".repeat(MiB)}'`)).toHaveLength(1);
    expect(parse(`RETURN ⟨${"a\\⟩".repeat(MiB / 4)}⟩`)).toHaveLength(1);
    expect(parse(`RETURN 1 /*${"*".repeat(MiB)}*/`)).toHaveLength(1);
  });
  it("a long digit run is SurrealDB's 'too large' parse error, and leading zeros still read", () => {
    expect(() => parse("RETURN " + "1".repeat(MiB))).toThrow("Failed to parse number: number too large to fit in target type");
    expect(() => parse("RETURN " + "0".repeat(MiB) + "7")).not.toThrow();
  });
  it("nesting well past SurrealDB's own limits (20 subqueries, 100 objects) parses", () => {
    expect(() => parse("RETURN " + "(".repeat(100) + "1" + ")".repeat(100))).not.toThrow();
    expect(() => parse("RETURN " + "{a:".repeat(100) + "1" + "}".repeat(100))).not.toThrow();
    expect(() => parse("RETURN " + "(SELECT * FROM ".repeat(60) + "a" + ")".repeat(60))).not.toThrow();
    expect(() => parse("RETURN " + "|$a| (".repeat(50) + "1" + ")".repeat(50))).not.toThrow();
    expect(() => parse("RETURN " + "!".repeat(300) + "true")).not.toThrow();
  });
});

describe("nesting without brackets stops at the rule-depth bound, not at a stack overflow", () => {
  it("reports the token where the bound was reached", () => {
    // each `!` / `<int>` enters one rule, so the bound is met within the first MAX_RULE_DEPTH of them
    // (a stack overflow would come far later, wherever the JS stack ran out)
    for (const unit of ["!", "<int>", "- "]) {
      const e = parseFails("RETURN " + unit.repeat(5000) + "1");
      expect(e.message.startsWith("Parse error: Exceeded maximum parse depth\n")).toBe(true);
      expect(e.column).toBeGreaterThan(8 + unit.length * (MAX_RULE_DEPTH - 20));
      expect(e.column).toBeLessThanOrEqual(8 + unit.length * MAX_RULE_DEPTH);
    }
    expect(parseFails("RETURN " + "IF a THEN ".repeat(5000)).message.startsWith("Parse error: Exceeded maximum parse depth\n")).toBe(true);
  });
  it("the bracket guard still answers first for long bracket runs", () => {
    expect(parseFails("RETURN " + "[".repeat(MiB)).message).toContain("Exceeded maximum parse depth of 256\n --> [1:264]");
  });
});
