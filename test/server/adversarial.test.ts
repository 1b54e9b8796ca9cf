// Hostile SurrealQL through the real server: each family near the 1 MiB /sql body limit is answered with a parse
// error and /health keeps answering (bench/adversarial.ts has the families; no timings here).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MiB, parseFamilies } from "../../bench/adversarial.js";
import { SurqlAuth } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const headers = { accept: "application/json", authorization: basic("root", "root"), "surreal-ns": "test", "surreal-db": "test" };

/** The family's text at the largest size whose UTF-8 body fits the 1 MiB limit. */
function fitting(text: (size: number) => string): string {
  const t = text(MiB - 1024);
  const bytes = Buffer.byteLength(t);
  return bytes <= MiB ? t : text(Math.floor(((MiB - 1024) * t.length) / bytes) - 1024);
}

describe("SurrealDB 2.x mode: /sql answers hostile text with a parse error, /health stays up", () => {
  let server: SurrealServer;
  let base: string;
  beforeAll(async () => {
    const db = await SurqlAuth.open({ compat: 2, root: { user: "root", pass: "root" } });
    let port: number;
    ({ server, port } = await db.listen("127.0.0.1", 0));
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const families = parseFamilies.filter((f) => !f.flat);
  it.each(families.map((f) => [f.name, f] as const))("%s", async (_name, f) => {
    const body = fitting(f.text);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MiB);
    const [sql, health] = await Promise.all([
      fetch(`${base}/sql`, { method: "POST", headers, body }),
      fetch(`${base}/health`),
    ]);
    const text = await sql.text();
    expect(sql.status, text.slice(0, 200)).toBe(400);
    const answer = JSON.parse(text) as { information: string };
    expect(answer.information.includes(f.error), answer.information.slice(0, 200)).toBe(true);
    expect(health.status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
