// iam/throttle.ts through the embedded API with a fake clock: per identity (back-off, then lockout; a success clears
// it), per client address (a success does not give the budget back), Basic and authenticate, the same answer for known
// and unknown identities with no password hashed, and the bounded memory. Counted, never timed.

import argon2 from "argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newSession, type Compat, type Session } from "../../src/exec/session.js";
import { SurqlAuth, TooManyAttempts, type AuditEvent, type ThrottleLimits } from "../../src/index.js";
import { clientHost } from "../../src/iam/throttle-keys.js";
import type { ValueObject } from "../../src/value/types.js";
import { FakeClock } from "./fake-engine.js";
import { outcome } from "./throttle-outcome.js";

const ACCESS: Record<Compat, string> = {
  1: "DEFINE SCOPE account SESSION 1h SIGNUP (CREATE user SET email = $email, password = crypto::argon2::generate($password)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password))",
  2: "DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNUP (CREATE user SET email = $email, password = crypto::argon2::generate($password)) SIGNIN (SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(password, $password)) DURATION FOR SESSION 1h",
};

const SCHEMA = (compat: Compat) => `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE USER reader ON DATABASE PASSWORD 'reader-pass' ROLES VIEWER;
DEFINE TABLE user SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
${ACCESS[compat]};`;

/** No back-off and a low lock count, unless a test says otherwise. */
const LIMITS: Partial<ThrottleLimits> = { signinMaxFailures: 3, backoffAfter: 0, ipMaxAttempts: 0 };

async function open(compat: Compat, limits: Partial<ThrottleLimits> = LIMITS) {
  const clock = new FakeClock();
  const db = await SurqlAuth.open({ compat, clock, root: { user: "root", pass: "root" }, throttle: limits });
  await db.importText(SCHEMA(compat));
  const account = (fields: ValueObject): ValueObject => ({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: "account", ...fields });
  await db.iam.signup(newSession(), account({ email: "alice@x.io", password: "alice-pass" }));
  return { db, clock, account };
}


const from = (ip?: string): Session => newSession({ ip });

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("throttle per identity, compat %i", (compat) => {
  it("locks an identity after the failures of one window, for the rest of it; known and unknown alike, no hash computed", async () => {
    const { db, clock, account } = await open(compat);
    const answers: Record<string, string[]> = {};
    const verify = vi.spyOn(argon2, "verify");
    for (const email of ["alice@x.io", "ghost@x.io"]) {
      answers[email] = [];
      for (let i = 0; i < 3; i++) answers[email]!.push(await outcome(db.iam.signin(from(), account({ email, password: "wrong" }))));
      verify.mockClear();
      answers[email]!.push(await outcome(db.iam.signin(from(), account({ email, password: "alice-pass" }))));
      // refused before the clause ran: no password hashed or compared
      expect(verify, email).not.toHaveBeenCalled();
    }
    expect(answers["alice@x.io"]).toEqual(answers["ghost@x.io"]);
    expect(answers["alice@x.io"]!.at(-1)).toBe("throttled 900");
    expect(new TooManyAttempts(900).message).toBe("Too many attempts, retry after 900 s");
    // the window ends with the oldest failure: alice may sign in again
    clock.advance(600);
    expect(await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "alice-pass" })))).toBe("throttled 300");
    clock.advance(300);
    expect(await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "alice-pass" })))).toBe("ok");
  });

  it("concurrent attempts count each other: ten at once on a limit of three run three password checks", async () => {
    const { db, account } = await open(compat);
    const verify = vi.spyOn(argon2, "verify");
    const answers = await Promise.all(Array.from({ length: 10 }, () => outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "wrong" })))));
    expect(answers.filter((a) => a === "throttled 900")).toHaveLength(7);
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it("backs off exponentially before the lockout", async () => {
    const { db, clock, account } = await open(compat, { signinMaxFailures: 6, backoffAfter: 2, backoffBaseMs: 1000, ipMaxAttempts: 0 });
    const fail = async () => {
      const o = await outcome(db.iam.signin(from(), account({ email: "ghost@x.io", password: "wrong" })));
      return o.startsWith("throttled") ? o : "failed";
    };
    const seen: string[] = [];
    for (const wait of [0, 1, 2, 4, 8]) {
      clock.advance(wait);
      seen.push(await fail(), await fail());
    }
    // six failures: locked until the first leaves the 15-minute window (15 s have passed)
    expect(seen).toEqual(["failed", "failed", "failed", "throttled 2", "failed", "throttled 4", "failed", "throttled 8", "failed", "throttled 885"]);
  });

  it("a success does not clear the identity's failures (D12); variables the clause does not read and the email's case make no new identity", async () => {
    const { db, account } = await open(compat);
    await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "wrong" })));
    // a success on the same folded name (another account would do: ALICE@x.io) gives no failure back
    expect(await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "alice-pass" })))).toBe("ok");
    await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "wrong" })));
    // a third failure, written otherwise: ` ALICE@x.io` with an extra variable is still alice
    await outcome(db.iam.signin(from(), account({ email: " ALICE@x.io", password: "wrong", nonce: Math.random() })));
    expect(await outcome(db.iam.signin(from(), account({ email: "alice@x.io", password: "alice-pass" })))).toBe("throttled 900");
    // another identity is not affected
    expect(await outcome(db.iam.signin(from(), account({ email: "bob@x.io", password: "wrong" })))).not.toMatch(/throttled/);
  });

  it("a system user is one identity per level and name; v1's legacy Basic counts at every level it searches", async () => {
    const { db } = await open(compat);
    const creds = { NS: "app", DB: "app", user: "reader", pass: "wrong" };
    for (let i = 0; i < 3; i++) await outcome(db.iam.signin(from(), creds));
    expect(await outcome(db.iam.signin(from(), { ...creds, pass: "reader-pass" }))).toBe("throttled 900");
    // Basic checks the same identity
    expect(await outcome(db.iam.basicAuth(from(), "reader", "reader-pass", { ns: "app", db: "app" }))).toBe("throttled 900");
    // root is another identity
    expect(await outcome(db.iam.signin(from(), { user: "root", pass: "root" }))).toBe("ok");
    for (let i = 0; i < 3; i++) await outcome(db.iam.basicAuth(from(), "root", "wrong", { ns: "app", db: "app" }));
    // v1 legacy Basic with NS + DB searches ROOT → NS → DB: its failures count against root too; v2 names one level
    expect(await outcome(db.iam.signin(from(), { user: "root", pass: "root" }))).toBe(compat === 1 ? "throttled 900" : "ok");
  });

  it("a refusal is the audit event 'throttled', naming the operation and the wait, with no password", async () => {
    const events: AuditEvent[] = [];
    const clock = new FakeClock();
    const db = await SurqlAuth.open({ compat, clock, audit: [(e) => events.push(e)], throttle: LIMITS });
    const creds = { user: "root", pass: "hunter2" };
    for (let i = 0; i < 4; i++) await outcome(db.iam.signin(from("192.0.2.1"), creds));
    expect(events.map((e) => e.event)).toEqual(["signin", "signin", "signin", "throttled"]);
    expect(events[3]).toMatchObject({ outcome: "failure", reason: "TooManyAttempts", operation: "signin", retry_after: 900, identity: "root", user: "root", ip: "192.0.2.1" });
    expect(JSON.stringify(events)).not.toContain("hunter2");
  });

  it("turned off, nothing is counted or refused", async () => {
    const { db, account } = await open(compat, { enabled: false, signinMaxFailures: 1, ipMaxAttempts: 1 });
    for (let i = 0; i < 5; i++) expect(await outcome(db.iam.signin(from("10.0.0.1"), account({ email: "alice@x.io", password: "wrong" })))).not.toMatch(/throttled/);
    expect(await outcome(db.iam.signin(from("10.0.0.1"), account({ email: "alice@x.io", password: "alice-pass" })))).toBe("ok");
  });
});

describe.each([1, 2] as const)("throttle per client address, compat %i", (compat) => {
  const PER_IP: Partial<ThrottleLimits> = { signinMaxFailures: 0, backoffAfter: 0, ipMaxAttempts: 4, ipWindowMs: 60_000 };

  it("counts every signin and signup of an address, successes too; other addresses keep their budget", async () => {
    const { db, clock, account } = await open(compat, PER_IP);
    const good = account({ email: "alice@x.io", password: "alice-pass" });
    expect(await outcome(db.iam.signin(from("10.0.0.1"), good))).toBe("ok");
    expect(await outcome(db.iam.signin(from("10.0.0.1"), account({ email: "a1@x.io", password: "x" })))).not.toMatch(/throttled/);
    expect(await outcome(db.iam.signup(from("10.0.0.1"), account({ email: "a2@x.io", password: "x" })))).toBe("ok");
    expect(await outcome(db.iam.signin(from("10.0.0.1"), good))).toBe("ok");
    // four attempts in the minute, one a success: the fifth is refused, whoever it names
    expect(await outcome(db.iam.signin(from("::ffff:10.0.0.1"), good))).toBe("throttled 60");
    expect(await outcome(db.iam.signup(from("10.0.0.1"), account({ email: "a3@x.io", password: "x" })))).toBe("throttled 60");
    expect(await outcome(db.iam.signin(from("10.0.0.2"), good))).toBe("ok");
    clock.advance(60);
    expect(await outcome(db.iam.signin(from("10.0.0.1"), good))).toBe("ok");
  });

  it("counts failed Basic checks (not successful ones) with signins, and failed authenticate calls apart", async () => {
    const { db } = await open(compat, PER_IP);
    const ip = "2001:db8:1:2:aaaa::1";
    for (let i = 0; i < 10; i++) expect(await outcome(db.iam.basicAuth(from(ip), "root", "root"))).toBe("ok");
    for (let i = 0; i < 4; i++) await outcome(db.iam.authenticate(from(ip), `not.a.token${i}`));
    expect(await outcome(db.iam.authenticate(from(ip), "not.a.token"))).toBe("throttled 60");
    // token failures do not lock signins out
    for (let i = 0; i < 4; i++) expect(await outcome(db.iam.basicAuth(from(ip), `nobody${i}`, "x"))).toBe("There was a problem with authentication");
    // another address of the same /64 is the same client
    expect(await outcome(db.iam.basicAuth(from("2001:db8:1:2::99"), "root", "root"))).toBe("throttled 60");
    expect(await outcome(db.iam.basicAuth(from("2001:db8:1:3::1"), "root", "root"))).toBe("ok");
  });
});

describe.each([1, 2] as const)("compat %i: a valid token behind a throttled address (attack pass 6, D11)", (compat) => {
  it("bad tokens spend the address's token budget, but a valid token from it still authenticates; bad ones are refused", async () => {
    const { db, account } = await open(compat, { signinMaxFailures: 0, backoffAfter: 0, ipMaxAttempts: 4, ipWindowMs: 60_000 });
    const { token } = await db.iam.signin(newSession(), account({ email: "alice@x.io", password: "alice-pass" }));
    const ip = "192.0.2.50";
    for (let i = 0; i < 5; i++) await outcome(db.iam.authenticate(from(ip), `not.a.token${i}`));
    expect(await outcome(db.iam.authenticate(from(ip), "not.a.token"))).toBe("throttled 60");
    expect(await outcome(db.iam.authenticate(from(ip), token))).toBe("ok");
    expect(await outcome(db.iam.authenticate(from(ip), "still.not.a.token"))).toBe("throttled 60");
  });
});

describe("client addresses", () => {
  it("IPv4-mapped IPv6 is IPv4, IPv6 counts by its /64, the embedded API has none", () => {
    expect(clientHost("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(clientHost("192.0.2.7")).toBe("192.0.2.7");
    expect(clientHost("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientHost("2001:0db8:0000:0000:ffff::1")).toBe("2001:db8:0:0::/64");
    expect(clientHost("::1")).toBe("0:0:0:0::/64");
    expect(clientHost("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientHost(undefined)).toBeUndefined();
  });
});

describe("bounded memory", () => {
  it("an attacker cycling identities and addresses never holds more than maxBuckets counters", async () => {
    const { Throttle } = await import("../../src/iam/throttle.js");
    const clock = new FakeClock();
    const throttle = new Throttle({ clock, logger: { debug() {} }, maxBuckets: 100 });
    for (let i = 0; i < 1000; i++) {
      const attempt = throttle.guard([{ kind: "identity", key: `id${i}`, countsSuccess: false }, { kind: "address", key: `ip${i}`, countsSuccess: true }], () => Promise.reject(new Error("no")));
      await expect(attempt).rejects.toThrow("no");
    }
    expect(throttle.size).toBeLessThanOrEqual(100);
  });
});

describe("embedded connections", () => {
  it("a throttled Connection.signin throws the RPC error with TooManyAttempts as its cause", async () => {
    const { db, account } = await open(2);
    const conn = db.connect();
    for (let i = 0; i < 3; i++) await outcome(conn.signin(account({ email: "ghost@x.io", password: "wrong" })));
    const err = await conn.signin(account({ email: "ghost@x.io", password: "wrong" })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000, message: "Too many attempts, retry after 900 s" });
    expect((err as { cause?: unknown }).cause).toBeInstanceOf(TooManyAttempts);
  });
});

describe.each([1, 2] as const)("compat %i: the identity is the selector variables (attack pass 7, E8)", (compat) => {
  const define = (name: string, signin: string) =>
    compat === 1 ? `DEFINE SCOPE ${name} SESSION 5m SIGNIN (${signin});` : `DEFINE ACCESS ${name} ON DATABASE TYPE RECORD SIGNIN (${signin}) DURATION FOR TOKEN 5m;`;
  const SCHEMA_E8 = `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE op SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE FUNCTION fn::check($h: string, $c: string) { RETURN crypto::argon2::compare($h, $c) };
DEFINE FUNCTION fn::login($e: string, $c: string) { RETURN (SELECT VALUE id FROM op WHERE email = $e AND crypto::argon2::compare(h, $c))[0] != NONE };
${define("otp", "SELECT * FROM op WHERE email = $email AND fn::check(h, $code)")}
${define("either", "SELECT * FROM op WHERE (email = $email OR phone = $phone) AND crypto::argon2::compare(h, $password)")}
${define("opaque", "SELECT * FROM op WHERE fn::login($email, $code)")}
CREATE op:1 SET email = 'victim@x', phone = '+100', h = crypto::argon2::generate('123456');`;

  async function openE8(limits: Partial<ThrottleLimits>) {
    const clock = new FakeClock();
    const db = await SurqlAuth.open({ compat, clock, throttle: { ipMaxAttempts: 0, ...limits } });
    await db.importText(SCHEMA_E8);
    const via = (ac: string, fields: ValueObject): ValueObject => ({ NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, ...fields });
    return { db, clock, via };
  }

  it("a code handed to crypto through fn:: is no identity: the tenth wrong code locks the email, and the right code is refused", async () => {
    const { db, via } = await openE8({ signinMaxFailures: 10, backoffAfter: 0 });
    const answers: string[] = [];
    for (let i = 0; i < 11; i++) answers.push(await outcome(db.iam.signin(from(), via("otp", { email: "victim@x", code: String(100000 + i) }))));
    expect(answers.slice(0, 10).every((a) => !a.startsWith("throttled"))).toBe(true);
    expect(answers[10]).toBe("throttled 900");
    const verify = vi.spyOn(argon2, "verify");
    expect(await outcome(db.iam.signin(from(), via("otp", { email: "victim@x", code: "123456" })))).toBe("throttled 900");
    expect(verify).not.toHaveBeenCalled();
    // another email is another identity
    expect(await outcome(db.iam.signin(from(), via("otp", { email: "other@x", code: "1" })))).not.toMatch(/throttled/);
  });

  it("alternative identifiers: a junk $phone that changes every try does not step around the email's back-off", async () => {
    const { db, clock, via } = await openE8({ signinMaxFailures: 10, backoffAfter: 3, backoffBaseMs: 1000 });
    for (let i = 0; i < 3; i++) await outcome(db.iam.signin(from(), via("either", { email: "victim@x", phone: "", password: `wrong${i}` })));
    for (let i = 0; i < 4; i++) expect(await outcome(db.iam.signin(from(), via("either", { email: "victim@x", phone: `+9${i}`, password: "123456" })))).toBe("throttled 1");
    // and by phone alone the victim's phone counts its own failures
    clock.advance(1);
    expect(await outcome(db.iam.signin(from(), via("either", { email: "victim@x", phone: "+1", password: "x" })))).not.toMatch(/throttled/);
    expect(await outcome(db.iam.signin(from(), via("either", { email: "victim@x", password: "123456" })))).toBe("throttled 2");
    // a blank or missing alternative is no shared identity: another email is not held back by the victim's failures
    expect(await outcome(db.iam.signin(from(), via("either", { email: "bob@x", phone: "", password: "x" })))).not.toMatch(/throttled/);
    // by the victim's own phone, a fresh selector: the victim's password hash itself is backing off (its four failures,
    // attack pass 11, I2), so the right password fails like a wrong one until the wait is over
    expect(await outcome(db.iam.signin(from(), via("either", { phone: "+100", password: "123456" })))).toBe("No record was returned");
    clock.advance(2);
    expect(await outcome(db.iam.signin(from(), via("either", { phone: "+100", password: "123456" })))).toBe("ok");
  });

  it("a clause with no selector is one identity: every email counts together", async () => {
    const { db, via } = await openE8({ signinMaxFailures: 3, backoffAfter: 0 });
    for (let i = 0; i < 3; i++) await outcome(db.iam.signin(from(), via("opaque", { email: `u${i}@x`, code: "0" })));
    expect(await outcome(db.iam.signin(from(), via("opaque", { email: "victim@x", code: "123456" })))).toBe("throttled 900");
    // other access methods are other identities
    expect(await outcome(db.iam.signin(from(), via("otp", { email: "victim@x", code: "123456" })))).toBe("ok");
  });
});
