// The catalogue: every error class of ours carries a code, client-visible texts are SurrealDB's, and our own
// (local) errors never reach a client as they stand.

import { describe, expect, it } from "vitest";
import { InvalidEscape } from "../../grammar/literals.js";
import { UsageError } from "../../src/cli/args.js";
import { AUTH_MESSAGES, databaseProblem, QUERY_MESSAGES, RPC_MESSAGES } from "../../src/errors/catalogue.js";
import { authError, CodedError, LocalError, protectedVariable, queryError, SurrealError } from "../../src/errors/index.js";
import { ClaimsError } from "../../src/iam/claims.js";
import { JwksError } from "../../src/iam/jwks.js";
import { AuthFailure, authFailureText } from "../../src/server/auth.js";
import { CborError, DecodeError, JsonError } from "../../src/server/codec/index.js";
import { invalidParams, methodNotFound, parseError, RpcError, toRpcError } from "../../src/server/rpc/errors.js";
import { PayloadTooLarge } from "../../src/server/routes/common.js";

describe("error catalogue", () => {
  it.each([
    ["JwksError", new JwksError("bad key"), "Jwks"],
    ["ClaimsError", new ClaimsError("bad claim"), "Claims"],
    ["UsageError", new UsageError("no command"), "Usage"],
    ["CborError", new CborError("bad tag"), "Decode"],
    ["JsonError", new JsonError("bad json"), "Decode"],
    ["DecodeError", new DecodeError("bad frame"), "Decode"],
    ["AuthFailure", new AuthFailure("There was a problem with authentication"), "AuthFailure"],
    ["PayloadTooLarge", new PayloadTooLarge(), "PayloadTooLarge"],
    ["InvalidEscape", new InvalidEscape(), "InvalidEscape"],
  ])("%s is a LocalError with a code, named after its class", (name, e, code) => {
    expect(e).toBeInstanceOf(CodedError);
    expect(e).toBeInstanceOf(LocalError);
    expect(e).not.toBeInstanceOf(SurrealError);
    expect(e.code).toBe(code);
    expect(e.name).toBe(name);
  });

  it("a local error's text never reaches an RPC client or an HTTP 401 body", () => {
    for (const e of [new JwksError("https://idp.internal/jwks unreachable"), new ClaimsError("claim 'ns' is 42")]) {
      expect(toRpcError(e)).toMatchObject({ code: -32000, message: "There was a problem with the database: An internal error occurred" });
      expect(authFailureText(e)).toBe("There was a problem with authentication");
    }
  });

  it("RPC errors keep their JSON-RPC codes and texts", () => {
    expect([parseError(), methodNotFound(), invalidParams()].map((e) => [e.code, e.message])).toEqual([
      [-32700, "Parse error"],
      [-32601, "Method not found"],
      [-32602, "Invalid params"],
    ]);
    expect(new RpcError(-32000, "x")).toBeInstanceOf(CodedError);
    expect(RPC_MESSAGES[-32600]).toBe("Invalid Request");
  });

  it("the wire prefix, built once, wraps an engine error for HTTP and RPC alike", () => {
    expect(databaseProblem("Specify a namespace to use")).toBe("There was a problem with the database: Specify a namespace to use");
    const e = new SurrealError("NsEmpty", QUERY_MESSAGES.NsEmpty());
    expect(toRpcError(e).message).toBe(databaseProblem(e.message));
    expect(authFailureText(authError("ExpiredToken"))).toBe("There was a problem with the database: The token has expired");
  });

  it("the protected-variable text (SurrealDB's InvalidParam)", () => {
    expect(protectedVariable("auth")).toMatchObject({ code: "InvalidParam", message: "'auth' is a protected variable and cannot be set" });
  });

  // SurrealDB's texts (reference/auth.md §errors, oracle 1.5.4 / 2.6.0), one row per catalogued auth code.
  it.each<[keyof typeof AUTH_MESSAGES, string[], string]>([
    ["InvalidAuth", [], "There was a problem with authentication"],
    ["ExpiredToken", [], "The token has expired"],
    ["ExpiredSession", [], "The session has expired"],
    ["NotAllowed", [], "IAM error: Not enough permissions to perform this action"],
    ["NoRecordFound", [], "No record was returned"],
    ["NoSigninTarget", [], "No signin target to either SC or DB or NS or KV"],
    ["MissingUserOrPass", [], "Username or Password was not provided"],
    ["InvalidSignup", [], "There was a problem with signing up"],
    ["AccessMethodMismatch", [], "The access method cannot be used in the requested operation"],
    ["SigninQueryFailed", [], "The signin query failed"],
    ["AccessRecordSignupQueryFailed", [], "The record access signup query failed"],
    ["ScopeNoSignup", [], "This scope does not allow signup"],
    ["AccessRecordNoSignin", [], "This record access method does not allow signin"],
    ["NoScopeFound", [], "The scope does not exist"],
    ["AccessNotFound", [], "The access method does not exist"],
    ["InvalidRole", ["GOD"], "IAM error: Invalid role 'GOD'"],
    ["AccessDbNotFound", ["api", "app"], "The access method 'api' does not exist in the database 'app'"],
    ["AccessNsNotFound", ["api", "app"], "The access method 'api' does not exist in the namespace 'app'"],
    ["AccessRootNotFound", ["api"], "The root access method 'api' does not exist"],
  ])("%s: %j ⇒ SurrealDB's text", (code, args, text) => {
    expect((AUTH_MESSAGES[code] as (...a: string[]) => string)(...args)).toBe(text);
  });
});

describe("engine texts from the catalogue", () => {
  it.each<[keyof typeof QUERY_MESSAGES, unknown[], string]>([
    ["NsEmpty", [], "Specify a namespace to use"],
    ["DbEmpty", [], "Specify a database to use"],
    ["Thrown", ["nope"], "An error occurred: nope"],
    ["ComputationDepthExceeded", [], "Reached excessive computation depth due to functions, subqueries, or futures"],
    ["InvalidControlFlow", ["Break"], "Break statement has been reached"],
    ["QueryNotExecuted", [], "The query was not executed due to a failed transaction"],
    ["QueryCancelled", [], "The query was not executed due to a cancelled transaction"],
    ["SingleOnlyOutput", [], "Expected a single result output when using the ONLY keyword"],
    ["RecordExists", ["user:1"], "Database record `user:1` already exists"],
    ["TryPow", ["2", "-1"], "Cannot raise the value '2' with '-1'"],
    ["TryNeg", ["-9223372036854775808"], "Cannot negate the value '-9223372036854775808'"],
    ["TryAdd", ["1", "a"], "Cannot perform addition with '1' and 'a'"],
    ["ArithmeticOverflow", ["math::abs(-9223372036854775808)"], 'Failed to compute: "math::abs(-9223372036854775808)", as the operation results in an arithmetic overflow.'],
    ["InvalidStatementTarget", ["1"], "Can not execute statement using value: 1"],
    ["InvalidStatementTarget", ["1", "CREATE"], "Can not execute CREATE statement using value: 1"],
    ["RelateStatement", ["1"], "Can not execute RELATE statement using value: 1"],
    ["InsertStatement", ["1"], "Can not execute INSERT statement using value: 1"],
    ["FieldCheck", ["'x'", "age", "user:1", "expected a int"], "Found 'x' for field `age`, with record `user:1`, but expected a int"],
    ["FieldReadonly", ["age", "user:1"], "Found changed value for field `age`, with record `user:1`, but field is readonly"],
    ["IndexExists", ["email", { value: "['a@b']", rid: "user:1" }], "Database index `email` already contains ['a@b'], with record `user:1`"],
    ["IndexExists", ["email"], "Database index `email` already contains a value"],
    ["InvalidArguments", ["fn::f", "The function expects 1 argument."], "Incorrect arguments for function fn::f(). The function expects 1 argument."],
  ])("%s: %j ⇒ SurrealDB's text, code kept", (code, args, text) => {
    const e = (queryError as (c: string, ...a: unknown[]) => SurrealError)(code, ...args);
    expect([e.code, e.message]).toEqual([code, text]);
  });

  it("INSERT without a target table", () => {
    expect(queryError("InsertStatement", undefined).message).toBe("Can not execute INSERT statement without a target table");
  });
});
