// Property (issue #9 §2): noninterference. Whatever a record user (the attacker, user:eve) runs — generated SELECT /
// UPDATE / UPSERT / INSERT / RELATE / DELETE / CREATE, subqueries, graph steps, pushdown-friendly WHERE, FOR,
// closures, USE, protected variable names — none of the other record user's (user:victim) protected values reaches
// it, none of them changes, and with other secrets (a twin run) it sees exactly the same. Generators and the checker:
// test/properties/noninterference/. The long run: `npm run fuzz:nonint` (2,000 cases, prints a shrunk .surql repro).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AttackStep } from "./noninterference/attacks.js";
import type { IssueClass } from "./noninterference/classes.js";
import { checkNoninterference, nonintCase } from "./noninterference/property.js";
import { runCase } from "./noninterference/run.js";
import { marker } from "./noninterference/schema.js";

/**
 * Bypass classes still open on main (issue #9 class numbers in classes.ts): the generator leaves their attack shapes
 * out until the fix lands. Empty this list as the fixes merge; the long run (`npm run fuzz:nonint`) tries them all.
 */
const OPEN_CLASSES: readonly IssueClass[] = [];

/** The known attack shapes of each class, as text the generator must produce (checked without running them). */
const SHAPES: Record<IssueClass, RegExp> = {
  "protected-vars": /(query vars: \{ [^}]*\b(auth|session|token|access|scope):|LET \$(auth|session|token|access|scope) =|RPC let (auth|session|token|access|scope)|FOR \$(auth|session|token|access|scope) IN|\|\$(auth|session|token|access|scope)\|)/,
  "document-vars": /(query vars: \{ [^}]*\b(this|value|input|parent|before|after|event):|LET \$(this|value|parent|before|after) =|RPC let (this|value|input|parent|before|after|event)|FOR \$(this|value|parent) IN|\|\$(this|value|parent)\|)/,
  pushdown: /WHERE (email|owner|body|id) (=|==|>|<=) (<int> |math::sqrt\()?(user:victim\.|doc:v1\.|\$hidden|fn::hidden)/,
  "data-clauses": /(UPDATE|UPSERT) (user|user:victim|doc|doc:v1|profile) (SET|MERGE).*(password|body|ssn|\$parent\.)/,
  "insert-existing": /INSERT (RELATION )?INTO \w+ \{ id: (user:victim|doc:v1|profile:victim|knows:v)/,
  "array-fields": /emails\[\*\]\.secret|codes|grid|first\[0\]|SELECT \* FROM profile|profile:victim\.\*/,
  "graph-cond": /(->|<-)\(knows WHERE (<int> |math::sqrt\()?(note|in\.password|out\.password|\$this\.note)/,
  "use-other": /USE (DB other|NS m|NS n DB other)/,
  "param-shadow": /(query vars: \{ [^}]*\b(gate|default_admin):|LET \$(gate|default_admin) =|RPC let (gate|default_admin)|FOR \$(gate|default_admin) IN|\|\$(gate|default_admin)\||default_admin: true)/,
  "index-error": /title (=|:) 'v2'/,
  "field-update": /(UPDATE|MERGE|PATCH|INSERT|merge|update).*admin: true|admin = true/,
  "hidden-index": /FROM (profile|board|user)( WITH INDEX \w+)? WHERE (ssn|secret|password|info\.secret|info|codes|emails) (<|<=|>|>=|=|!=|CONTAINS) /,
  "field-errors": /board:victim (SET|MERGE) (x|\{ x)|board SET x|ON DUPLICATE KEY UPDATE x = 1|SET secret = 'SECRET_board_|probe = 1/,
  "v1-projections": /SELECT (VALUE )?(<int> |math::sqrt\(|array::len\(|\[|<string> )?(ssn|emails)/,
};

function text(steps: readonly AttackStep[]): string {
  return steps.map((s) => (s.kind === "let" ? `RPC let ${s.name}` : s.kind === "rpc" ? `RPC ${s.method} ${s.params}` : `query vars: { ${Object.keys(s.vars).map((k) => `${k}: `).join(", ")} }\n${s.sql}`)).join("\n");
}

describe("noninterference (issue #9 §2)", () => {
  it("the generator produces every class's known attack shapes", () => {
    const cases = fc.sample(nonintCase(new Set()), { numRuns: 2000, seed: 9 });
    for (const [cls, shape] of Object.entries(SHAPES)) {
      const hits = cases.filter((c) => shape.test(text(c.steps)) && (cls !== "array-fields" || c.schema.arrayField)).length;
      expect({ cls, enough: hits >= 20 }).toEqual({ cls, enough: true });
    }
    // An open class is left out entirely.
    const restricted = fc.sample(nonintCase(new Set<IssueClass>(["graph-cond", "array-fields"])), { numRuns: 500, seed: 9 });
    expect(restricted.some((c) => SHAPES["graph-cond"].test(text(c.steps)) || c.schema.arrayField)).toBe(false);
  });

  it("the checker sees a marker in a result, an error text and a record the attacker wrote, a changed victim record and an oracle", async () => {
    const [c] = fc.sample(nonintCase(new Set()), { numRuns: 1, seed: 1 });
    const step = (sql: string): AttackStep => ({ kind: "query", tag: "base", sql, vars: {} });
    const out = await runCase({ schema: c!.schema, steps: [step("RETURN 'SECRET_a_x1'"), step("THROW 'SECRET_b_x2'"), step("CREATE doc SET owner = $auth.id, body = 'SECRET_c_x3'"), step("RETURN 1")] });
    expect(out.violations.map((v) => v.split(":")[0])).toEqual(["step 1", "step 2", "step 3", "record doc"]);
    const changed = await runCase({ schema: c!.schema, steps: [step("RETURN 1")] }, "UPDATE doc:v1 SET title = 'changed'");
    expect(changed.violations.map((v) => v.split(" in ")[0])).toEqual(["the victim's protected state changed"]);
    // A rule that lets the secret decide (the twin's secrets sort after 'm', the first run's before): a count oracle.
    const oracle = await runCase({ schema: { ...c!.schema, userRow: "id = $auth.id OR email > 'm'" }, steps: [step("SELECT count() FROM user GROUP ALL")] });
    expect(oracle.violations.map((v) => v.split(":")[0])).toEqual(["step 1"]);
    expect(oracle.violations[0]).toContain("what the attacker sees depends on the victim's secrets");
  });

  it("field errors on board:victim's hidden secret after schema drift, a READONLY guess and an owner-rights event name no secret and tell no runs apart (A9)", async () => {
    const [c] = fc.sample(nonintCase(new Set()), { numRuns: 1, seed: 1 });
    const step = (sql: string): AttackStep => ({ kind: "query", tag: "field-errors", sql, vars: {} });
    for (const compat of [1, 2] as const) {
      for (const boardDrift of ["type", "assert", "value", "readonly"] as const) {
        for (const boardEvent of ["cast", "field"] as const) {
          const schema = { ...c!.schema, compat, boardDrift, boardEvent, boardField: "NONE", hiddenIndexes: false };
          const guess = `UPDATE board:victim SET secret = '${marker(schema, "board")}' RETURN NONE`;
          const steps = ["UPDATE board:victim SET x = 1", "INSERT INTO board { id: board:victim } ON DUPLICATE KEY UPDATE x = 1", guess, "UPDATE board:eve SET probe = 1 RETURN NONE"];
          const out = await runCase({ schema, steps: steps.map(step) });
          expect({ compat, boardDrift, boardEvent, violations: out.violations }).toEqual({ compat, boardDrift, boardEvent, violations: [] });
        }
      }
    }
  }, 60_000);

  it("a record user cannot read or change another record user's protected data (random seed, bounded)", async () => {
    const report = await checkNoninterference({ runs: 300, timeLimitMs: 15_000, open: OPEN_CLASSES });
    expect(report.failure).toBe("");
  }, 60_000);
});
