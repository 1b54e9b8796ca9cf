// Property: a cell the matrix decides statically (✓* / ✗*) is what the engine does — for generated select rules, a
// guest and a record user see the table's record exactly when the matrix says always, and never when it says never.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SurqlAuth } from "../../../src/index.js";
import { accessMatrix } from "../../../src/iam/matrix/index.js";
import type { Cell } from "../../../src/iam/matrix/types.js";
import { cell } from "./helpers.js";

/** Clause atoms: ones the matrix can decide for some identity, and ones it cannot. */
function atoms(compat: 1 | 2): fc.Arbitrary<string> {
  const [v, ac, rd] = compat === 2 ? ["$access", "ac", "rd"] : ["$scope", "sc", "sd"];
  return fc.constantFrom(
    "true",
    "false",
    `${v} = 'a'`,
    `${v} = 'b'`,
    `${v} != NONE`,
    `${v} IN ['a', 'c']`,
    "$auth",
    "$token",
    "$auth = NONE",
    "$auth != NONE",
    "$auth.id = NONE",
    "$token = NONE",
    `$session.${rd} = NONE`,
    `$session.${ac} = 'a'`,
    "id = $auth.id",
    "id != NONE",
    "owner = $auth",
    "owner = NONE",
    "string::len(name) = 3",
  );
}

function clause(compat: 1 | 2): fc.Arbitrary<string> {
  const { tree } = fc.letrec<{ tree: string }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atoms(compat),
      fc.tuple(tie("tree"), fc.constantFrom("AND", "OR"), tie("tree")).map(([a, op, b]) => `(${a} ${op} ${b})`),
      tie("tree").map((a) => `!(${a})`),
    ),
  }));
  return tree;
}

const schema = (compat: 1 | 2, rule: string): string => `USE NS app DB app;
${compat === 2 ? "DEFINE ACCESS a ON DATABASE TYPE RECORD" : "DEFINE SCOPE a"} SIGNUP (CREATE user SET name = $name) SIGNIN (SELECT * FROM user WHERE name = $name);
DEFINE TABLE t PERMISSIONS FOR select WHERE ${rule};
CREATE t:1 SET name = 'abc';
CREATE t:2 SET name = 'abc', owner = user:nobody;`;

/** The rows the engine shows; `expected` from the cell when it is decided (both rows alike). */
async function rows(conn: ReturnType<SurqlAuth["connect"]>): Promise<number | string> {
  const [res] = await conn.query("SELECT * FROM t");
  return res!.status === "OK" ? (res!.result as unknown[]).length : `ERR ${String(res!.result)}`;
}

const expected = (c: Cell): number | undefined => (c.decision === "always" ? 2 : c.decision === "never" ? 0 : undefined);

describe("the matrix agrees with the engine where it decides a rule", () => {
  for (const compat of [2, 1] as const) {
    it(`compat ${compat}: guests and record users`, { timeout: 120_000 }, async () => {
      let decided = 0;
      await fc.assert(
        fc.asyncProperty(clause(compat), async (rule) => {
          const db = await SurqlAuth.open({ compat, allowGuests: true });
          await db.importText(schema(compat, rule));
          const m = accessMatrix(db.engine.catalog, { compat });
          const guestCell = cell(m, "t", "anonymous", "select");
          const userCell = cell(m, "t", `${compat === 2 ? "access" : "scope"}:a`, "select");
          const guest = db.connect({ ns: "app", db: "app" });
          const user = db.connect({ ns: "app", db: "app" });
          await user.signup({ NS: "app", DB: "app", [compat === 2 ? "AC" : "SC"]: "a", name: "ann" });
          for (const [who, c, conn] of [["guest", guestCell, guest], ["record user", userCell, user]] as const) {
            const want = expected(c);
            if (want === undefined) continue;
            decided++;
            expect(await rows(conn), `${who}: ${rule}`).toBe(want);
          }
        }),
        { numRuns: 60 },
      );
      // the property decided something: it can fail
      expect(decided).toBeGreaterThan(20);
    });
  }
});
