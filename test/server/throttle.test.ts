// The throttle on the wire (issue #13 §1), with a clock that stands still: POST /signin answers 429 with Retry-After and the catalogue's text, RPC signin
// the error "Too many attempts, retry after N s", and failed HTTP Basic checks per address (C4) end in 429 on routes and
// on the WebSocket upgrade. Both compats; limits set low so nothing depends on time.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Compat } from "../../src/exec/session.js";
import { SurqlAuth, type ThrottleLimits } from "../../src/index.js";
import { FakeClock } from "../iam/fake-engine.js";
import { jsonRpcSocket } from "./clients.js";

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(compat: Compat, throttle: Partial<ThrottleLimits>): Promise<string> {
  // a clock that stands still: Retry-After is exact
  const clock = new FakeClock(Date.now());
  const db = await SurqlAuth.open({ compat, clock, root: { user: "root", pass: "root" }, import: [`examples/schema-v${compat}.surql`], throttle });
  const { server, port } = await db.listen("127.0.0.1", 0);
  servers.push(server);
  return `127.0.0.1:${port}`;
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

describe.each([1, 2] as const)("throttled answers, compat %i", (compat) => {
  const hosts = { identity: "", address: "" };
  beforeAll(async () => {
    hosts.identity = await serve(compat, { signinMaxFailures: 2, backoffAfter: 0, ipMaxAttempts: 0 });
    hosts.address = await serve(compat, { signinMaxFailures: 0, backoffAfter: 0, ipMaxAttempts: 3 });
  }, 30_000);

  const signin = (host: string, fields: Record<string, unknown>) =>
    fetch(`http://${host}/signin`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: JSON.stringify({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", ...fields }),
    });

  it("POST /signin: 429, Retry-After and the text once an identity is locked, the same for an unknown one", async () => {
    for (const email of ["ghost@x.io", "alice@x.io"]) {
      for (let i = 0; i < 2; i++) expect((await signin(hosts.identity, { email, password: "wrong" })).status).toBe(400);
      const res = await signin(hosts.identity, { email, password: "wrong" });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("900");
      expect(await res.json()).toEqual({
        code: 429,
        details: "Too many requests",
        description: "Too many attempts: wait before trying again.",
        information: "Too many attempts, retry after 900 s",
      });
    }
  });

  it("RPC signin: the error 'Too many attempts, retry after N s'", async () => {
    const { ws, rpc } = await jsonRpcSocket(`ws://${hosts.identity}/rpc`);
    const creds = { NS: "app", DB: "app", user: "reader", pass: "wrong" };
    for (let i = 0; i < 2; i++) expect((await rpc("signin", [creds])).error?.message).toMatch(/authentication/);
    expect((await rpc("signin", [{ ...creds, pass: "reader-pass" }])).error).toEqual({ code: -32000, message: "Too many attempts, retry after 900 s" });
    ws.close();
  });

  it("HTTP Basic: failed checks per address end in 429 on routes and on the WebSocket upgrade; good ones are not counted", async () => {
    const sql = (authorization: string) => fetch(`http://${hosts.address}/sql`, { method: "POST", headers: { authorization, accept: "application/json" }, body: "RETURN 1" });
    for (let i = 0; i < 5; i++) expect((await sql(basic("admin", "admin-pass"))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await sql(basic(`nobody${i}`, "x"))).status).toBe(401);
    const refused = await sql(basic("admin", "admin-pass"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.text()).toBe("Too many attempts, retry after 60 s");
    const upgrade = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://${hosts.address}/rpc`, { headers: { authorization: basic("admin", "admin-pass") } });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
    });
    expect(upgrade).toBe(429);
    // signin from that address is refused too (one budget for password guesses)
    expect((await signin(hosts.address, { email: "alice@x.io", password: "x" })).status).toBe(429);
  });
});
