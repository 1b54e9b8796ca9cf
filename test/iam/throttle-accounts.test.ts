// iam/throttle.ts counts a failed record signin against the account its login names, never against rows its compare
// merely ran on (attack pass 12, J6): a compare-first clause, or an optional selector that matches every row without
// it, made an anonymous client lock the whole table out. The named account is found by a shadow run of the clause
// (compares answer true, no verify, transaction cancelled); none or several named: only the spelling and address buckets
// count. Both compats; counted answers with a fake clock, never timed.

import argon2 from "argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HASHING } from "../../src/exec/functions/hashing.js";
import { newSession, type Compat } from "../../src/exec/session.js";
import { SurqlAuth, type ThrottleLimits } from "../../src/index.js";
import type { ValueObject } from "../../src/value/types.js";
import { FakeClock } from "./fake-engine.js";
import { defineSignins, outcome } from "./throttle-outcome.js";

const CLAUSES = {
  // compare first, no index: the compare runs on every row
  first: "SELECT * FROM acct WHERE crypto::argon2::compare(pass, $pass) AND email = $email",
  // an optional phone: without one, every phone-less row reaches the compare
  phone: "SELECT * FROM acct WHERE (email = $email OR phone = $phone) AND crypto::argon2::compare(pass, $pass)",
  // the same cut to one row: the shadow run returns the first phone-less row whatever the email (attack pass 13, K1)
  limit: "SELECT * FROM acct WHERE (email = $email OR phone = $phone) AND crypto::argon2::compare(pass, $pass) LIMIT 1",
  // the hash stored in a linked record, not in the account's own
  linked: "SELECT * FROM member WHERE login = string::slug($login) AND crypto::argon2::compare(vault.pass, $pass)",
  // a clause that writes (its shadow run is cancelled)
  counted: "UPDATE acct SET logins += 1 WHERE email = $email AND crypto::argon2::compare(pass, $pass)",
} as const;

const SCHEMA = (compat: Compat) => `DEFINE NAMESPACE app; USE NS app; DEFINE DATABASE app; USE NS app DB app;
DEFINE TABLE acct SCHEMALESS PERMISSIONS NONE;
DEFINE EVENT login ON acct WHEN $event = "UPDATE" THEN (CREATE audit SET who = $after.id);
${defineSignins(compat, CLAUSES)}
CREATE acct:1 SET email = 'u1@x.io', logins = 0, pass = crypto::argon2::generate('pw1');
CREATE acct:2 SET email = 'u2@x.io', logins = 0, pass = crypto::argon2::generate('pw2');
CREATE acct:3 SET email = 'u3@x.io', logins = 0, pass = crypto::argon2::generate('pw3');
CREATE acct:9 SET email = 'tel@x.io', phone = '555', logins = 0, pass = crypto::argon2::generate('pw9');
CREATE vault:1 SET pass = crypto::argon2::generate('pw5');
CREATE member:5 SET login = 'eve', vault = vault:1;
DEFINE USER root ON ROOT PASSWORD 'root-pass' ROLES OWNER;`;

/** A low lock count, no back-off, no address limit. */
const LIMITS: Partial<ThrottleLimits> = { signinMaxFailures: 3, backoffAfter: 0, ipMaxAttempts: 0 };

const VICTIMS = [
  ["u1@x.io", "pw1"],
  ["u2@x.io", "pw2"],
  ["u3@x.io", "pw3"],
] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([1, 2] as const)("compat %i: a failure counts against the account the login names (attack pass 12, J6)", (compat) => {
  async function open() {
    const clock = new FakeClock();
    const db = await SurqlAuth.open({ compat, clock, throttle: LIMITS });
    await db.importText(SCHEMA(compat));
    const via = (ac: keyof typeof CLAUSES, fields: ValueObject) => outcome(db.iam.signin(newSession(), { NS: "app", DB: "app", [compat === 1 ? "SC" : "AC"]: ac, ...fields }));
    const query = async (sql: string) => {
      const root = db.connect({ ns: "app", db: "app" });
      await root.signin({ user: "root", pass: "root-pass" });
      return (await root.query(sql))[0]!.result;
    };
    return { db, clock, via, query };
  }

  /** Argon2 verifies of a real stored hash (a dummy verify is no guess). */
  function realVerifies(): () => number {
    const verify = vi.spyOn(argon2, "verify");
    return () => verify.mock.calls.filter(([hash]) => hash !== HASHING.argon2.dummy).length;
  }

  it("an optional selector and LIMIT 1: attempts with unknown, empty or no emails lock nobody; a login naming its account still locks it (K1, L1)", async () => {
    const { via } = await open();
    for (let i = 0; i < 6; i++) expect(await via("limit", { email: `nobody${i}@x.io`, pass: "wrong" })).toBe("No record was returned");
    // an empty email, a null one, or none at all names no one either (attack pass 14, L1)
    // (one of each: they share the empty spelling's bucket, whose own lock would answer a fourth; three reach the lock
    // count of the first phone-less account if they were counted against it)
    for (const fields of [{ email: "" }, { email: null }, {}]) expect(await via("limit", { ...fields, pass: "wrong" })).toBe("No record was returned");
    for (const [email, pass] of VICTIMS) expect(await via("limit", { email, pass }), email).toBe("ok");
    for (let i = 0; i < 3; i++) expect(await via("limit", { email: "tel@x.io", phone: "555", pass: `wrong${i}` })).toBe("No record was returned");
    expect(await via("limit", { email: "tel@x.io", phone: "555", pass: "pw9" })).toBe("throttled 900");
  });

  it("compare first: attempts with unknown emails lock nobody; the named account still locks", async () => {
    const { via } = await open();
    for (let i = 0; i < 6; i++) expect(await via("first", { email: `nobody${i}@x.io`, pass: "wrong" })).toBe("No record was returned");
    for (const [email, pass] of VICTIMS) expect(await via("first", { email, pass }), email).toBe("ok");
    for (let i = 0; i < 3; i++) expect(await via("first", { email: "u1@x.io", pass: `wrong${i}` })).toBe("No record was returned");
    expect(await via("first", { email: "u1@x.io", pass: "pw1" })).toBe("throttled 900");
    // the lock is on u1's hash: another access method comparing it holds it back as a wrong password
    expect(await via("phone", { email: "u1@x.io", pass: "pw1" })).toBe("No record was returned");
    expect(await via("first", { email: "u2@x.io", pass: "pw2" })).toBe("ok");
  });

  it("an optional phone left out: attempts with unknown emails lock no phone-less account, and count on their spelling only", async () => {
    const { via } = await open();
    // the shadow run names every phone-less row (several): only the email's own bucket counts
    for (let i = 0; i < 3; i++) expect(await via("phone", { email: "nobody@x.io", pass: `wrong${i}` })).toBe("No record was returned");
    expect(await via("phone", { email: "nobody@x.io", pass: "wrong" })).toBe("throttled 900");
    for (let i = 0; i < 9; i++) expect(await via("phone", { email: `nobody${i}@x.io`, pass: "wrong" })).toBe("No record was returned");
    for (const [email, pass] of [...VICTIMS, ["tel@x.io", "pw9"]]) expect(await via("phone", { email, phone: "000", pass }), email).toBe("ok");
    // with the phone sent, the login names one account: its failures lock it, whatever email comes along
    for (let i = 0; i < 3; i++) expect(await via("phone", { email: `x${i}@x.io`, phone: "555", pass: "wrong" })).toBe("No record was returned");
    expect(await via("phone", { email: "tel@x.io", pass: "pw9" })).toBe("No record was returned");
  });

  it("the victim's email beside another account's phone names both: each selector alone finds its account, and both lock", async () => {
    const { via } = await open();
    for (let i = 0; i < 3; i++) expect(await via("phone", { email: "u1@x.io", phone: "555", pass: `wrong${i}` })).toBe("No record was returned");
    // held back through another access method comparing the same hashes (its selector buckets are its own)
    expect(await via("first", { email: "u1@x.io", pass: "pw1" })).toBe("No record was returned");
    expect(await via("first", { email: "tel@x.io", pass: "pw9" })).toBe("No record was returned");
    expect(await via("first", { email: "u2@x.io", pass: "pw2" })).toBe("ok");
  });

  it("a hash kept outside the named record: the record itself is held back, answered as an unknown account", async () => {
    const { clock, via } = await open();
    const ghost = await via("linked", { login: "ghost", pass: "pw5" });
    for (let i = 0; i < 3; i++) expect(await via("linked", { login: "eve", pass: `wrong${i}` })).toBe(ghost);
    // another spelling of the login, the right password: the clause returns member:5, which is locked
    const verifies = realVerifies();
    expect(await via("linked", { login: "Eve!", pass: "pw5" })).toBe(ghost);
    expect(verifies()).toBe(1);
    clock.advance(900);
    expect(await via("linked", { login: "Eve!", pass: "pw5" })).toBe("ok");
  });

  it("the shadow run writes nothing (its transaction is cancelled, events too) and verifies no hash", async () => {
    const { via, query } = await open();
    const verifies = realVerifies();
    expect(await via("counted", { email: "u2@x.io", pass: "wrong" })).toBe("No record was returned");
    expect(await via("counted", { email: "u2@x.io", pass: "pw2" })).toBe("ok");
    expect(verifies()).toBe(2);
    expect(await query("RETURN acct:2.logins")).toBe(1n);
    expect(await query("RETURN count(SELECT * FROM audit)")).toBe(1n);
  });
});
