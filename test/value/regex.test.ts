import { describe, expect, it } from "vitest";
import { compareValues, formatRegex, isTruthy, looseEquals, MAX_REGEX_PROGRAM, MAX_REGEX_WORK, regexFrom, regexMatches, RegexSyntaxError, toJson, toSql, typeName } from "../../src/value/index.js";

const m = (pattern: string, text: string) => regexMatches(regexFrom(pattern), text);

describe("regex values (Rust regex syntax, matched by RE2)", () => {
  it("matches in time linear in the text: catastrophic patterns answer at once (attack pass 10, H2; no timing asserted: a backtracking engine never answers these within vitest's timeout)", () => {
    const text = `${"a".repeat(5000)}!`;
    for (const p of ["(a+)+$", "^(a|a)*$", "(a*)*b", "^(a|aa)+$", "^(\\w+\\s?)*$"]) expect(regexMatches(regexFrom(p), text)).toBe(false);
    expect(regexMatches(regexFrom("(a+)+!"), text)).toBe(true);
  });

  it("keeps Rust's Unicode \\w and \\d under RE2", () => {
    expect(regexMatches(regexFrom("^\\w+$"), "héllo")).toBe(true);
    expect(regexMatches(regexFrom("^\\d+$"), "٣٤")).toBe(true);
    expect(regexMatches(regexFrom("^\\W$"), "é")).toBe(false);
    expect(regexMatches(regexFrom("^[\\w-]+$"), "a-é")).toBe(true);
  });

  it("reads Rust's syntax: Unicode \\w \\d, leading flags, (?P<n>), \\A \\z, \\pL, escaped punctuation, POSIX classes, `]` first in a class", () => {
    expect(m("^\\w+$", "héllo")).toBe(true);
    expect(m("^\\d$", "٣")).toBe(true);
    expect(m("(?i)abc", "ABC")).toBe(true);
    expect(m("(?s)a.b", "a\nb")).toBe(true);
    expect(m("a.b", "a\nb")).toBe(false);
    expect(m("^(?P<x>a)b$", "ab")).toBe(true);
    expect(m("\\Aab", "xab")).toBe(false);
    expect(m("a\\z", "ab")).toBe(false);
    expect(m("^\\pL$", "é")).toBe(true);
    expect(m("^a\\-b\\#$", "a-b#")).toBe(true);
    expect(m("^[[:alpha:]][[:digit:]]$", "x9")).toBe(true);
    expect(m("^[]a]+$", "a]")).toBe(true);
  });
  it("refuses what the regex crate refuses, in its words", () => {
    expect(() => regexFrom("(")).toThrow(new RegexSyntaxError("regex parse error:\n    (\n    ^\nerror: unclosed group"));
    expect(() => regexFrom("a)")).toThrow(new RegexSyntaxError("regex parse error:\n    a)\n     ^\nerror: unopened group"));
    expect(() => regexFrom("[a")).toThrow(/unclosed character class/);
    expect(() => regexFrom("*")).toThrow(RegexSyntaxError);
  });
  it("prints `/…/` readable back (a `/` escaped in both compats, stricter than 1.5.4: H1), sends its pattern as JSON, is falsy and sorts after tables", () => {
    const r = regexFrom("a/b");
    expect(toSql(r, { compat: 2 })).toBe("/a\\/b/");
    expect(toSql(r, { compat: 1 })).toBe("/a\\/b/");
    expect(formatRegex(regexFrom("a\\/b"))).toBe("/a\\/b/");
    expect(toSql(regexFrom("a\nb"), { compat: 1 })).toBe("/a\\nb/");
    expect(toSql(r)).toBe("/a\\/b/");
    expect(toJson(r)).toBe("a/b");
    expect(isTruthy(r)).toBe(false);
    expect(typeName(r)).toBe("regex");
    expect(compareValues(r, "zzz")).toBe(1);
    expect(compareValues(regexFrom("a"), regexFrom("b"))).toBe(-1);
  });
  it("`=` matches a string on either side, only at the top level", () => {
    expect(looseEquals(regexFrom("a.c"), "xabcx")).toBe(true);
    expect(looseEquals("abd", regexFrom("a.c"))).toBe(false);
    expect(looseEquals([regexFrom("a")], ["a"])).toBe(false);
    expect(looseEquals(regexFrom("1"), 1n)).toBe(false);
  });
});

describe("regex size and work bounds (attack pass 11, I6)", () => {
  it("refuses a pattern past MAX_REGEX_PROGRAM instructions, or RE2's own size refusals, in Rust's size-limit words", () => {
    const tooBig = /^Compiled regex exceeds size limit of 10485760 bytes\.$/;
    expect(() => regexFrom("a?".repeat(MAX_REGEX_PROGRAM))).toThrow(tooBig);
    expect(() => regexFrom("a".repeat(2 * MAX_REGEX_PROGRAM + 1))).toThrow(tooBig);
    expect(() => regexFrom("(a{100}){100}")).toThrow(tooBig);
    expect(() => regexFrom("a?".repeat(MAX_REGEX_PROGRAM / 4))).not.toThrow();
    for (const p of ["(a{999}){999}", "((a{1000}){1000}){1000}"]) expect(() => regexFrom(p)).toThrow(RegexSyntaxError);
  });

  it("refuses nesting past 250 groups with Rust's span over the group", () => {
    const p = `${"(".repeat(251)}a${")".repeat(251)}`;
    expect(() => regexFrom(p)).toThrow(`    ${" ".repeat(250)}^^^\nerror: exceed the maximum number of nested parentheses/brackets (250)`);
    expect(() => regexFrom(`${"(".repeat(250)}a${")".repeat(250)}`)).not.toThrow();
  });

  it("refuses a match whose text length × program size passes MAX_REGEX_WORK, before running it", () => {
    const re = regexFrom("b+c+d+");
    expect(() => regexMatches(re, "a".repeat(Math.floor(MAX_REGEX_WORK / 8) + 1))).toThrow("The regex match is too costly");
    expect(regexMatches(re, "a".repeat(Math.floor(MAX_REGEX_WORK / 8)))).toBe(false);
  });
});
