// fast-check properties: parsing never throws anything but ParseError; durations and record ids round-trip through text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, parseExpr, parseRecordId } from "../../grammar/index.js";
import { ParseError } from "../../src/errors/index.js";
import { formatDuration } from "../../src/value/duration.js";
import { formatRecordId } from "../../src/value/record.js";
import { Duration, RecordId } from "../../src/value/types.js";

function parsesOrParseError(text: string): boolean {
  try {
    return Array.isArray(parse(text));
  } catch (e) {
    if (e instanceof ParseError) return e.line >= 1 && e.column >= 1;
    throw e;
  }
}

const soupTokens = [
  "SELECT", "FROM", "WHERE", "DEFINE", "TABLE", "FIELD", "ON", "TYPE", "USER", "ACCESS", "SCOPE", "TOKEN", "RECORD", "JWT",
  "PERMISSIONS", "FOR", "select", "NONE", "FULL", "IF", "THEN", "ELSE", "END", "LET", "RETURN", "CREATE", "UPDATE", "SET",
  "CONTENT", "DELETE", "INSERT", "INTO", "VALUES", "RELATE", "AND", "OR", "NOT", "IN", "IS", "CONTAINS", "VALUE", "AS",
  "DURATION", "SESSION", "SIGNIN", "SIGNUP", "WITH", "ISSUER", "KEY", "ALGORITHM", "HS512", "ROOT", "NS", "DB",
  "(", ")", "[", "]", "{", "}", ",", ";", ":", "::", ".", "..", "->", "<-", "<->", "=", "==", "!=", "+", "-", "*", "/", "**",
  "<", ">", "<=", ">=", "?", "??", "?:", "|", "||", "&&", "!", "$x", "$auth", "user", "a", "b", "1", "1.5", "1h", "'s'",
  '"t"', "user:1", "fn::f", "math::pi", "u'e72bee20-f49b-4c4b-9a47-0b4d0f5f9a5a'", "d'2024-01-01T00:00:00Z'", "⟨x⟩", "`y`",
  "<int>", "option<string>", "-- c\n", "/* c */", "#",
];

describe("parser robustness", () => {
  it("random text yields statements or a ParseError", () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), parsesOrParseError), { numRuns: 600 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), parsesOrParseError), { numRuns: 300 });
  });
  it("random token soup yields statements or a ParseError", () => {
    const soup = fc.array(fc.constantFrom(...soupTokens), { maxLength: 40 }).map((ts) => ts.join(" "));
    fc.assert(fc.property(soup, parsesOrParseError), { numRuns: 1500 });
  });
  it("mutations of valid statements yield statements or a ParseError", () => {
    const base = "DEFINE ACCESS a ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) WITH JWT ALGORITHM HS512 KEY 'k' DURATION FOR TOKEN 1h, FOR SESSION NONE; SELECT a.b[0], ->x->y FROM user:1 WHERE a IN [1, 2] ORDER BY a DESC LIMIT 3";
    const mutated = fc.tuple(fc.nat(base.length), fc.nat(base.length), fc.string({ maxLength: 3 })).map(([a, b, ins]) => base.slice(0, Math.min(a, b)) + ins + base.slice(Math.max(a, b)));
    fc.assert(fc.property(mutated, parsesOrParseError), { numRuns: 800 });
  });
});

describe("round trips through text", () => {
  it("durations", () => {
    const nanos = fc.bigInt({ min: 0n, max: 10n ** 20n });
    fc.assert(
      fc.property(nanos, (n) => {
        const e = parseExpr(formatDuration(new Duration(n)));
        expect(e).toMatchObject({ kind: "Literal", value: new Duration(n) });
      }),
      { numRuns: 300 },
    );
  });
  it("record ids with integer, string and array keys, both compats' spellings", () => {
    const table = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
    const key = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/),
      fc.array(fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.string({ maxLength: 5 })), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(table, key, fc.constantFrom(1 as const, 2 as const), (t, k, compat) => {
        // SurrealDB 1 prints ⟨…⟩ keys with raw backslashes, so a key ending in `\` cannot be read back (upstream too).
        fc.pre(!(compat === 1 && typeof k === "string" && k.endsWith("\\")));
        const rid = new RecordId(t, k);
        const text = formatRecordId(rid, { compat });
        expect(parseRecordId(text)).toEqual(rid);
      }),
      { numRuns: 600 },
    );
  });
});
