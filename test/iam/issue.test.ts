import { decodeJwt, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/iam/issue.js";
import { KeyStore } from "../../src/iam/keys.js";

// Tokens issued by real SurrealDB 2.6.0 (oracle, 2026-11-22): root signin, DB user signin, record signup with FOR TOKEN 15m.
const REAL = {
  root: "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.eyJpYXQiOjE3OTUzMjM1MzcsIm5iZiI6MTc5NTMyMzUzNywiZXhwIjoxNzk1MzI3MTM3LCJpc3MiOiJTdXJyZWFsREIiLCJqdGkiOiIzOTljNTkwOS1lYmU3LTRlMTctYTk0Yy0zY2RkNWNmM2I4NzMiLCJJRCI6InJvb3QifQ.x",
  dbUser:
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.eyJpYXQiOjE3OTUzMjM1MzcsIm5iZiI6MTc5NTMyMzUzNywiZXhwIjoxNzk1MzI3MTM3LCJpc3MiOiJTdXJyZWFsREIiLCJqdGkiOiI3ZjE4NzY0YS1mMzkwLTRiMDItYWQ5My1lZTYyOGU1ZmUwYmQiLCJOUyI6InRlc3QiLCJEQiI6InRlc3QiLCJJRCI6ImRidSJ9.x",
  record:
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.eyJpYXQiOjE3OTUzMjM1MzcsIm5iZiI6MTc5NTMyMzUzNywiZXhwIjoxNzk1MzI0NDM3LCJpc3MiOiJTdXJyZWFsREIiLCJqdGkiOiJkZTNlMDUxYS1mNTg3LTRkZjQtYjgzMy0yODU0YmYxMDVmNjIiLCJOUyI6InRlc3QiLCJEQiI6InRlc3QiLCJBQyI6ImFjY291bnQiLCJJRCI6InVzZXI6NXN5ODB6bzF1dHQzMXp6d3o0NjkifQ.x",
};

const part = (t: string, i: number) => Buffer.from(t.split(".")[i]!, "base64url").toString();
const NOW = Date.UTC(2026, 0, 1);
const SEC = 1_000_000_000n;

describe("issueToken", () => {
  const keys = new KeyStore();
  it("writes the header exactly as SurrealDB (typ before alg)", async () => {
    const { token } = await issueToken({ alg: "HS512", key: "k", nowMs: NOW, durationNanos: 3600n * SEC, ID: "root" }, keys, 2);
    expect(token.split(".")[0]).toBe(REAL.root.split(".")[0]);
    expect(part(token, 0)).toBe('{"typ":"JWT","alg":"HS512"}');
  });

  it.each([
    ["root", {}, 3600],
    ["dbUser", { NS: "test", DB: "test" }, 3600],
    ["record", { NS: "test", DB: "test", AC: "account" }, 900],
  ] as const)("decodes to the same claim names, order and lifetime as a real %s token", async (kind, extra, life) => {
    const real = JSON.parse(part(REAL[kind], 1));
    const id = kind === "record" ? "user:5sy80zo1utt31zzwz469" : kind === "root" ? "root" : "dbu";
    const { token } = await issueToken({ alg: "HS512", key: "k", nowMs: NOW, durationNanos: BigInt(life) * SEC, ...extra, ID: id }, keys, 2);
    const ours = JSON.parse(part(token, 1));
    expect(Object.keys(ours)).toEqual(Object.keys(real));
    expect(ours.exp - ours.iat).toBe(real.exp - real.iat);
    expect(ours.iat).toBe(ours.nbf);
    expect(ours.iss).toBe(real.iss);
    expect(ours.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const { NS, DB, AC, ID } = real;
    expect({ NS: ours.NS, DB: ours.DB, AC: ours.AC, ID: ours.ID }).toEqual({ NS, DB, AC, ID });
  });

  it("signs verifiably with the given secret and a fresh jti each time", async () => {
    const a = await issueToken({ alg: "HS512", key: "secret", nowMs: NOW, durationNanos: 60n * SEC, ID: "x" }, keys, 2);
    const b = await issueToken({ alg: "HS512", key: "secret", nowMs: NOW, durationNanos: 60n * SEC, ID: "x" }, keys, 2);
    await jwtVerify(a.token, new TextEncoder().encode("secret"), { algorithms: ["HS512"], currentDate: new Date(NOW) });
    expect(decodeJwt(a.token).jti).not.toBe(decodeJwt(b.token).jti);
    expect(a.claims.exp! - a.claims.iat!).toBe(60);
  });

  it("reports overflowing lifetimes with the per-version errors", async () => {
    const huge = 10n ** 30n;
    await expect(issueToken({ alg: "HS512", key: "k", nowMs: NOW, durationNanos: huge, ID: "x" }, keys, 1)).rejects.toThrow(
      "The session has an invalid duration",
    );
    const farButValid = 9_000_000_000_000n * SEC; // > chrono's max date, < i64 ms
    await expect(issueToken({ alg: "HS512", key: "k", nowMs: NOW, durationNanos: farButValid, ID: "x" }, keys, 2)).rejects.toThrow(
      "This access method results in an invalid expiration",
    );
  });

  it("an unusable issuer key is 'There was an error creating the token'", async () => {
    await expect(issueToken({ alg: "RS256", key: "not a pem", nowMs: NOW, durationNanos: SEC, ID: "x" }, keys, 2)).rejects.toThrow(
      "There was an error creating the token",
    );
  });
});

describe("v1 scope token shape", () => {
  // Real SurrealDB 1.5.4 (oracle): signup to `DEFINE SCOPE account SESSION 1d …`.
  const REAL_V1 =
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.eyJpYXQiOjE3OTUzMjQ1OTEsIm5iZiI6MTc5NTMyNDU5MSwiZXhwIjoxNzk1NDEwOTkxLCJpc3MiOiJTdXJyZWFsREIiLCJqdGkiOiI1OWNmNGE2NS0xNTNiLTRmYTQtODMwYS0zNTU2ZmUxYjQxYzciLCJOUyI6InRlc3QiLCJEQiI6InRlc3QiLCJTQyI6ImFjY291bnQiLCJJRCI6InVzZXI6OHNuN2oybnZsM2l1NWQwN3ZjaGUifQ.x";

  it("signup through Iam yields the same header, claim order and lifetime", async () => {
    const { FakeEngine, clause, sec, DAY } = await import("./fake-engine.js");
    const { Iam } = await import("../../src/iam/index.js");
    const { newSession } = await import("../../src/exec/session.js");
    const { RecordId } = await import("../../src/value/types.js");
    const engine = new FakeEngine(1);
    engine.defineScope("test", "test", "account", { session: sec(DAY), signup: clause(() => new RecordId("user", "8sn7j2nvl3iu5d07vche")) });
    const s = newSession();
    const { token } = await new Iam(engine).signup(s, { NS: "test", DB: "test", SC: "account", email: "a@b.c" });
    const real = JSON.parse(part(REAL_V1, 1));
    const ours = JSON.parse(part(token, 1));
    expect(part(token, 0)).toBe(part(REAL_V1, 0));
    expect(Object.keys(ours)).toEqual(Object.keys(real));
    expect(ours.exp - ours.iat).toBe(real.exp - real.iat);
    expect([ours.NS, ours.DB, ours.SC, ours.ID]).toEqual([real.NS, real.DB, real.SC, real.ID]);
    expect(s.exp).toBe(ours.exp); // 1.5.4: $session.exp equals the token's exp
  });
});
