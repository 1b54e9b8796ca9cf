import argon2 from "argon2";
import { describe, expect, it } from "vitest";
import { ARGON2_LIMITS } from "../../src/exec/functions/hashing.js";
import { checkPasshash, verifyPassword } from "../../src/iam/password.js";
import { cheapHash } from "./fake-engine.js";

// A hash produced by SurrealDB's own parameters order (m,t,p) for "surql-auth-dummy".
const SURREAL_STYLE = "$argon2id$v=19$m=19456,t=2,p=1$7bTUozxmbAjckP+IxNjzPg$o7l3KF86VwEik84hFCFu/w4TKxzujSdubS8LYSQSvtg";

describe("verifyPassword", () => {
  it("verifies SurrealDB-style and node-argon2-style PHC strings", async () => {
    expect((await verifyPassword(SURREAL_STYLE, "surql-auth-dummy")).ok).toBe(true);
    expect((await verifyPassword(SURREAL_STYLE, "other")).ok).toBe(false);
    const h = await cheapHash("pw");
    expect((await verifyPassword(h, "pw")).ok).toBe(true);
  });

  it("accepts argon2i and argon2d hashes", async () => {
    for (const type of [argon2.argon2i, argon2.argon2d] as const) {
      const h = await argon2.hash("pw", { type, memoryCost: 1024, timeCost: 1, parallelism: 1 });
      expect((await verifyPassword(h, "pw")).ok).toBe(true);
    }
  });

  it("a non-PHC or non-argon2 PASSHASH is a plain failure, never a throw", async () => {
    for (const bad of ["", "plain", "$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234", "$scrypt$ln=4,r=8,p=1$abc$def", "$argon2id$v=19$m=x$a$b", undefined]) {
      const r = await verifyPassword(bad, "pw");
      expect(r.ok).toBe(false);
      expect(r.reason).toBeTruthy();
    }
  });

  it("refuses hashes costing more than 4x SurrealDB's parameters without running them", async () => {
    const costly = SURREAL_STYLE.replace("m=19456,t=2", "m=4194304,t=2");
    expect(checkPasshash(costly)).toEqual({ ok: false, reason: "argon2 parameters exceed the verification limit" });
    expect(checkPasshash(SURREAL_STYLE.replace("t=2", "t=100")).ok).toBe(false);
    expect(checkPasshash(SURREAL_STYLE.replace("p=1", "p=16")).ok).toBe(false);
    expect(checkPasshash(SURREAL_STYLE.replace("m=19456,t=2", `m=${ARGON2_LIMITS.memoryCost},t=2`)).ok).toBe(true);
    expect(checkPasshash(SURREAL_STYLE.replace("m=19456,t=2", `m=${ARGON2_LIMITS.memoryCost},t=${ARGON2_LIMITS.timeCost}`)).ok).toBe(true);
    expect(checkPasshash(SURREAL_STYLE.replace("m=19456,t=2", `m=${ARGON2_LIMITS.memoryCost},t=${ARGON2_LIMITS.timeCost + 1}`)).ok).toBe(false);
    expect((await verifyPassword(costly, "surql-auth-dummy")).ok).toBe(false);
  });

  it("an empty password never verifies", async () => {
    const h = await cheapHash("");
    expect((await verifyPassword(h, "")).ok).toBe(false);
  });
});
