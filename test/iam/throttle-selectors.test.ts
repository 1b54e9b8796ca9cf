// iam/throttle-selectors.ts: which variables of a SIGNIN clause select the row (attack pass 7, E8).

import { describe, expect, it } from "vitest";
import { parseExpr } from "../../grammar/index.js";
import { selectorsOf } from "../../src/iam/throttle-selectors.js";

const selectors = (clause: string) => [...selectorsOf(parseExpr(clause))].sort();

describe("selectorsOf", () => {
  it("equality with a stored field, either side, inside OR / AND, through plain functions", () => {
    expect(selectors("SELECT * FROM user WHERE email = $email AND crypto::argon2::compare(pass, $password)")).toEqual(["email"]);
    expect(selectors("SELECT * FROM user WHERE ($email = email OR phone == string::lowercase($phone)) AND fn::check(h, $code)")).toEqual(["email", "phone"]);
    expect(selectors("SELECT * FROM user WHERE $login IN emails OR id = type::thing('user', $id)")).toEqual(["id", "login"]);
  });

  it("a variable only handed to fn:: or crypto::, compared with another variable, or ordered, is none", () => {
    expect(selectors("SELECT * FROM user WHERE fn::login($email, $code)")).toEqual([]);
    expect(selectors("SELECT * FROM user WHERE h = crypto::sha256($pin) AND $a = $b AND age > $age")).toEqual([]);
  });

  it("the targets read: FROM type::thing(…) and record ids", () => {
    expect(selectors("SELECT * FROM type::thing('user', $user) WHERE crypto::bcrypt::compare(pass, $pass)")).toEqual(["user"]);
    expect(selectors("(SELECT * FROM user:[$org, $name])")).toEqual(["name", "org"]);
  });
});
