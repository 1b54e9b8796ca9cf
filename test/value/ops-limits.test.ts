// value/ops.ts: string `+` stops at MAX_STRING_LENGTH, so a doubling loop answers an error instead of exhausting the
// process's memory (attack re-check R10: `array::fold(array::range(0, 28), 'a', |$acc, $i| $acc + $acc)` killed it).

import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { newSession } from "../../src/exec/session.js";
import { add, MAX_STRING_LENGTH } from "../../src/value/ops.js";

const root = () => newSession({ ns: "t", db: "t", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

describe("string + length bound", () => {
  it("joins up to the bound and refuses one character more", () => {
    const half = "a".repeat(MAX_STRING_LENGTH / 2);
    expect((add(half, half) as string).length).toBe(MAX_STRING_LENGTH);
    expect(() => add(half, half + "a")).toThrow(`a string must not exceed ${MAX_STRING_LENGTH} characters`);
  });

  it.each([1, 2] as const)("a doubling loop ends with the error (compat %i)", async (compat) => {
    const ds = new Datastore({ compat });
    const loop = compat === 2 ? "RETURN string::len(array::fold(array::range(0, 40), 'a', |$acc, $i| $acc + $acc))" : "CREATE s:1 SET v = 'a'; FOR $i IN [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30] { UPDATE s:1 SET v = v + v RETURN NONE; }";
    const rs = await ds.execute(loop, root());
    const errors = rs.filter((r) => r.status === "ERR").map((r) => r.result);
    // 1.x: the record holding the longest string `+` makes is one over the value size limit, refused at the write
    expect(errors.some((e) => /a (string|value) must not exceed/.test(String(e)))).toBe(true);
  });
});
