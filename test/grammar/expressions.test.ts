import { describe, expect, it } from "vitest";
import { parse, parseExpr } from "../../grammar/index.js";
import { ParseError } from "../../src/errors/index.js";
import { expr, sexpr } from "./helpers.js";

const s = (t: string) => sexpr(expr(t));

describe("regex literals: `/` opens one only where an operand is expected (as SurrealDB's parser relexes it)", () => {
  it("after an operator, a bracket, a comma or an expression keyword", () => {
    expect(s("/a.c/")).toBe("/a.c/");
    expect(s("x = /a b/")).toBe("(= x /a b/)");
    expect(s("x AND /a/")).toBe("(&& x /a/)");
    expect(s("count(x, /a/)")).toBe("count(x, /a/)");
    expect(s("<string> /a/")).toBe("(<string> /a/)");
    expect(s("IF /a/ THEN 1 END")).toBe("(sub If)");
    expect(s("/a\\/b/ = x")).toBe("(= /a/b/ x)"); // `\/` escapes the slash, read as `/`
    expect(s("/\\d+/")).toBe("/\\d+/");
  });
  it("after an operand `/` divides, also after a name that is a keyword", () => {
    expect(s("a / b / c")).toBe("(/ (/ a b) c)");
    expect(s("1 /2/ 4")).toBe("(/ (/ 1 2) 4)");
    expect(s("$x / 2 / 3")).toBe("(/ (/ $x 2) 3)");
    expect(s("(10) / 2 / 5")).toBe("(/ (/ (sub 10) 2) 5)");
    expect(s("[1][0] / 2 / 1")).toBe("(/ (/ Array.[Index] 2) 1)");
    expect(s("value / 2 / count")).toBe("(/ (/ value 2) count)");
    expect(s("count() / 2 / 3")).toBe("(/ (/ count() 2) 3)");
  });
  it("an invalid pattern is a parse error with the regex crate's words; `//` stays a comment", () => {
    expect(() => parseExpr("/(/")).toThrow(/Invalid regex: regex parse error:\n {4}\(\n {4}\^\nerror: unclosed group/);
    expect(s("1 // comment")).toBe("1");
  });
});

describe("operator precedence (SurrealDB 2.6 as observed in the oracle)", () => {
  it("arithmetic", () => {
    expect(s("1 + 2 * 3")).toBe("(+ 1 (* 2 3))");
    expect(s("1 - 2 - 3")).toBe("(- (- 1 2) 3)");
    expect(s("2 ** 3 ** 2")).toBe("(** (** 2 3) 2)"); // oracle: 64
    expect(s("2 * 3 ** 2")).toBe("(* 2 (** 3 2))");
    expect(s("8 / 2 % 3")).toBe("(% (/ 8 2) 3)");
    expect(s("1 × 2 ÷ 3")).toBe("(/ (* 1 2) 3)");
  });
  it("?? and ?: bind tighter than arithmetic and comparison", () => {
    expect(s("2 ?? 1 + 1")).toBe("(+ (?? 2 1) 1)"); // oracle: 3
    expect(s("0 ?? 1 = 1")).toBe("(= (?? 0 1) 1)"); // oracle: false
    expect(s("a ?: b * c")).toBe("(* (?: a b) c)");
  });
  it("logic, equality, relation", () => {
    expect(s("a || b && c")).toBe("(|| a (&& b c))");
    expect(s("a OR b AND c")).toBe("(|| a (&& b c))");
    expect(s("a = 1 AND b > 2 OR c")).toBe("(|| (&& (= a 1) (> b 2)) c)");
    expect(s("2 = 1 < 3")).toBe("(= 2 (< 1 3))"); // oracle: false
    expect(s("2 == 1 < 3")).toBe("(== 2 (< 1 3))"); // oracle: false
    expect(s("true = 1 IN [1]")).toBe("(= true (INSIDE 1 Array))"); // oracle: true
    expect(s("1 + 2 IN [3]")).toBe("(INSIDE (+ 1 2) Array)");
    expect(s("1 < 2 < 3")).toBe("(< (< 1 2) 3)");
    expect(s("1 == 1 != false")).toBe("(!= (== 1 1) false)");
  });
  it("keyword and symbol operators map to canonical ops", () => {
    const op = (t: string) => {
      const e = expr(t);
      return e.kind === "Binary" ? e.op : e.kind;
    };
    expect(op("a IS b")).toBe("=");
    expect(op("a is not b")).toBe("!=");
    expect(op("a IN b")).toBe("INSIDE");
    expect(op("a NOT IN b")).toBe("NOTINSIDE");
    expect(op("a && b")).toBe("&&");
    for (const [sym, name] of [["∋", "CONTAINS"], ["∌", "CONTAINSNOT"], ["⊇", "CONTAINSALL"], ["⊃", "CONTAINSANY"], ["⊅", "CONTAINSNONE"], ["∈", "INSIDE"], ["∉", "NOTINSIDE"], ["⊆", "ALLINSIDE"], ["⊂", "ANYINSIDE"], ["⊄", "NONEINSIDE"]]) {
      expect(op(`a ${sym} b`)).toBe(name);
    }
    for (const w of ["CONTAINS", "CONTAINSNOT", "CONTAINSALL", "CONTAINSANY", "CONTAINSNONE", "INSIDE", "NOTINSIDE", "ALLINSIDE", "ANYINSIDE", "NONEINSIDE", "OUTSIDE", "INTERSECTS"]) {
      expect(op(`a ${w.toLowerCase()} b`)).toBe(w);
    }
    for (const o of ["==", "!=", "?=", "*=", "~", "!~", "?~", "*~", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "**", "??", "?:"]) expect(op(`a ${o} b`)).toBe(o);
    expect(op("a @@ b")).toBe("MATCHES");
  });
  it("chained relational operators are a parse error (SurrealDB 2 wording)", () => {
    for (const t of ["1 = 1 = true", "1 IN [1] CONTAINS 1", "1 IS 1 = true", "[1] CONTAINS 1 = true", "1 ~ 1 != x"]) {
      expect(() => parseExpr(t)).toThrow(ParseError);
      expect(() => parseExpr(t)).toThrow("Chaining relational operators have no defined associativity.");
    }
    expect(s("(1 = 1) = true")).toBe("(= (sub (= 1 1)) true)");
  });
  it("unary operators and casts bind tightest", () => {
    expect(s("!a = b")).toBe("(= (!a) b)");
    expect(s("-2 ** 2")).toBe("(** -2 2)"); // oracle: 4
    expect(s("-$x")).toBe("(-$x)");
    expect(s("<string> 1 + 1")).toBe("(+ (<string> 1) 1)");
    expect(s("<int> <string> 1")).toBe("(<int> (<string> 1))");
    const c = expr("<option<record<user>>> $x");
    expect(c).toEqual({ kind: "Cast", type: { kind: "Option", inner: { kind: "Record", tables: ["user"] } }, expr: { kind: "Param", name: "x" } });
  });
});

describe("calls, constants, subqueries, blocks, closures", () => {
  it("builtin names are lower-cased, custom fn:: names keep their spelling", () => {
    expect(expr("string::LEN('x')")).toMatchObject({ kind: "Call", name: "string::len" });
    expect(expr("crypto::argon2::compare(password, $pass)")).toMatchObject({ kind: "Call", name: "crypto::argon2::compare" });
    expect(expr("fn::MyFn(1, 2,)")).toMatchObject({ kind: "Call", name: "fn::MyFn" });
    expect(expr("count()")).toEqual({ kind: "Call", name: "count", args: [] });
    expect(expr("math::pi")).toEqual({ kind: "Constant", name: "math::pi" });
  });
  it("subqueries: parenthesised expressions and statements", () => {
    expect(expr("(1 + 2) * 3")).toMatchObject({ kind: "Binary", op: "*", left: { kind: "Subquery", inner: { kind: "Expr" } } });
    expect(expr("(SELECT * FROM user)")).toMatchObject({ kind: "Subquery", inner: { kind: "Select" } });
    expect(expr("(CREATE user SET a = 1)")).toMatchObject({ kind: "Subquery", inner: { kind: "Create" } });
    expect(expr("SELECT * FROM user")).toMatchObject({ kind: "Subquery", inner: { kind: "Select" } });
    expect(expr("IF $a THEN 1 ELSE 2 END")).toMatchObject({ kind: "Subquery", inner: { kind: "If", style: "Then" } });
  });
  it("blocks vs objects", () => {
    expect(expr("{ LET $x = 1; $x }")).toMatchObject({ kind: "Block", statements: [{ kind: "Let" }, { kind: "Expr" }] });
    expect(expr("{ a: 1 }")).toMatchObject({ kind: "Object" });
    expect(expr("{ 'a': 1 }")).toMatchObject({ kind: "Object" });
    expect(expr("{ }")).toMatchObject({ kind: "Object", entries: [] });
    expect(expr("{ RETURN 1; }")).toMatchObject({ kind: "Block" });
  });
  it("closures", () => {
    expect(expr("|$a: int, $b| $a + $b")).toMatchObject({ kind: "Closure", args: [{ name: "a", type: { kind: "Basic", name: "int" } }, { name: "b", type: undefined }], returns: undefined, body: { kind: "Binary" } });
    expect(expr("|| 1")).toBeDefined();
  });
});

describe("range values (2.x, as 2.6.0 reads them)", () => {
  const range = (t: string) => {
    const e = expr(t);
    if (e.kind !== "RangeValue") throw new Error(`not a range: ${e.kind}`);
    return { begin: e.begin && `${sexpr(e.begin.expr)}${e.begin.inclusive ? "" : ">"}`, end: e.end && `${e.end.inclusive ? "=" : ""}${sexpr(e.end.expr)}` };
  };
  it("bounds: `1..5`, `1..=5`, `..5`, `1..`, `..`", () => {
    expect(range("1..5")).toEqual({ begin: "1", end: "5" });
    expect(range("1..=5")).toEqual({ begin: "1", end: "=5" });
    expect(range("..5")).toEqual({ begin: undefined, end: "5" });
    expect(range("1..")).toEqual({ begin: "1", end: undefined });
    expect(range("..")).toEqual({ begin: undefined, end: undefined });
  });
  it("a prefix binds tighter than a range, a range tighter than arithmetic; a cast takes the whole range", () => {
    expect(range("-2..2")).toEqual({ begin: "-2", end: "2" });
    expect(range("(1+1)..(2+2)")).toEqual({ begin: "(sub (+ 1 1))", end: "(sub (+ 2 2))" });
    expect(expr("1..5 + 1").kind).toBe("Binary"); // oracle: Cannot perform addition with '1..5' and '1'
    const c = expr("<array> 1..5");
    expect(c.kind === "Cast" && c.expr.kind).toBe("RangeValue");
  });
  it("an excluded begin: `>` touching `..` (`1>..3`, `1 >..3`); `1 > ..3` stays a comparison (oracle 2.6.0)", () => {
    expect(range("1>..3")).toEqual({ begin: "1>", end: "3" });
    expect(range("1 >..=3")).toEqual({ begin: "1>", end: "=3" });
    expect(range("1>..")).toEqual({ begin: "1>", end: undefined });
    expect(range("$a.b>..3")).toEqual({ begin: "$a.b>", end: "3" });
    expect(expr("1 > ..3")).toMatchObject({ kind: "Binary", op: ">", right: { kind: "RangeValue", begin: undefined } });
    const c = expr("<string> 1>..3");
    expect(c.kind === "Cast" && c.expr.kind).toBe("RangeValue");
  });
  it("no end after whitespace: `1.. 3` is `1..` then `3`, `1..= 3` an error (oracle 2.6.0)", () => {
    expect(() => parse("RETURN 1.. 3")).toThrow(/Parse error: Unexpected token `a number`/);
    expect(() => parse("RETURN 1 >..= 3")).toThrow(
      "Parse error: Unexpected whitespace, expected inclusive range to be immediately followed by a expression\n --> [1:14]\n  |\n1 | RETURN 1 >..= 3\n  |              ^ Whitespace between a range and it's operands is dissallowed",
    );
  });
  it("a bounded range right after a range is an error; an unbounded one takes the range before it (oracle 2.6.0)", () => {
    for (const [q, col] of [["RETURN 1..3..5", 14], ["RETURN 1..3>..5", 15], ["RETURN 1>..>..3", 15], ["RETURN 1..>..3", 14]] as const) {
      expect(() => parse(q), q).toThrow(`Parse error: Chaining range operators has no specified associativity\n --> [1:${col}]`);
    }
    expect(() => parse("RETURN 1..3..=4;")).toThrow("Parse error: Chaining range operators has no specified associativity\n --> [1:14]\n  |\n1 | RETURN 1..3..=4;\n  |              ^^^ use");
    for (const t of ["1..3..", "1>..>..", "1..>.."]) {
      const e = expr(t);
      expect(e.kind === "RangeValue" && e.end === undefined && e.begin?.expr.kind, t).toBe("RangeValue");
    }
  });
  it("record id ranges and division are unchanged", () => {
    expect(expr("person:1..3").kind).toBe("RecordId");
    expect(s("10 / 2 / 5")).toBe("(/ (/ 10 2) 5)");
  });
});

describe("MATCHES with a reference `@N@` (oracle 2.6.0 / 1.5.4)", () => {
  it("reads the reference (a u8), with whitespace inside in 2.x only", () => {
    expect(expr("a @1@ 'x'")).toMatchObject({ kind: "Binary", op: "MATCHES", ref: 1 });
    expect(expr("a @@ 'x'")).not.toHaveProperty("ref");
    expect(parse("RETURN 'a' @ 1 @ 'b'")).toHaveLength(1);
    expect(() => parse("RETURN 'a' @ 1 @ 'b'", { compat: 1 })).toThrow(/Parse error: Unexpected whitespace/);
  });
  it("refuses a reference past 255, a float, a sign, a boolean operator", () => {
    expect(() => parse("RETURN 'a' @256@ 'b'")).toThrow("Parse error: Invalid integer: number too large to fit in target type\n --> [1:13]");
    expect(() => parse("RETURN 'a' @1.5@ 'b'")).toThrow("Parse error: Unexpected character `.` starting float, only integers are allowed here\n --> [1:14]");
    for (const q of ["RETURN 'a' @-1@ 'b'", "RETURN 'a' @AND@ 'b'", "RETURN 'a' @1,OR@ 'b'"]) expect(() => parse(q), q).toThrow(ParseError);
  });
});

describe("2.x syntax that 1.x refuses (oracle: 1.5.4 answers 'Failed to parse query')", () => {
  it("closures", () => {
    expect(() => parse("RETURN |$x| $x + 1", { compat: 1 })).toThrow(/Parse error: Unexpected token `\|`/);
    expect(() => parse("LET $f = |$x: int| -> int { $x }", { compat: 1 })).toThrow(/Parse error: Unexpected token `\|`/);
    expect(parse("RETURN |$x| $x + 1", { compat: 2 })).toHaveLength(1);
  });
  it("the kinds regex, range, function and literal kinds, in casts and field types", () => {
    for (const q of ["RETURN <regex> 'a.c'", "RETURN <range> 1", "RETURN <function> 1", "RETURN <array<regex>> []", "DEFINE FIELD f ON t TYPE option<regex>", "DEFINE FIELD f ON t TYPE 'a' | 'b'", "DEFINE FIELD f ON t TYPE true"]) {
      expect(() => parse(q, { compat: 1 }), q).toThrow(/Parse error: Unexpected token `[^`]+`, expected a kind name/);
      expect(parse(q, { compat: 2 }), q).toHaveLength(1);
    }
  });
  it("an excluded range start `1>..3` (1.5.4 refuses `>..`; its `1..3` is NONE)", () => {
    expect(() => parse("RETURN 1>..3", { compat: 1 })).toThrow(/Parse error: A range with an excluded start/);
    expect(parse("RETURN 1..3", { compat: 1 })).toHaveLength(1);
    expect(parse("SELECT * FROM p:1>..3", { compat: 1 })).toHaveLength(1);
  });
  it("regex literals stay (1.5.4: `'abc' = /a.c/` is true)", () => {
    expect(parse("RETURN 'abc' = /a.c/", { compat: 1 })).toHaveLength(1);
  });
});

describe("statement and literal words as tables before `:` (`select:a`)", () => {
  it("1.x reads them as record ids, 2.x refuses them (oracle), and a word with a space before `:` stays a keyword", () => {
    for (const q of ["RETURN select:a", "RETURN [if:1, none:1, true:1]", "CREATE update:x"]) {
      expect(parse(q, { compat: 1 })[0], q).toMatchObject({ kind: q.startsWith("CREATE") ? "Create" : "Return" });
      expect(() => parse(q, { compat: 2 }), q).toThrow(/Unexpected token `:`/);
    }
    expect(parse("RETURN select:a", { compat: 1 })[0]).toMatchObject({ value: { kind: "RecordId", table: "select" } });
    expect(parse("RETURN { if: true, select: 1 }", { compat: 1 })[0]).toMatchObject({ value: { kind: "Object" } });
    expect(() => parse("RETURN select :a", { compat: 1 })).toThrow();
  });
});

describe("1.x strings inside a record key", () => {
  it("stay strings, not record ids (1.5.4: a:['A:0'] keeps the text 'A:0')", () => {
    expect(parse("RETURN a:['A:0', { b: 'c:d' }]", { compat: 1 })[0]).toMatchObject({
      value: { kind: "RecordId", key: { kind: "Array", items: [{ kind: "Literal", value: "A:0" }, { kind: "Object" }] } },
    });
    expect(parse("RETURN ['A:0']", { compat: 1 })[0]).toMatchObject({ value: { kind: "Array", items: [{ kind: "RecordId" }] } });
  });
});
