import fc from "fast-check";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { ExpiredSession } from "../../src/errors/index.js";
import { isProtected, SESSION_VARIABLES, STRICTER_THAN_SURREALDB } from "../../src/exec/protected.js";
import { isExpired, newSession } from "../../src/exec/session.js";
import { assertNotExpired, Iam } from "../../src/iam/index.js";
import { expiryAfter, MAX_TIMESTAMP } from "../../src/iam/session.js";
import { RecordId, type ValueObject } from "../../src/value/types.js";
import { clause, DAY, FakeEngine, HOUR, sec } from "./fake-engine.js";

const alice = new RecordId("user", "alice");
const AC = (compat: 1 | 2) => (compat === 1 ? "SC" : "AC");

/** The seed's typical set-up: a root user, a DB user, and a scope / record access whose sessions last 1 day. */
async function typical(compat: 1 | 2) {
  const engine = new FakeEngine(compat);
  const iam = new Iam(engine);
  await engine.defineUser("ROOT", "root", { password: "root", roles: ["OWNER"] });
  await engine.defineUser("DATABASE", "dbu", { ns: "test", db: "test", password: "pw", roles: ["EDITOR"], duration: { session: sec(HOUR) } });
  engine.addRecord(alice, { email: "alice@example.com" });
  const signin = clause((_s, v) => (v?.email === "alice@example.com" ? { id: alice } : []));
  const signup = clause(() => ({ id: alice }));
  if (compat === 1) engine.defineScope("test", "test", "account", { session: sec(DAY), signin, signup });
  else engine.defineRecordAccess("test", "test", "account", { signin, signup, token: sec(15 * 60), session: sec(DAY) });
  const now = () => Math.floor(engine.clock.now() / 1000);
  const record = { NS: "test", DB: "test", [AC(compat)]: "account", email: "alice@example.com" };
  return { engine, iam, now, record };
}

describe.each([1, 2] as const)("seed §3 state table, compat %i", (compat) => {
  it("unauthenticated --signin/signup/authenticate--> authenticated; signin and signup issue a token", async () => {
    const { iam, record } = await typical(compat);
    for (const op of ["signin", "signup"] as const) {
      const s = newSession();
      const { token } = await iam[op](s, record);
      expect(decodeJwt(token).exp).toBeTypeOf("number");
      expect(s.actor.level).toBe(compat === 1 ? "Scope" : "Record");
      const fresh = newSession();
      await iam.authenticate(fresh, token);
      expect(fresh.rd).toEqual(alice);
    }
  });

  it("authenticated --time passes, expiry reached--> expired: authenticated methods fail with 'The session has expired'", async () => {
    const { engine, iam, now, record } = await typical(compat);
    const s = newSession();
    await iam.signin(s, record);
    const exp = s.exp!;
    expect(exp).toBe(now() + DAY); // v1: scope SESSION = token exp; v2: access FOR SESSION
    engine.clock.advance(DAY);
    expect(isExpired(s, engine.clock)).toBe(false); // now == exp is still valid (now > exp expires)
    engine.clock.advance(1);
    expect(isExpired(s, engine.clock)).toBe(true);
    expect(() => assertNotExpired(s, engine.clock)).toThrow(ExpiredSession);
    await expect(iam.info(s)).rejects.toThrow("The session has expired");
  });

  it("token-established session: expiry per version (v1 = token exp; v2 = the definition's FOR SESSION)", async () => {
    const { engine, iam, now } = await typical(compat);
    const { token } = await iam.signin(newSession(), { NS: "test", DB: "test", user: "dbu", pass: "pw" });
    const tokenExp = decodeJwt(token).exp!;
    engine.clock.advance(10);
    const s = newSession();
    await iam.authenticate(s, token);
    if (compat === 1) {
      expect(s.exp).toBe(tokenExp);
      engine.clock.advance(tokenExp - now() + 1);
      expect(isExpired(s, engine.clock)).toBe(true);
    } else {
      expect(s.exp).toBe(now() + HOUR); // dbu: DURATION FOR SESSION 1h, independent of the token's exp
    }
  });

  it("system user with credentials: v1 never expires; v2 FOR SESSION (none by default)", async () => {
    const { engine, iam, now } = await typical(compat);
    const root = newSession();
    await iam.signin(root, { user: "root", pass: "root" });
    expect(root.exp).toBeUndefined();
    const db = newSession();
    await iam.signin(db, { NS: "test", DB: "test", user: "dbu", pass: "pw" });
    expect(db.exp).toBe(compat === 1 ? undefined : now() + HOUR);
    engine.clock.advance(10 * 365 * DAY);
    expect(isExpired(root, engine.clock)).toBe(false);
  });

  it("expired --signin with valid credentials--> authenticated, new token, same connection", async () => {
    const { engine, iam, record } = await typical(compat);
    const s = newSession({ id: "conn-1" });
    const first = await iam.signin(s, record);
    engine.clock.advance(DAY + 1);
    expect(isExpired(s, engine.clock)).toBe(true);
    const second = await iam.signin(s, record);
    expect(second.token).not.toBe(first.token);
    expect(isExpired(s, engine.clock)).toBe(false);
    expect(s.id).toBe("conn-1");
    expect(s.tk?.jti).toBe(decodeJwt(second.token).jti);
  });

  it("expired --authenticate with a new, unexpired token--> authenticated", async () => {
    const { engine, iam, record } = await typical(compat);
    const s = newSession();
    await iam.signin(s, record);
    engine.clock.advance(DAY + 1);
    expect(isExpired(s, engine.clock)).toBe(true);
    const { token } = await iam.signin(newSession(), record);
    await iam.authenticate(s, token);
    expect(isExpired(s, engine.clock)).toBe(false);
  });

  it("expired --authenticate with an expired token--> stays expired", async () => {
    const { engine, iam, record } = await typical(compat);
    const s = newSession();
    const { token } = await iam.signin(s, record);
    engine.clock.advance(DAY + 1);
    // 2.6.0 says "The token has expired" (checked before any lookup, it names nothing); 1.5.4 the generic error
    await expect(iam.authenticate(s, token)).rejects.toThrow(compat === 2 ? "The token has expired" : "There was a problem with authentication");
    expect(isExpired(s, engine.clock)).toBe(true);
  });
});

describe("invalidate, reset, info, basic auth", () => {
  it("invalidate keeps ns, db, exp and params; reset also clears ns, db, params", async () => {
    const { iam, record } = await typical(2);
    const s = newSession();
    await iam.signin(s, record);
    s.params.set("x", 1n);
    const exp = s.exp;
    iam.invalidate(s);
    expect(s).toMatchObject({ ns: "test", db: "test", exp, ac: undefined, rd: undefined, tk: undefined, actor: { level: "No" } });
    expect(s.params.size).toBe(1);
    iam.reset(s);
    expect([s.ns, s.db, s.exp, s.params.size]).toEqual([undefined, undefined, exp, 0]);
  });

  it("info returns the record user's record, NONE for system users", async () => {
    const { iam, record } = await typical(2);
    const s = newSession();
    await iam.signin(s, record);
    expect(await iam.info(s)).toEqual({ id: alice, email: "alice@example.com" });
    await iam.signin(s, { user: "root", pass: "root" });
    expect(await iam.info(s)).toBeUndefined();
  });

  it("basic auth: levels from ns/db, wrong password is the generic error (stricter than SurrealDB's 'The password did not verify'), no token", async () => {
    const { iam, now } = await typical(2);
    const s = newSession();
    await iam.basicAuth(s, "dbu", "pw", { ns: "test", db: "test" });
    expect(s.actor).toMatchObject({ level: "Database", id: "dbu" });
    expect(s.tk).toBeUndefined();
    expect(s.exp).toBe(now() + HOUR);
    await expect(iam.basicAuth(newSession(), "dbu", "bad", { ns: "test", db: "test" })).rejects.toThrow("There was a problem with authentication");
    await expect(iam.basicAuth(newSession(), "ghost", "bad")).rejects.toThrow("There was a problem with authentication");
    await expect(iam.basicAuth(newSession(), "dbu", "pw", { db: "test" })).rejects.toThrow("There was a problem with authentication");
  });

  it("basic auth v1 (legacy): ROOT then NS then DB, every failure is InvalidAuth, never expires", async () => {
    const { iam } = await typical(1);
    const s = newSession();
    await iam.basicAuth(s, "root", "root", { ns: "test", db: "test" });
    expect(s.actor.level).toBe("Root");
    await iam.basicAuth(s, "dbu", "pw", { ns: "test", db: "test" });
    expect(s.actor.level).toBe("Database");
    expect(s.exp).toBeUndefined();
    await expect(iam.basicAuth(newSession(), "dbu", "bad", { ns: "test", db: "test" })).rejects.toThrow("There was a problem with authentication");
  });
});

describe("properties", () => {
  it("random signup payloads never reach reserved variables", async () => {
    for (const compat of [1, 2] as const) {
      const engine = new FakeEngine(compat);
      const iam = new Iam(engine);
      // every protected name (the one list): a generated key such as "this" or "input" is refused like "auth"
      const reserved = [...SESSION_VARIABLES[compat], ...STRICTER_THAN_SURREALDB[compat]];
      const seen: (Readonly<Record<string, unknown>> | undefined)[] = [];
      const signup = clause((_s, vars) => {
        seen.push(vars);
        return alice;
      });
      if (compat === 1) engine.defineScope("test", "test", "account", { signup });
      else engine.defineRecordAccess("test", "test", "account", { signup });
      const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...reserved, "NS", "DB", "AC", "SC", "user", "pass", "__proto__"));
      await fc.assert(
        fc.asyncProperty(fc.dictionary(key, fc.oneof(fc.string(), fc.integer().map(BigInt), fc.boolean())), async (extra) => {
          seen.length = 0;
          const vars: ValueObject = { ...extra, NS: "test", DB: "test", [AC(compat)]: "account" };
          const hasReserved = Object.keys(vars).some((k) => isProtected(k, compat));
          const result = await iam.signup(newSession(), vars).then(
            () => "ok",
            (e: Error) => e.message,
          );
          if (hasReserved) {
            expect(result).toBe(compat === 1 ? "The signup query failed" : "The record access signup query failed");
            expect(seen).toHaveLength(0);
          } else {
            expect(result).toBe("ok");
            for (const r of reserved) expect(Object.prototype.hasOwnProperty.call(seen[0] ?? {}, r)).toBe(false);
          }
        }),
        { numRuns: 150 },
      );
    }
  });

  it("expiry arithmetic never overflows: exact for durations up to millennia, the per-version errors beyond", () => {
    const NS = 1_000_000_000n;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.bigInt({ min: 0n, max: 1000n * 366n * 86400n * NS }),
        fc.constantFrom(1 as const, 2 as const),
        (nowMs, d, compat) => {
          const exp = expiryAfter(nowMs, d, compat);
          expect(Number.isSafeInteger(exp)).toBe(true);
          expect(BigInt(exp)).toBe((BigInt(nowMs) * 1_000_000n + d) / NS);
        },
      ),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: (MAX_TIMESTAMP + 1n) * NS, max: 2n ** 128n }), fc.constantFrom(1 as const, 2 as const), (d, compat) => {
        expect(() => expiryAfter(0, d, compat)).toThrow(/invalid (duration|expiration)/);
      }),
    );
  });
});
