// POST /signin with the examples' record access and credentials of the wrong type (pentest F6): a registered and an
// unregistered email get the same status and text after exactly one argon2 verify each. Counted, not timed.

import argon2 from "argon2";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SurqlAuth } from "../../src/index.js";

const servers: { close(): Promise<void> }[] = [];
const base: Record<1 | 2, string> = { 1: "", 2: "" };

beforeAll(async () => {
  for (const compat of [1, 2] as const) {
    // alice fails more often than the throttle allows: here only the equal answer counts (throttle.test.ts has the rest)
    const db = await SurqlAuth.open({ compat, root: { user: "root", pass: "root" }, import: [`examples/schema-v${compat}.surql`], throttle: { enabled: false } });
    const { server, port } = await db.listen("127.0.0.1", 0);
    servers.push(server);
    base[compat] = `http://127.0.0.1:${port}`;
  }
  for (const compat of [1, 2] as const) {
    const r = await post(compat, "/signup", { email: "alice@victim.io", name: "Alice", password: "alice-pass" });
    expect(r.status).toBe(200);
  }
}, 30_000);
afterAll(async () => {
  for (const s of servers) await s.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function post(compat: 1 | 2, path: string, fields: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", ...fields });
  const res = await fetch(`${base[compat]}${path}`, { method: "POST", headers: { Accept: "application/json" }, body });
  return { status: res.status, body: await res.text() };
}

describe.each([1, 2] as const)("POST /signin with odd password types, compat %i", (compat) => {
  it.each([
    ["no password", {}],
    ["a number", { password: 12 }],
    ["null", { password: null }],
    ["an object", { password: {} }],
    ["a wrong password", { password: "wrong" }],
  ])("%s: the same answer for a registered and an unknown email, one verify each", async (_name, fields) => {
    const verify = vi.spyOn(argon2, "verify");
    const answers = [];
    for (const email of ["alice@victim.io", "ghost@victim.io"]) {
      verify.mockClear();
      answers.push(await post(compat, "/signin", { email, ...fields }));
      expect(verify, email).toHaveBeenCalledTimes(1);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(400);
    expect(JSON.parse(answers[0]!.body).information).toBe("There was a problem with the database: No record was returned");
  });
});
