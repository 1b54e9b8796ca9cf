// iam/throttle.ts keyed on the stored credential a signin compares (attack pass 11, I2): a SIGNIN clause that accepts
// many spellings of one login (a numeric `num = $num`, `<int> $num`, `string::trim`, `string::slug`) locks them all once
// the account's password hash is locked, in both compats; selector buckets fold numbers of every kind as a fallback.
// Counted answers with a fake clock, never timed.

import argon2 from "argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HASHING } from "../../src/exec/functions/hashing.js";
import { newSession, type Compat } from "../../src/exec/session.js";
import { SurqlAuth, type ThrottleLimits } from "../../src/index.js";
import { hashPassword } from "../../src/iam/password.js";
import { canonicalNumber } from "../../src/iam/throttle-keys.js";
import { Decimal, type ValueObject } from "../../src/value/types.js";
import { FakeClock } from "./fake-engine.js";
import { defineSignins, outcome } from "./throttle-outcome.js";

const CLAUSES = {
  pin: "SELECT * FROM acct WHERE num = $num AND crypto::argon2::compare(pass, $pass)",
  pinint: "SELECT * FROM acct WHERE num = <int> $num AND crypto::argon2::compare(pass, $pass)",
  trim: "SELECT * FROM acct WHERE login = string::trim($login) AND crypto::argon2::compare(pass, $pass)",
  slug: "SELECT * FROM acct WHERE login = string::slug($login) AND crypto::argon2::compare(pass, $pass)",
  // the compare inside a function the clause calls
  slugfn: "SELECT * FROM acct WHERE login = string::slug($login) AND fn::check(pass, $pass)",
  // no hash compared: the selector buckets are all there is
  plain: "SELECT * FROM acct WHERE num = $num AND fn::pin_ok(pin, $code)",
  plaintrim: "SELECT * FROM acct WHERE login = string::trim($login) AND fn::pin_ok(pin, $code)",
} as const;

const SCHEMA = (compat: Compat) => `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE acct SCHEMALESS PERMISSIONS FOR select WHERE id = $auth.id;
DEFINE FUNCTION fn::pin_ok($stored: string, $code: string) { RETURN $stored = $code };
DEFINE FUNCTION fn::check($h: string, $p: string) { RETURN crypto::argon2::compare($h, $p) };
${defineSignins(compat, CLAUSES)}
CREATE acct:1 SET num = 42, login = 'bob', pin = '4711', pass = crypto::argon2::generate('right');
CREATE acct:2 SET num = 7, login = 'carol', pin = '1234', pass = crypto::argon2::generate('carol-pass');
DEFINE USER reader ON DATABASE PASSWORD 'reader-pass' ROLES VIEWER;`;

/** A low lock count, no back-off, no address limit (unless a test sets one). */
const LIMITS: Partial<ThrottleLimits> = { signinMaxFailures: 3, backoffAfter: 0, ipMaxAttempts: 0 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("compat %i: the lockout keys on the credential compared (attack pass 11, I2)", (compat) => {
  async function open(limits = LIMITS) {
    const clock = new FakeClock();
    const db = await SurqlAuth.open({ compat, clock, throttle: limits });
    await db.importText(SCHEMA(compat));
    const via = (ac: keyof typeof CLAUSES, fields: ValueObject) => (ip?: string) =>
      outcome(db.iam.signin(newSession({ ip }), { NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, ...fields }));
    return { db, clock, via };
  }

  /** Argon2 verifies of a real stored hash (a dummy verify of equal time is no guess). */
  function realVerifies(): () => number {
    const verify = vi.spyOn(argon2, "verify");
    return () => verify.mock.calls.filter(([hash]) => hash !== HASHING.argon2.dummy).length;
  }

  it("CBOR / JSON decimal and float spellings of a number are the int's identity (selector fallback, before any lookup)", async () => {
    const { via } = await open();
    for (let i = 0; i < 3; i++) expect(await via("pin", { num: 42n, pass: `wrong${i}` })()).toBe("No record was returned");
    const verifies = realVerifies();
    for (const num of [42n, 42, new Decimal("42"), new Decimal("42.00"), new Decimal("4.2e1")]) {
      expect(await via("pin", { num, pass: "right" })(), String(num)).toBe("throttled 900");
    }
    expect(verifies()).toBe(0);
    // an unrelated account is not locked
    expect(await via("pin", { num: new Decimal("7.0"), pass: "carol-pass" })()).toBe("ok");
  });

  it("a clause that compares no hash: the number spellings, and Unicode spaces at the ends, still count as one identity", async () => {
    const { via } = await open();
    for (let i = 0; i < 3; i++) await via("plain", { num: new Decimal("42.0"), code: `${i}` })();
    expect(await via("plain", { num: 42n, code: "4711" })()).toBe("throttled 900");
    expect(await via("plain", { num: 4.2e1, code: "4711" })()).toBe("throttled 900");
    expect(await via("plain", { num: 7n, code: "1234" })()).toBe("ok");
    // and U+0085 (which string::trim strips, JavaScript's trim does not) is trimmed like any space
    for (let i = 0; i < 3; i++) await via("plaintrim", { login: "bob", code: `${i}` })();
    for (const login of ["\u0085bob", "bob\u0085", " \u0085bob\u2028"]) expect(await via("plaintrim", { login, code: "4711" })(), JSON.stringify(login)).toBe("throttled 900");
    expect(await via("plaintrim", { login: "\u0085carol", code: "1234" })()).toBe("ok");
  });

  // held: the fresh spelling passes its selector bucket, and the locked hash it compares fails it as a wrong password;
  // throttled: the selector bucket folds the spelling already (spaces at the ends, U+0085 too) and refuses it first
  for (const [ac, field, locker, spellings, answer] of [
    ["pinint", "num", "42", ["042", "+42", "0042"], "No record was returned"],
    ["slug", "login", "bob", ["Bob!", "¡bob", "--bob--"], "No record was returned"],
    ["slugfn", "login", "bob", ["BOB?"], "No record was returned"],
    ["trim", "login", "bob", ["\u0085bob", "bob\u0085", "\u0085bob\u0085"], "throttled 900"],
  ] as const) {
    it(`${ac}: the right password through another spelling (${spellings.map((s) => JSON.stringify(s)).join(", ")}) fails while the account is locked, verifying nothing`, async () => {
      const { clock, via } = await open();
      for (let i = 0; i < 3; i++) expect(await via(ac, { [field]: locker, pass: `wrong${i}` })()).toBe("No record was returned");
      expect(await via(ac, { [field]: locker, pass: "right" })()).toBe("throttled 900");
      const verifies = realVerifies();
      for (const spelling of spellings) expect(await via(ac, { [field]: spelling, pass: "right" })(), JSON.stringify(spelling)).toBe(answer);
      expect(verifies()).toBe(0);
      // another account through the same access method is not locked
      const carol = ac === "pinint" ? { num: "7" } : { login: "carol" };
      expect(await via(ac, { ...carol, pass: "carol-pass" })()).toBe("ok");
      // the lock is on the credential: another access method comparing the same hash is held back too
      expect(await via("pin", { num: new Decimal("42.0"), pass: "right" })()).toBe("No record was returned");
      // the window over, every spelling works again
      clock.advance(900);
      expect(await via(ac, { [field]: spellings[0], pass: "right" })()).toBe("ok");
    });
  }

  it("concurrent attempts through ten spellings count each other on the hash: three verifies on a limit of three", async () => {
    const { via } = await open();
    const verifies = realVerifies();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => via("slug", { login: `bob${"!".repeat(i + 1)}`, pass: "wrong" })()));
    expect(answers.every((a) => a === "No record was returned")).toBe(true);
    expect(verifies()).toBe(3);
    expect(await via("slug", { login: "BOB", pass: "right" })()).toBe("No record was returned");
  });

  it("held-back attempts answer as an unknown account's, and add no failure to the held hash (the lock ends on time)", async () => {
    const { clock, via } = await open();
    for (let i = 0; i < 3; i++) await via("slug", { login: "bob", pass: `wrong${i}` })();
    clock.advance(600);
    // the right password by a fresh spelling: bob's (held back) and a ghost's (no row) fail alike, then lock alike
    const tries = async (login: string) => {
      const out: string[] = [];
      for (let i = 0; i < 4; i++) out.push(await via("slug", { login, pass: "right" })());
      return out;
    };
    const bob = await tries("Bob!");
    const ghost = await tries("Gh!");
    expect(bob).toEqual(ghost);
    expect(bob).toEqual(["No record was returned", "No record was returned", "No record was returned", "throttled 900"]);
    // bob's hash was locked by the first three failures only: free 900 s after them, by yet another spelling
    clock.advance(300);
    expect(await via("slug", { login: "BOB", pass: "right" })()).toBe("ok");
  });

  it("per-address limits are unchanged: held-back attempts count there like any other", async () => {
    const { via } = await open({ ...LIMITS, ipMaxAttempts: 5 });
    for (let i = 0; i < 3; i++) await via("slug", { login: "bob", pass: `wrong${i}` })("192.0.2.1");
    expect(await via("slug", { login: "Bob!", pass: "right" })("192.0.2.1")).toBe("No record was returned");
    expect(await via("slug", { login: "--bob--", pass: "right" })("192.0.2.1")).toBe("No record was returned");
    expect(await via("slug", { login: "carol", pass: "carol-pass" })("192.0.2.1")).toMatch(/^throttled /);
    expect(await via("slug", { login: "carol", pass: "carol-pass" })("192.0.2.2")).toBe("ok");
  });

  it("a system user: the lock holds on its stored hash (a second user given the same PASSHASH is held back too)", async () => {
    const { db, clock } = await open();
    const hash = await hashPassword("ops-pass");
    await db.importText(`USE NS app DB app; DEFINE USER ops ON DATABASE PASSHASH '${hash}' ROLES VIEWER; DEFINE USER ops2 ON DATABASE PASSHASH '${hash}' ROLES VIEWER;`);
    const user = (name: string, pass: string) => outcome(db.iam.signin(newSession(), { NS: "app", DB: "app", user: name, pass }));
    const unknown = await user("nobody", "ops-pass");
    for (let i = 0; i < 3; i++) expect(await user("ops", `wrong${i}`)).toBe(unknown);
    expect(await user("ops", "ops-pass")).toBe("throttled 900");
    const verifies = realVerifies();
    expect(await user("ops2", "ops-pass")).toBe(unknown);
    expect(await outcome(db.iam.basicAuth(newSession(), "ops2", "ops-pass", { ns: "app", db: "app" }))).toBe(unknown);
    expect(verifies()).toBe(0);
    expect(await user("reader", "reader-pass")).toBe("ok");
    clock.advance(900);
    expect(await user("ops2", "ops-pass")).toBe("ok");
  });
});

describe("canonicalNumber", () => {
  it("one text for every kind and spelling of one number; others apart", () => {
    const same = [42n, 42, 42.0, new Decimal("42"), new Decimal("42.000"), new Decimal("4.2e1"), new Decimal("+42")];
    expect(new Set(same.map(canonicalNumber))).toEqual(new Set(["42"]));
    expect(canonicalNumber(new Decimal("-0.50"))).toBe(canonicalNumber(-0.5));
    expect(canonicalNumber(0n)).toBe(canonicalNumber(new Decimal("-0.0")));
    expect(canonicalNumber(1e21)).toBe("1000000000000000000000");
    expect(canonicalNumber(42.5)).not.toBe(canonicalNumber(42n));
    expect(canonicalNumber(Number.NaN)).toBe("NaN");
  });
});
