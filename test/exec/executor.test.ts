// exec/executor.ts: the `time` each statement reports — microseconds for system users, whole milliseconds for record
// users and guests (a µs time told a record user whether an index lookup hit a hidden record: attack finding F16).
// An unexpected JS error inside a statement (a bug, a store failure) reaches the client only as the generic
// "An internal error occurred"; its detail goes to the datastore's internal-error hook (SurqlAuth: the server log).

import { afterEach, describe, expect, it, vi } from "vitest";
import { Datastore } from "../../src/exec/datastore.js";
import { formatElapsed } from "../../src/exec/executor.js";
import { newSession } from "../../src/exec/session.js";
import { SurqlAuth } from "../../src/index.js";
import { KvRecordStore } from "../../src/store/records.js";
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

const SECRET = "ENOENT: /var/lib/surql-auth/secret-path, token=abc123";

/** A record store whose scans fail with an internal-looking message. */
class FailingStore extends KvRecordStore {
  override scan(): never {
    throw new Error(SECRET);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("unexpected errors inside a statement, compat %i", (compat) => {
  it("answer the generic text, and the hook gets the original error (alone and inside a transaction)", async () => {
    const seen: unknown[] = [];
    const ds = new Datastore({ compat, records: new FailingStore(), onInternalError: (e) => seen.push(e) });
    const out = await ds.execute("SELECT * FROM t; RETURN 1; BEGIN; SELECT * FROM t; RETURN 2; COMMIT;", root());
    expect(out.map((r) => [r.status, r.result])).toEqual([
      ["ERR", "An internal error occurred"],
      ["OK", 1n],
      ["ERR", "An internal error occurred"],
      ["ERR", "The query was not executed due to a failed transaction"],
    ]);
    expect(out[0]!.status === "ERR" && out[0]!.error).toMatchObject({ code: "Internal" });
    expect(seen.map((e) => (e as Error).message)).toEqual([SECRET, SECRET]);
  });

  it("SurrealDB errors keep their text and are not reported as internal", async () => {
    const seen: unknown[] = [];
    const ds = new Datastore({ compat, onInternalError: (e) => seen.push(e) });
    const [r] = await ds.execute("THROW 'mine'", root());
    expect(r!.result).toBe("An error occurred: mine");
    expect(seen).toEqual([]);
  });

  it("over HTTP /sql the detail stays in the server log", async () => {
    const logged: unknown[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (msg: string, extra?: unknown) => logged.push([msg, extra]) };
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, logger });
    const { server, port } = await db.listen("127.0.0.1", 0);
    try {
      vi.spyOn(db.engine.records, "scan").mockImplementation(() => {
        throw new Error(SECRET);
      });
      const auth = `Basic ${Buffer.from("root:root").toString("base64")}`;
      const headers = { Accept: "application/json", Authorization: auth, [compat === 1 ? "NS" : "surreal-ns"]: "test", [compat === 1 ? "DB" : "surreal-db"]: "test" };
      const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers, body: "SELECT * FROM t" });
      const body = await res.text();
      expect(JSON.parse(body)[0]).toMatchObject({ status: "ERR", result: "An internal error occurred" });
      expect(body).not.toContain("secret-path");
      expect(JSON.stringify(logged)).toContain(SECRET);
    } finally {
      await server.close();
    }
  });
});

describe.each([1, 2] as const)("a large result gives the event loop a turn before the next statement (I5), compat %i", (compat) => {
  afterEach(() => vi.restoreAllMocks());
  it("each result over 1 MiB is followed by one setImmediate turn; small ones are not", async () => {
    const ds = new Datastore({ compat });
    const turns = async (returns: string) => {
      const spy = vi.spyOn(globalThis, "setImmediate");
      await ds.execute(`LET $a = string::repeat('a', 1000000); LET $s = $a + $a; ${returns}`, root());
      const n = spy.mock.calls.length;
      spy.mockRestore();
      return n;
    };
    const small = await turns("RETURN 1; RETURN 2; RETURN 3; RETURN 4;");
    const large = await turns("RETURN $s; RETURN $s; RETURN $s; RETURN $s;");
    // (the scheduler may give a turn of its own in either query)
    expect(large - small).toBeGreaterThanOrEqual(4);
  });
});
