import { describe, expect, it } from "vitest";
import { claimsToValue, issuedPayload, readClaims } from "../../src/iam/claims.js";

describe("readClaims", () => {
  it("accepts every alias of auth.md §4.2 under its canonical name (v2)", () => {
    for (const [ns, db, ac, id, rl] of [
      ["NS", "DB", "AC", "ID", "RL"],
      ["ns", "db", "ac", "id", "rl"],
      ["https://surrealdb.com/ns", "https://surrealdb.com/db", "https://surrealdb.com/ac", "https://surrealdb.com/id", "https://surrealdb.com/rl"],
      [
        "https://surrealdb.com/namespace",
        "https://surrealdb.com/database",
        "https://surrealdb.com/access",
        "https://surrealdb.com/record",
        "https://surrealdb.com/roles",
      ],
    ] as const) {
      const c = readClaims({ exp: 10, [ns]: "n", [db]: "d", [ac]: "a", [id]: "user:1", [rl]: ["Editor"] }, 2);
      expect(c).toMatchObject({ exp: 10, NS: "n", DB: "d", AC: "a", ID: "user:1", RL: ["Editor"], custom: {} });
    }
  });

  it("v1 knows SC and TK, and treats AC as a custom claim", () => {
    const c = readClaims({ sc: "s", "https://surrealdb.com/token": "t", AC: "x" }, 1);
    expect(c.SC).toBe("s");
    expect(c.TK).toBe("t");
    expect(c.AC).toBeUndefined();
    expect(c.custom).toEqual({ AC: "x" });
  });

  it("v2 treats SC and TK as custom claims (1.x scope tokens are not understood)", () => {
    const c = readClaims({ SC: "s", TK: "t" }, 2);
    expect(c.custom).toEqual({ SC: "s", TK: "t" });
  });

  it("refuses ill-typed and duplicated claims", () => {
    expect(() => readClaims({ exp: "soon" }, 2)).toThrow();
    expect(() => readClaims({ exp: 1.5 }, 2)).toThrow();
    expect(() => readClaims({ NS: 1 }, 2)).toThrow();
    expect(() => readClaims({ NS: "a", ns: "b" }, 2)).toThrow();
    expect(() => readClaims({ RL: "Owner" }, 2)).toThrow();
  });

  it("$token uses canonical names and converts custom JSON (ints as int, floats kept, nesting kept)", () => {
    const c = readClaims({ ns: "n", exp: 5, foo: { a: [1, 2.5, true, null] } }, 2);
    expect(claimsToValue(c)).toEqual({ NS: "n", exp: 5n, foo: { a: [1n, 2.5, true, null] } });
  });
});

describe("issuedPayload", () => {
  it("serialises in SurrealDB's order, omitting absent claims", () => {
    const p = issuedPayload({ iat: 1, exp: 2, jti: "j", ID: "u", NS: "n", DB: "d", AC: "a" });
    expect(Object.keys(p)).toEqual(["iat", "nbf", "exp", "iss", "jti", "NS", "DB", "AC", "ID"]);
    expect(p.iss).toBe("SurrealDB");
    expect(p.nbf).toBe(1);
  });
});
