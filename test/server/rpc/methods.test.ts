// RPC method handlers on the real engine over a WebSocket (JSON): answers recorded from the SurrealDB oracle.

import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth } from "../../../src/index.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

/** `select` params → the `result` SurrealDB 2.6.0 / 1.5.4 (and 3.0.2) answer over JSON RPC (oracle, issue #9 class 12). */
const SELECT: { params: unknown[]; v2: unknown; v1: unknown }[] = [
  // an object is a value, not a table or a record: SurrealDB selects the value itself, in every version, and does not fail
  { params: [{ a: 1 }], v2: [{ a: 1 }], v1: [{ a: 1 }] },
  { params: [{}], v2: [{}], v1: [{}] },
  { params: [{ tb: "t", id: 1 }], v2: [{ id: 1, tb: "t" }], v1: [{ id: 1, tb: "t" }] },
  { params: [[{ a: 1 }]], v2: [{ a: 1 }], v1: [{ a: 1 }] },
  { params: [1], v2: [1], v1: [1] },
  { params: [null], v2: [], v1: [null] },
  { params: [[1, "t"]], v2: [1, "t"], v1: [1, "t"] },
  { params: ["t:1"], v2: { a: 1, id: "t:1" }, v1: { a: 1, id: "t:1" } },
  { params: ["t"], v2: [{ a: 1, id: "t:1" }], v1: [{ a: 1, id: "t:1" }] },
];

describe("RPC select over WebSocket JSON", () => {
  for (const compat of [1, 2] as const) {
    it(`compat ${compat}: objects and other values answer as SurrealDB ${compat === 2 ? "2.6.0" : "1.5.4"} does`, async () => {
      const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
      const { server, port } = await db.listen("127.0.0.1", 0);
      await db.importText("USE NS test DB test; CREATE t:1 SET a = 1;");
      const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { authorization: basic("root", "root"), "surreal-ns": "test", "surreal-db": "test" } });
      try {
        await new Promise((r) => ws.once("open", r));
        let id = 0;
        for (const step of SELECT) {
          ws.send(JSON.stringify({ id: ++id, method: "select", params: step.params }));
          const reply = JSON.parse((await new Promise<Buffer>((r) => ws.once("message", r))).toString()) as unknown;
          expect([step.params, reply]).toEqual([step.params, { id, result: compat === 2 ? step.v2 : step.v1 }]);
        }
      } finally {
        ws.close();
        await server.close();
      }
    });
  }
});
