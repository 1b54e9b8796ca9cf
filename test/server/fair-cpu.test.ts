// Through the real server (attack pass 5, C3): while one record user's pipelined heavy queries run on two sockets, /health
// and root's `RETURN 1` are answered after a few of their CPU slices, not after a round of all of them. Counted, not
// timed: the scheduler reports every slice it grants; before the fair scheduler each event-loop turn resumed all 16.

import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import { scheduler, type Lane } from "../../src/exec/scheduler.js";
import type { SurrealServer } from "../../src/server/index.js";
import { open, type Client } from "./clients.js";

const SCHEMA = {
  1: `DEFINE SCOPE account SESSION 1h SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
  2: `DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE person SET email = $email) SIGNIN (SELECT * FROM person WHERE email = $email);`,
} as const;
const items = (n: number) => `string::split(string::repeat('a,', ${n - 1}) + 'a', ',')`;
/** Near the 32 KiB text limit (a long parse), then a loop that yields until the socket closes. */
const HEAVY = `RETURN array::len([${Array(3_000).fill("t:1").join(",")}]); FOR $i IN ${items(5000)} { FOR $j IN ${items(5000)} { LET $y = $j; } };`;
/** Queries one record user's connection runs at once (clientMaxInFlight). */
const IN_FLIGHT = 8;
const SOCKETS = 2;
/** Slices of the heavy queries allowed before a light request is answered: fewer than one round of them. */
const FEW = (IN_FLIGHT * SOCKETS) / 2;

const isHeavy = (lane: Lane) => typeof lane.identity === "string" && /^(Record|Scope)\0/.test(lane.identity);

/** GET /health on a fresh connection; resolves with the status once the answer's body ended. */
function health(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/health", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.each([1, 2] as const)("compat %i: fair CPU slices across connections", (compat) => {
  let db: SurqlAuth;
  let server: SurrealServer;
  let port: number;
  let heavySlices = 0;
  let untilSlices: { n: number; resolve: () => void } | undefined;
  const sockets: Client[] = [];

  beforeAll(async () => {
    db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, queryTimeoutMs: 60_000 });
    ({ server, port } = await db.listen("127.0.0.1", 0));
    await db.importText(`USE NS test DB test; DEFINE TABLE person SCHEMALESS PERMISSIONS FOR select WHERE id = $auth; ${SCHEMA[compat]}`);
    scheduler.onGrant = (lane) => {
      if (!isHeavy(lane)) return;
      heavySlices++;
      if (untilSlices !== undefined && heavySlices >= untilSlices.n) untilSlices.resolve();
    };
  });
  afterAll(async () => {
    scheduler.onGrant = undefined;
    for (const s of sockets) s.ws.terminate();
    await server.close();
  });

  it("answers /health and root's RETURN 1 after fewer heavy slices than there are heavy queries", async () => {
    const body = JSON.stringify({ NS: "test", DB: "test", [compat === 1 ? "SC" : "AC"]: "account", email: `mal${compat}@x` });
    const token = await (await fetch(`http://127.0.0.1:${port}/signup`, { method: "POST", headers: { accept: "text/plain" }, body })).text();
    const root = await open({ port });
    sockets.push(root);
    expect(await root.json({ id: 1, method: "signin", params: [{ user: "root", pass: "root" }] })).toHaveProperty("result");
    expect(await root.json({ id: 2, method: "use", params: ["test", "test"] })).toHaveProperty("result");
    for (let s = 0; s < SOCKETS; s++) {
      const mal = await open({ port });
      sockets.push(mal);
      expect(await mal.json({ id: 1, method: "authenticate", params: [token] })).toHaveProperty("result");
      expect(await mal.json({ id: 2, method: "use", params: ["test", "test"] })).toHaveProperty("result");
      for (let i = 0; i < IN_FLIGHT; i++) mal.ws.send(JSON.stringify({ id: 10 + i, method: "query", params: [HEAVY] }));
    }
    // every heavy query has parsed and looped a while: several rounds of slices
    await new Promise<void>((resolve) => (untilSlices = { n: IN_FLIGHT * SOCKETS * 3, resolve }));

    let before = heavySlices;
    expect(await health(port)).toBe(200);
    const duringHealth = heavySlices - before;

    before = heavySlices;
    const answer = await root.json({ id: 3, method: "query", params: ["RETURN 1"] });
    const duringRoot = heavySlices - before;
    expect(answer).toMatchObject({ id: 3, result: [{ status: "OK", result: 1 }] });

    expect(duringHealth).toBeLessThanOrEqual(FEW);
    expect(duringRoot).toBeLessThanOrEqual(FEW);
  });
});
