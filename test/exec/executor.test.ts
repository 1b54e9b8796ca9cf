// exec/executor.ts: the `time` each statement reports — microseconds for system users, whole milliseconds for record
// users and guests (a µs time told a record user whether an index lookup hit a hidden record: attack finding F16).

import { describe, expect, it } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { formatElapsed } from "../../src/exec/executor.js";
import { newSession } from "../../src/exec/session.js";
import { RecordId } from "../../src/value/types.js";

const root = () => newSession({ ns: "t", db: "t", actor: { level: "Root", ns: undefined, db: undefined, id: "root", roles: ["OWNER"] } });

function recordUser(compat: 1 | 2) {
  const tk = { NS: "t", DB: "t", [compat === 1 ? "SC" : "AC"]: "account", ID: "user:1" };
  return newSession({ ns: "t", db: "t", actor: { level: compat === 1 ? "Scope" : "Record", ns: "t", db: "t", id: "user:1", roles: [] }, rd: new RecordId("user", 1n), ac: "account", tk });
}

describe("formatElapsed", () => {
  it("writes SurrealDB-style duration text", () => {
    expect(formatElapsed(999n)).toBe("999ns");
    expect(formatElapsed(41_400n)).toBe("41.400µs");
    expect(formatElapsed(1_000_000n)).toBe("1.000000ms");
    expect(formatElapsed(2_500_000_000n)).toBe("2.500000s");
  });
});

describe.each([1, 2] as const)("reported statement time (compat %i)", (compat) => {
  it("is whole milliseconds for a record user and a guest, finer for root", async () => {
    const ds = new Datastore({ compat, allowGuests: true });
    await ds.execute("DEFINE TABLE user PERMISSIONS FOR select WHERE id = $auth.id; DEFINE INDEX email ON user FIELDS email UNIQUE; CREATE user:1, user:2 SET email = rand::string()", root());
    const probe = "SELECT * FROM user WHERE email = 'x'; SELECT * FROM user WHERE email = 'y'; RETURN 1";
    const wholeMs = /^\d+\.000000ms$|^\d+\.000000s$/;
    for (const session of [recordUser(compat), newSession({ ns: "t", db: "t" })]) {
      for (const r of await ds.execute(probe, session)) expect(r.time).toMatch(wholeMs);
    }
    const rootTimes = (await ds.execute(probe, root())).map((r) => r.time);
    expect(rootTimes.some((t) => !wholeMs.test(t))).toBe(true);
  });
});
