// POST /import of a long body (attack pass 10, H4): SurrealDB's answer (one `{result, status, time}` per statement, as
// /sql) streamed as the chunks run, never held whole: the same list as one query in JSON and CBOR, a short body still
// one sized answer, and a client that does not read its answer holds the import (backpressure) rather than the server
// holding the answer.

import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurqlAuth } from "../../src/index.js";
import { decodeCbor } from "../../src/server/codec/cbor.js";
import type { SurrealServer } from "../../src/server/index.js";

const root = { authorization: `Basic ${Buffer.from("root:root").toString("base64")}`, "surreal-ns": "test", "surreal-db": "test" };

/** Statements past the length a body runs as one query (256 Ki characters). */
const LONG = Array.from({ length: 4000 }, (_, i) => `CREATE t:${i} SET n = ${i}, s = '${"x".repeat(60)}';`).join("\n");

describe.each([1, 2] as const)("POST /import streams its answer (compat %i)", (compat) => {
  let server: SurrealServer;
  let port: number;

  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" } });
    ({ server, port } = await db.listen("127.0.0.1", 0));
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (body: string, accept: string, db = "test") =>
    fetch(`http://127.0.0.1:${port}/import`, { method: "POST", headers: { ...root, "surreal-db": db, accept }, body });
  const count = async (db: string, table: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/sql`, { method: "POST", headers: { ...root, "surreal-db": db, accept: "application/json" }, body: `RETURN count(SELECT id FROM ${table})` });
    return ((await res.json()) as { result: number }[])[0]!.result;
  };

  it("a long body's JSON answer is sent in pieces (no length), one entry per statement, failures in their place", async () => {
    const text = `${LONG}\nCREATE t:0;\nRETURN 'end';`;
    const res = await post(text, "application/json", "json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    const list = (await res.json()) as { status: string; result: unknown; time: string }[];
    expect(list).toHaveLength(4002);
    expect(list.slice(0, 4000).every((r, i) => r.status === "OK" && (r.result as { n: number }[])[0]!.n === i)).toBe(true);
    expect(list[4000]!.status).toBe("ERR");
    expect(String(list[4000]!.result)).toMatch(/already exists/);
    expect(list[4001]).toMatchObject({ status: "OK", result: "end" });
    expect(await count("json", "t")).toBe(4000);
  }, 120_000);

  it("CBOR: the same list as an indefinite-length array", async () => {
    const res = await post(LONG, "application/cbor", "cbor");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/cbor");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes[0]).toBe(0x9f);
    expect(bytes.at(-1)).toBe(0xff);
    const list = decodeCbor(bytes, { maxItems: 1 << 20 }) as { status: string; result: { n: bigint }[] }[];
    expect(list.map((r) => [r.status, r.result[0]!.n])).toEqual(Array.from({ length: 4000 }, (_, i) => ["OK", BigInt(i)]));
  }, 120_000);

  it("a short body is one answer with its length, as before; octet-stream answers nothing", async () => {
    const res = await post("CREATE s:1; RETURN 2;", "application/json", "short");
    expect(res.headers.get("content-length")).not.toBeNull();
    expect(((await res.json()) as { result: unknown }[]).map((r) => r.result)).toEqual([[{ id: "s:1" }], 2]);
    const octet = await post(LONG, "application/octet-stream", "octet");
    expect(octet.status).toBe(200);
    expect((await octet.arrayBuffer()).byteLength).toBe(0);
    expect(await count("octet", "t")).toBe(4000);
  }, 120_000);

  it("a client that does not read its answer holds the import; reading lets it finish", async () => {
    // each answer ≈ 64 KiB: 600 statements answer ≈ 38 MiB, far past what the sockets' buffers take
    const text = Array.from({ length: 600 }, (_, i) => `CREATE big:${i} SET s = string::repeat('y', 65536) RETURN s; -- ${"z".repeat(400)}`).join("\n");
    let received = 0;
    const done = new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/import", method: "POST", headers: { ...root, "surreal-db": "held", accept: "application/json" } }, (res) => {
        res.pause();
        held.then(() => {
          res.on("data", (c: Buffer) => (received += c.length));
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.resume();
        }, reject);
      });
      req.on("error", reject);
      req.end(text);
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // while the answer is not read, the record count stops short of the end (the same over three reads)
    const seen: number[] = [];
    while (seen.length < 3 || new Set(seen.slice(-3)).size > 1) {
      seen.push(await count("held", "big"));
      await new Promise((r) => setTimeout(r, 300));
    }
    const last = seen.at(-1)!;
    expect(last).toBeLessThan(600);
    release();
    expect(await done).toBe(200);
    expect(received).toBeGreaterThan(600 * 65536);
    expect(await count("held", "big")).toBe(600);
  }, 120_000);
});
