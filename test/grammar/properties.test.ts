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
    // Internal failures are wrapped as `Failed to parse query: internal: …` ParseErrors: those are bugs too.
    if (e instanceof ParseError) return e.line >= 1 && e.column >= 1 && !e.message.includes("internal:");
    throw e;
  }
}

// DEFINE TABLE / FIELD … PERMISSIONS text like the differential fuzzer writes (and longer): FOR lists with and
// without commas, several actions per FOR, WHERE conditions with IN / CONTAINS / NONE / $auth, and the expected
// permission of every action (the last FOR naming it wins; unnamed: tables NONE, fields FULL).
type Perm = { kind: "None" } | { kind: "Full" } | { kind: "Where" };
const ACTIONS = ["select", "create", "update", "delete"] as const;
const operand = fc.constantFrom("owner", "a", "b", "c", "id", "$auth", "$auth.id", "$value", "NONE", "NULL", "1", "-1", "'x'", "[1, 2]", "[]", "{}", "user:alice", "true");
const relation = fc.tuple(operand, fc.constantFrom("=", "!=", "==", ">", "<=", "IN", "NOT IN", "CONTAINS", "CONTAINSNOT", "INSIDE", "IS", "IS NOT"), operand).map(([l, op, r]) => `${l} ${op} ${r}`);
const condition = fc
  .array(fc.oneof(relation, relation.map((r) => `(${r})`), operand), { minLength: 1, maxLength: 3 })
  .chain((parts) => fc.array(fc.constantFrom("AND", "OR", "&&", "||"), { minLength: parts.length - 1, maxLength: parts.length - 1 }).map((ops) => parts.map((p, i) => (i === 0 ? p : `${ops[i - 1]} ${p}`)).join(" ")));
const permValue = fc.oneof(fc.constantFrom("FULL", "NONE"), condition.map((c) => `WHERE ${c}`));
const forClause = (actions: readonly string[]) =>
  fc.tuple(fc.uniqueArray(fc.constantFrom(...actions), { minLength: 1, maxLength: actions.length }), fc.boolean(), permValue).map(([acts, upper, v]) => ({
    acts,
    v,
    text: `FOR ${acts.map((a) => (upper ? a.toUpperCase() : a)).join(", ")} ${v}`,
  }));
const permissionsClause = (isField: boolean) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom("NONE", "FULL").map((v) => ({ text: `PERMISSIONS ${v}`, expect: Object.fromEntries(ACTIONS.map((a) => [a, v === "NONE" ? "None" : "Full"])) })) },
    {
      weight: 5,
      arbitrary: fc.tuple(fc.array(forClause(ACTIONS), { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 })).map(([fors, commas]) => {
        const expect: Record<string, string> = Object.fromEntries(ACTIONS.map((a) => [a, isField ? "Full" : "None"]));
        for (const f of fors) for (const a of f.acts) expect[a] = f.v === "FULL" ? "Full" : f.v === "NONE" ? "None" : "Where";
        return { text: `PERMISSIONS ${fors.map((f, i) => f.text + (i < fors.length - 1 && commas[i] ? "," : "")).join(" ")}`, expect };
      }),
    },
  );
const definePermissions = fc.oneof(
  fc.tuple(fc.constantFrom("", " SCHEMAFULL", " SCHEMALESS", " DROP SCHEMAFULL", " TYPE NORMAL"), permissionsClause(false), fc.constantFrom("", " COMMENT 'c'")).map(([head, p, tail]) => ({
    text: `DEFINE TABLE t${head} ${p.text}${tail};`,
    expect: p.expect,
  })),
  fc.tuple(fc.constantFrom("", " TYPE int", " TYPE option<string> DEFAULT NONE", " TYPE int ASSERT $value >= 0", " FLEXIBLE TYPE object"), permissionsClause(true), fc.constantFrom("", " COMMENT 'c'")).map(([head, p, tail]) => ({
    text: `DEFINE FIELD f ON t${head} ${p.text}${tail};`,
    expect: p.expect,
  })),
);

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
  it("generated DEFINE TABLE / FIELD … PERMISSIONS text parses to the permissions it names", () => {
    fc.assert(
      fc.property(definePermissions, ({ text, expect: want }) => {
        const [s, ...rest] = parse(text);
        expect(rest).toHaveLength(0);
        if (s?.kind !== "DefineTable" && s?.kind !== "DefineField") throw new Error(`unexpected ${s?.kind}`);
        expect(Object.fromEntries(ACTIONS.map((a) => [a, (s.permissions[a] as Perm).kind]))).toEqual(want);
      }),
      { numRuns: 1500 },
    );
  });
  it("mutations and truncations of generated PERMISSIONS text yield statements or a ParseError", () => {
    const mutated = fc
      .tuple(definePermissions, fc.nat(), fc.nat(), fc.oneof(fc.constant(""), fc.constantFrom(...soupTokens).map((t) => ` ${t} `), fc.string({ maxLength: 3 })))
      .map(([{ text }, a, b, ins]) => {
        const i = a % (text.length + 1), j = b % (text.length + 1);
        return text.slice(0, Math.min(i, j)) + ins + text.slice(Math.max(i, j));
      });
    fc.assert(fc.property(mutated, parsesOrParseError), { numRuns: 2000 });
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
    // words that start a statement or are a literal (`select:a`, `none:1`): 2.x prints such a table in backticks, 1.5.4
    // prints it bare and reads it back, as compat 1 does; 2.6.0 prints `delete:0` bare and cannot read it (oracle)
    const WORDS = ["create", "define", "delete", "if", "insert", "relate", "remove", "select", "update", "upsert", "none", "null", "true", "false"];
    const table = fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/), fc.constantFrom(...WORDS));
    const key = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/),
      fc.array(fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.string({ maxLength: 5 })), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(table, key, fc.constantFrom(1 as const, 2 as const), (t, k, compat) => {
        fc.pre(!(compat === 2 && t === "delete"));
        const rid = new RecordId(t, k);
        const text = formatRecordId(rid, { compat });
        expect(parseRecordId(text, { compat })).toEqual(rid);
      }),
      { numRuns: 600 },
    );
  });
  it("record ids: keys with backslashes before a backslash, `⟩` or the end (seed 516949502's counterexample first)", () => {
    for (const k of ["\\\\ ", "\\", "a\\", "\\⟩", "\\\\\\⟩\\", "a\\b", "⟩\\`"]) {
      for (const compat of [1, 2] as const) {
        const rid = new RecordId("a", k);
        expect([compat, parseRecordId(formatRecordId(rid, { compat }))]).toEqual([compat, rid]);
      }
    }
  });
});
