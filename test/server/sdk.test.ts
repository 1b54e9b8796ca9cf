// The official `surrealdb` SDK (2.0.8) as the client of our server, over WebSocket and HTTP, with fake engine and IAM.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RecordId as SdkRecordId, Surreal, Table as SdkTable } from "surrealdb";
import { RecordId } from "../../src/value/types.js";
import { startServer, type TestServer } from "./fakes.js";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ compat: 2 });
});
afterAll(async () => {
  await s.close();
});

describe.each(["ws", "http"] as const)("SDK over %s", (scheme) => {
  async function connect(): Promise<Surreal> {
    const db = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
    await db.connect(`${scheme}://127.0.0.1:${s.port}/rpc`, { namespace: "n", database: "d", reconnect: false });
    return db;
  }

  it("connects (version check accepts surrealdb-2.6.0) and reports the version", async () => {
    const db = await connect();
    try {
      expect((await db.version()).version).toBe("surrealdb-2.6.0");
    } finally {
      await db.close();
    }
  });

  it("signs in, uses ns/db and queries with typed bindings", async () => {
    const db = await connect();
    try {
      const tokens = await db.signin({ username: "root", password: "root" });
      expect(tokens.access).toBe("tok-root");
      s.engine.respond = () => [{ status: "OK", result: [{ id: new RecordId("person", 1n), age: 42n }], time: "12.5µs" }];
      const [rows] = await db.query("SELECT * FROM $who", { who: new SdkRecordId("person", 1) }).collect<[{ id: SdkRecordId; age: number }[]]>();
      expect(rows).toHaveLength(1);
      expect(rows[0].id).toBeInstanceOf(SdkRecordId);
      expect(rows[0].id.toString()).toBe("person:1");
      expect(rows[0].age).toBe(42);
      expect(s.engine.last.query).toBe("SELECT * FROM $who");
      expect(s.engine.last.vars["who"]).toEqual(new RecordId("person", 1n));
      expect([s.engine.last.ns, s.engine.last.db]).toEqual(["n", "d"]);
      if (scheme === "ws") expect(s.engine.last.actor).toBe("root");
    } finally {
      await db.close();
    }
  });

  it("select goes through query and returns the engine's record", async () => {
    const db = await connect();
    try {
      s.engine.respond = () => [{ status: "OK", result: { id: new RecordId("person", "tobie"), name: "Tobie" }, time: "1ms" }];
      const rec = (await db.select(new SdkRecordId("person", "tobie"))) as unknown as { id: SdkRecordId; name: string };
      expect(rec.name).toBe("Tobie");
      expect(rec.id.table).toEqual(new SdkTable("person"));
    } finally {
      await db.close();
    }
  });

  it("a statement error reaches the SDK as a thrown error with SurrealDB's text", async () => {
    const db = await connect();
    try {
      s.engine.respond = () => [{ status: "ERR", result: "IAM error: Not enough permissions to perform this action", time: "1ms", error: new Error() as never }];
      await expect(db.query("DEFINE TABLE x").collect()).rejects.toThrow("IAM error: Not enough permissions to perform this action");
    } finally {
      await db.close();
    }
  });

  it("a failed signin reaches the SDK as a thrown error", async () => {
    const db = await connect();
    try {
      await expect(db.signin({ username: "root", password: "wrong" })).rejects.toThrow("There was a problem with authentication");
    } finally {
      await db.close();
    }
  });
});

describe("SDK against a v1 server", () => {
  it("the SDK's own version check refuses 1.5.4 unless disabled", async () => {
    const v1 = await startServer({ compat: 1 });
    try {
      const db = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
      await expect(db.connect(`ws://127.0.0.1:${v1.port}/rpc`, { reconnect: false })).rejects.toThrow(/surrealdb-1\.5\.4/);
      await db.close();
      const ok = new Surreal({ websocketImpl: WebSocket as unknown as typeof globalThis.WebSocket });
      await ok.connect(`ws://127.0.0.1:${v1.port}/rpc`, { reconnect: false, versionCheck: false });
      expect((await ok.version()).version).toBe("surrealdb-1.5.4");
      await ok.close();
    } finally {
      await v1.close();
    }
  });
});
