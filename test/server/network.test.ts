// The network options `surql-auth start` flags set: --client-ip, --allow-origin, --no-identification-headers,
// --deny-arbitrary-query.

import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SurqlAuth, type NetworkOptions } from "../../src/index.js";
import type { SurrealServer } from "../../src/server/index.js";

const servers: SurrealServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(network: NetworkOptions, compat: 1 | 2 = 2, allowGuests = true): Promise<string> {
  const db = await SurqlAuth.open({ compat, allowGuests, root: { user: "root", pass: "root" } });
  await db.importText("USE NS app DB app; DEFINE TABLE t PERMISSIONS FULL; CREATE t:1;");
  const { server, port } = await db.listen("127.0.0.1", 0, undefined, network);
  servers.push(server);
  return `http://127.0.0.1:${port}`;
}

const root = { authorization: `Basic ${Buffer.from("root:root").toString("base64")}` };
const sql = (base: string, text: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/sql`, { method: "POST", body: text, headers: { accept: "application/json", "surreal-ns": "app", "surreal-db": "app", ...headers } });

async function sessionIp(base: string, headers: Record<string, string>): Promise<unknown> {
  const r = await sql(base, "RETURN $session.ip", { ...root, ...headers });
  return ((await r.json()) as { result: unknown }[])[0]!.result;
}

/** One RPC call on a fresh socket (signed in as root first when `signin`). */
async function rpc(base: string, method: string, params: unknown[], signin = false): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const ws = new WebSocket(`${base.replace("http", "ws")}/rpc`, "json");
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const call = (id: number, m: string, p: unknown[]) =>
    new Promise<{ result?: unknown; error?: { code: number; message: string } }>((resolve) => {
      ws.once("message", (d) => resolve(JSON.parse(String(d))));
      ws.send(JSON.stringify({ id, method: m, params: p }));
    });
  try {
    if (signin) await call(1, "signin", [{ user: "root", pass: "root" }]);
    return await call(2, method, params);
  } finally {
    ws.close();
  }
}

describe("--client-ip", () => {
  it("socket (default) takes the socket's address; a header source takes the header (X-Forwarded-For: the entry our proxy appended, the last); none: NONE", async () => {
    const headers = { "x-forwarded-for": "203.0.113.7, 10.0.0.1", "x-real-ip": "198.51.100.2", "cf-connecting-ip": "192.0.2.9" };
    expect(await sessionIp(await serve({}), headers)).toBe("127.0.0.1");
    expect(await sessionIp(await serve({ clientIp: "X-Forwarded-For" }), headers)).toBe("10.0.0.1");
    expect(await sessionIp(await serve({ clientIp: "X-Real-IP" }), headers)).toBe("198.51.100.2");
    expect(await sessionIp(await serve({ clientIp: "CF-Connecting-IP" }), headers)).toBe("192.0.2.9");
    expect(await sessionIp(await serve({ clientIp: "none" }), headers)).toBeNull();
  });

  it("attack pass 6, D7: the client's own entries or free text never become its address (the socket's is taken instead)", async () => {
    const xff = await serve({ clientIp: "X-Forwarded-For" });
    // a client that reaches us directly, or writes leading entries a proxy would keep, does not choose its address
    expect(await sessionIp(xff, {})).toBe("127.0.0.1");
    expect(await sessionIp(xff, { "x-forwarded-for": "6.6.6.6, garbage" })).toBe("127.0.0.1");
    expect(await sessionIp(xff, { "x-forwarded-for": "x".repeat(5000) })).toBe("127.0.0.1");
    expect(await sessionIp(xff, { "x-forwarded-for": "6.6.6.6, ::1" })).toBe("::1");
    expect(await sessionIp(await serve({ clientIp: "X-Real-IP" }), {})).toBe("127.0.0.1");
    expect(await sessionIp(await serve({ clientIp: "X-Real-IP" }), { "x-real-ip": "not an address" })).toBe("127.0.0.1");
  });
});

describe("--allow-origin and --no-identification-headers", () => {
  it("* answers any origin; a list answers only its own origins", async () => {
    const any = await serve({});
    expect((await fetch(`${any}/health`, { headers: { origin: "https://x.example" } })).headers.get("access-control-allow-origin")).toBe("*");
    const listed = await serve({ allowOrigin: ["https://app.example", "https://admin.example"] });
    const ok = await fetch(`${listed}/health`, { headers: { origin: "https://admin.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://admin.example");
    const other = await fetch(`${listed}/health`, { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("the server / surreal-version headers are there by default and gone with noIdentificationHeaders", async () => {
    expect((await fetch(`${await serve({})}/health`)).headers.get("surreal-version")).toBe("surrealdb-2.6.0");
    const hidden = await fetch(`${await serve({ noIdentificationHeaders: true })}/health`);
    expect([hidden.headers.get("surreal-version"), hidden.headers.get("server")]).toEqual([null, null]);
  });
});

describe("--deny-arbitrary-query", () => {
  it("guest: no query over RPC ('Method not allowed') nor POST /sql (403); signin, ping and version stay; others unaffected", async () => {
    const base = await serve({ denyArbitraryQuery: ["guest"] });
    expect(await rpc(base, "query", ["RETURN 1"])).toMatchObject({ error: { code: -32000, message: "Method not allowed" } });
    expect(await rpc(base, "use", ["app", "app"])).toMatchObject({ error: { message: "Method not allowed" } });
    expect(await rpc(base, "select", ["t"])).toMatchObject({ error: { message: "Method not allowed" } });
    expect(await rpc(base, "version", [])).toMatchObject({ result: "surrealdb-2.6.0" });
    expect(await rpc(base, "ping", [])).not.toHaveProperty("error");
    const denied = await sql(base, "RETURN 1");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ code: 403, details: "Forbidden", description: "Not allowed to do this.", information: "The HTTP route 'sql' is forbidden" });
    expect((await fetch(`${base}/key/t`, { headers: { accept: "application/json", "surreal-ns": "app", "surreal-db": "app" } })).status).toBe(403);
    // a system user still may
    expect(await rpc(base, "query", ["RETURN 1"], true)).toMatchObject({ result: [{ status: "OK", result: 1 }] });
    expect((await sql(base, "RETURN 1", root)).status).toBe(200);
    // and guests may where nothing is denied
    expect((await sql(await serve({}), "RETURN 1")).status).toBe(200);
  });

  it("system: root may sign in but not query", async () => {
    const base = await serve({ denyArbitraryQuery: ["system"] });
    expect(await rpc(base, "query", ["RETURN 1"], true)).toMatchObject({ error: { message: "Method not allowed" } });
    expect((await sql(base, "RETURN 1", root)).status).toBe(403);
  });
});
