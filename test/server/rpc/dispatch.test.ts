// RPC dispatch without sockets: request validation, method table, param counts, v1/v2 result shapes, session expiry.

import { describe, expect, it } from "vitest";
import { newSession, type Compat, type Session } from "../../../src/exec/session.js";
import { dispatch } from "../../../src/server/rpc/dispatch.js";
import { resolveContext } from "../../../src/server/types.js";
import { Datetime, RecordId, RecordIdRange, Table, Uuid, type Value, type ValueObject } from "../../../src/value/types.js";
import { FakeEngine, FakeIam } from "../fakes.js";

function setup(compat: Compat = 2, transport: "ws" | "http" = "ws") {
  const engine = new FakeEngine(compat);
  const iam = new FakeIam(engine);
  const ctx = resolveContext({ engine, iam });
  const session = newSession({ rt: transport === "ws" });
  const call = (method: string, params: Value[] = [], extra: ValueObject = {}) =>
    dispatch({ ctx, session, transport }, { id: 1n, method, params, ...extra });
  return { engine, iam, session, call, ctx };
}

const err = (code: number, message: string, id: Value = 1n) => ({ id, error: { code: BigInt(code), message } });

describe("request validation", () => {
  it.each<[string, Value, ValueObject]>([
    ["a non-object message", [1n], { error: { code: -32600n, message: "Invalid Request" } }],
    ["an id of a bad type", { id: [1n], method: "ping" }, { error: { code: -32600n, message: "Invalid Request" } }],
    ["a missing method", { id: "a" }, { id: "a", error: { code: -32600n, message: "Invalid Request" } }],
    ["a method that is not a string", { id: "a", method: 5n }, { id: "a", error: { code: -32600n, message: "Invalid Request" } }],
    ["an unknown method", { id: "a", method: "nope" }, { id: "a", error: { code: -32601n, message: "Method not found" } }],
    ["an inherited property as a method", { id: "a", method: "constructor" }, { id: "a", error: { code: -32601n, message: "Method not found" } }],
    ["version 3", { id: "a", method: "ping", version: 3n }, { id: "a", error: { code: -32600n, message: "Invalid Request" } }],
  ])("answers %s", async (_name, message, expected) => {
    const { ctx } = setup();
    expect(await dispatch({ ctx, session: newSession(), transport: "ws" }, message)).toEqual(expected);
  });

  it.each<[string, Value]>([
    ["string", "x"],
    ["int", 7n],
    ["float", 1.5],
    ["uuid", new Uuid("0191e3b2-6c1a-7000-8000-000000000001")],
    ["datetime", new Datetime(0n)],
  ])("echoes a %s id", async (_name, id) => {
    const { ctx } = setup();
    expect(await dispatch({ ctx, session: newSession(), transport: "ws" }, { id, method: "ping" })).toEqual({ id, result: undefined });
  });

  it("omits the id when the request has none or a NULL one", async () => {
    const { ctx } = setup();
    expect(await dispatch({ ctx, session: newSession(), transport: "ws" }, { method: "ping" })).toEqual({ result: undefined });
    expect(await dispatch({ ctx, session: newSession(), transport: "ws" }, { id: null, method: "ping" })).toEqual({ result: undefined });
  });

  it("accepts version 1 and 2 in v2 and ignores the field in v1", async () => {
    expect(await setup(2).call("ping", [], { version: 2n })).toEqual({ id: 1n, result: undefined });
    expect(await setup(1).call("ping", [], { version: 9n })).toEqual({ id: 1n, result: undefined });
  });

  it("treats non-array params as []", async () => {
    const { ctx } = setup();
    expect(await dispatch({ ctx, session: newSession(), transport: "ws" }, { id: 1n, method: "version", params: "x" })).toEqual({ id: 1n, result: "surrealdb-2.6.0" });
  });

  it("matches method names exactly in v2 and case-insensitively in v1", async () => {
    expect(await setup(2).call("PING")).toEqual(err(-32601, "Method not found"));
    expect(await setup(1).call("PING")).toEqual({ id: 1n, result: undefined });
  });

  it("knows no v2-only methods in v1", async () => {
    for (const m of ["reset", "upsert", "insert_relation", "graphql"]) expect(await setup(1).call(m, [])).toEqual(err(-32601, "Method not found"));
  });
});

describe("param counts", () => {
  it.each<[string, number[]]>([
    ["version", [1]],
    ["use", [0, 1, 3]],
    ["signin", [0, 2]],
    ["signup", [0, 2]],
    ["authenticate", [0, 2]],
    ["let", [0, 3]],
    ["unset", [0, 2]],
    ["query", [0, 3]],
    ["select", [0, 2]],
    ["create", [0, 3]],
    ["insert", [1, 3]],
    ["update", [0, 3]],
    ["upsert", [0, 3]],
    ["merge", [0, 3]],
    ["patch", [0, 4]],
    ["delete", [0, 2]],
    ["relate", [2, 5]],
    ["run", [0, 4]],
  ])("%s rejects %j params", async (method, counts) => {
    for (const n of counts) {
      const { call } = setup();
      expect(await call(method, Array.from({ length: n }, () => "x"))).toEqual(err(-32602, "Invalid params"));
    }
  });

  it.each<[string, Value[]]>([
    ["signin with a non-object", ["root"]],
    ["authenticate with a non-string", [1n]],
    ["query with non-string SQL", [1n]],
    ["query with non-object vars", ["RETURN 1", [1n]]],
    ["let with a non-string name", [1n, 2n]],
    ["use with a number (v2)", [1n, "db"]],
    ["run with a bad function name", ["fn::x; DROP", undefined, []]],
    ["run with non-array args", ["fn::x", undefined, 1n]],
    ["run ml:: without a version", ["ml::m", undefined, []]],
  ])("rejects %s", async (name, params) => {
    const method = name.split(" ")[0];
    expect(await setup().call(method, params)).toEqual(err(-32602, "Invalid params"));
  });
});

describe("methods", () => {
  it("version answers the compat's SurrealDB version", async () => {
    expect(await setup(2).call("version")).toEqual({ id: 1n, result: "surrealdb-2.6.0" });
    expect(await setup(1).call("version")).toEqual({ id: 1n, result: "surrealdb-1.5.4" });
  });

  it("use in v2: strings set, NULL clears, NONE keeps", async () => {
    const { call, session } = setup(2);
    await call("use", ["ns", "db"]);
    expect([session.ns, session.db]).toEqual(["ns", "db"]);
    await call("use", [undefined, null]);
    expect([session.ns, session.db]).toEqual(["ns", undefined]);
  });

  it("use in v1 ignores non-strings", async () => {
    const { call, session } = setup(1);
    await call("use", ["ns", "db"]);
    expect(await call("use", [1n, null])).toEqual({ id: 1n, result: undefined });
    expect([session.ns, session.db]).toEqual(["ns", "db"]);
  });

  it("signin returns the bare token, or { access, refresh } with a refresh token (SurrealDB's Token::WithRefresh); failures are -32000", async () => {
    const { call, session, iam } = setup(2);
    expect(await call("signin", [{ user: "root", pass: "root" }])).toEqual({ id: 1n, result: "tok-root" });
    iam.refreshToken = "surreal-refresh-x";
    expect(await call("signin", [{ user: "root", pass: "root" }])).toEqual({ id: 1n, result: { access: "tok-root", refresh: "surreal-refresh-x" } });
    expect(session.actor.id).toBe("root");
    expect(await call("signin", [{ user: "x", pass: "y" }])).toEqual(err(-32000, "There was a problem with the database: There was a problem with authentication"));
    expect(await call("signin", [{ user: "norecord" }])).toEqual(err(-32000, "There was a problem with the database: No record was returned"));
  });

  it("signup, info and invalidate", async () => {
    const { call, session } = setup(2);
    expect(await call("signup", [{ NS: "n", DB: "d", AC: "user" }])).toEqual({ id: 1n, result: "tok-record" });
    expect(await call("info")).toEqual({ id: 1n, result: { id: new RecordId("user", 1n), name: "Tobie" } });
    expect(await call("invalidate")).toEqual({ id: 1n, result: undefined });
    expect(session.actor.level).toBe("No");
    expect(await call("info")).toEqual({ id: 1n, result: undefined });
  });

  it("authenticate keeps the previous session on failure", async () => {
    const { call, session } = setup(2);
    await call("authenticate", ["tok-root"]);
    expect(await call("authenticate", ["tok-badrole"])).toEqual(err(-32000, "There was a problem with the database: IAM error: Invalid role 'Boss'"));
    expect(await call("authenticate", ["garbage"])).toEqual(err(-32000, "There was a problem with the database: There was a problem with authentication"));
    expect(session.actor.id).toBe("root");
  });

  it("let / set / unset manage connection params; protected names are refused", async () => {
    const { call, session, engine } = setup(2);
    expect(await call("let", ["x", 1n])).toEqual({ id: 1n, result: null });
    expect(await call("set", ["y", "v"])).toEqual({ id: 1n, result: null });
    expect([...session.params]).toEqual([["x", 1n], ["y", "v"]]);
    await call("query", ["RETURN $x", { x: 2n, z: 3n }]);
    expect(engine.last.vars).toEqual({ x: 1n, y: "v", z: 3n });
    await call("let", ["x"]);
    await call("unset", ["y"]);
    expect(session.params.size).toBe(0);
    expect(await call("let", ["access", 1n])).toEqual(err(-32000, "There was a problem with the database: 'access' is a protected variable and cannot be set"));
    expect((await setup(1).call("let", ["scope", 1n])).error).toBeDefined();
    // stricter than SurrealDB 1.5.4, which accepts `access` (exec/protected.ts)
    expect((await setup(1).call("let", ["access", 1n])).error).toBeDefined();
  });

  it("a connection's variables together stay within one message of its session (attack pass 4, B6: lets ran the server out of memory)", async () => {
    const { call, session, ctx } = setup(2);
    const limit = ctx.limits.preAuthPayload; // not signed in
    const big = "x".repeat(Math.floor(limit * 0.6));
    expect(await call("let", ["a", big])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["a", big])).toEqual({ id: 1n, result: null }); // replacing a variable counts it once
    expect(await call("let", ["b", big])).toEqual(
      err(-32000, `There was a problem with the database: The connection's variables are too large: together they must not exceed ${limit} bytes`),
    );
    expect([...session.params.keys()]).toEqual(["a"]);
    await call("unset", ["a"]);
    expect(await call("let", ["b", big])).toEqual({ id: 1n, result: null });
  });

  it("a table value and a record id's table count towards the connection's variables like a string (attack pass 13, K4)", async () => {
    const { call, ctx } = setup(2);
    const limit = ctx.limits.preAuthPayload;
    const big = "T".repeat(Math.floor(limit * 0.6));
    const tooLarge = err(-32000, `There was a problem with the database: The connection's variables are too large: together they must not exceed ${limit} bytes`);
    expect(await call("let", ["a", new Table(big)])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["b", new Table(big)])).toEqual(tooLarge);
    expect(await call("let", ["b", new RecordId(big, 1n)])).toEqual(tooLarge);
  });

  it("the variables' running total follows let without a value, reset, and a variable replaced by a smaller one", async () => {
    const { call, ctx } = setup(2);
    const limit = ctx.limits.preAuthPayload;
    const big = "x".repeat(Math.floor(limit * 0.6));
    const tooLarge = err(-32000, `There was a problem with the database: The connection's variables are too large: together they must not exceed ${limit} bytes`);
    expect(await call("let", ["a", big])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["a"])).toEqual({ id: 1n, result: null }); // no value: a goes
    expect(await call("let", ["b", big])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["c", big])).toEqual(tooLarge);
    await call("reset"); // clears the variables outside let / unset
    expect(await call("let", ["c", big])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["c", "small"])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["d", big])).toEqual({ id: 1n, result: null });
    expect(await call("let", ["e", big])).toEqual(tooLarge);
  });

  it("reset clears ns, db and params (v2)", async () => {
    const { call, session } = setup(2);
    await call("use", ["n", "d"]);
    await call("let", ["x", 1n]);
    await call("reset");
    expect([session.ns, session.db, session.params.size]).toEqual([undefined, undefined, 0]);
  });

  it("query returns {result, status, time} per statement, errors in-band", async () => {
    const { call, engine } = setup(2);
    engine.respond = () => [
      { status: "OK", result: 1n, time: "1ms" },
      { status: "ERR", result: "boom", time: "2ms", error: new Error("boom") as never },
    ];
    expect(await call("query", ["RETURN 1; THROW 'boom'"])).toEqual({
      id: 1n,
      result: [
        { result: 1n, status: "OK", time: "1ms" },
        { result: "boom", status: "ERR", time: "2ms" },
      ],
    });
  });

  it("a parse error of query is -32000", async () => {
    expect(await setup(2).call("query", ["BAD SQL"])).toEqual(err(-32000, "There was a problem with the database: Parse error: Unexpected token `SQL`"));
  });

  describe("CRUD statements and result shapes", () => {
    const rid = new RecordId("person", 1n);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: new RecordId("person", BigInt(i + 1)) }));

    function crud(compat: Compat, result: Value) {
      const s = setup(compat);
      s.engine.respond = () => [{ status: "OK", result, time: "1ms" }];
      return s;
    }

    it.each<[string, Value[], string, ValueObject]>([
      ["select", ["person"], "SELECT * FROM $what", { what: new Table("person") }],
      ["create", ["person", { a: 1n }], "CREATE $what CONTENT $data RETURN AFTER", { what: new Table("person"), data: { a: 1n } }],
      ["create", ["person"], "CREATE $what RETURN AFTER", { what: new Table("person"), data: undefined }],
      ["create", ["person", null], "CREATE $what RETURN AFTER", { what: new Table("person"), data: null }],
      ["update", [rid, null], "UPDATE $what RETURN AFTER", { what: rid, data: null }],
      ["insert", ["person", [{ a: 1n }]], "INSERT INTO $what $data RETURN AFTER", { what: new Table("person"), data: [{ a: 1n }] }],
      ["insert", [null, [{ a: 1n }]], "INSERT $data RETURN AFTER", { data: [{ a: 1n }] }],
      ["insert_relation", ["likes", { in: rid }], "INSERT RELATION INTO $what $data RETURN AFTER", { what: new Table("likes"), data: { in: rid } }],
      ["update", [rid, { a: 1n }], "UPDATE $what CONTENT $data RETURN AFTER", { what: rid, data: { a: 1n } }],
      ["upsert", [rid, { a: 1n }], "UPSERT $what CONTENT $data RETURN AFTER", { what: rid, data: { a: 1n } }],
      ["merge", [rid, { a: 1n }], "UPDATE $what MERGE $data RETURN AFTER", { what: rid, data: { a: 1n } }],
      ["patch", [rid, [{ op: "add" }]], "UPDATE $what PATCH $data RETURN AFTER", { what: rid, data: [{ op: "add" }] }],
      ["patch", [rid, [{ op: "add" }], true], "UPDATE $what PATCH $data RETURN DIFF", { what: rid, data: [{ op: "add" }] }],
      ["delete", [rid], "DELETE $what RETURN BEFORE", { what: rid }],
      ["relate", [rid, "likes", rid, { w: 1n }], "RELATE $from->$kind->$to CONTENT $data", { from: rid, kind: new Table("likes"), to: rid, data: { w: 1n } }],
      ["run", ["fn::greet", undefined, ["a", 1n]], "RETURN fn::greet($arg0, $arg1)", { arg0: "a", arg1: 1n }],
      ["run", ["time::now"], "RETURN time::now()", {}],
      ["run", ["ml::model", "1.0.0", [1n]], "RETURN ml::model<1.0.0>($arg0)", { arg0: 1n }],
    ])("%s %o ⇒ %s", async (method, params, sql, vars) => {
      const { call, engine } = crud(2, []);
      await call(method, params);
      expect(engine.last.query).toBe(sql);
      expect(engine.last.vars).toEqual(vars);
    });

    it("v2 select / update / delete of one record give the record or NONE", async () => {
      expect(await crud(2, rows(1)).call("select", [rid])).toEqual({ id: 1n, result: rows(1)[0] });
      expect(await crud(2, []).call("select", [rid])).toEqual({ id: 1n, result: undefined });
      expect(await crud(2, rows(2)).call("select", ["person"])).toEqual({ id: 1n, result: rows(2) });
      expect(await crud(2, rows(1)).call("delete", [rid])).toEqual({ id: 1n, result: rows(1)[0] });
    });

    it("a record id range is not a single record", async () => {
      const range = new RecordId("person", new RecordIdRange({ value: 1n, inclusive: true }, undefined));
      expect(await crud(2, rows(2)).call("select", [range])).toEqual({ id: 1n, result: rows(2) });
    });

    it("create on a table is single in v2 and an array in v1", async () => {
      expect(await crud(2, rows(1)).call("create", ["person"])).toEqual({ id: 1n, result: rows(1)[0] });
      expect(await crud(1, rows(1)).call("create", ["person"])).toEqual({ id: 1n, result: rows(1) });
      expect(await crud(1, rows(1)).call("create", [rid])).toEqual({ id: 1n, result: rows(1)[0] });
    });

    it("insert always returns the array", async () => {
      expect(await crud(2, rows(1)).call("insert", ["person", { a: 1n }])).toEqual({ id: 1n, result: rows(1) });
    });

    it("relate: v1 single when kind is a record id, v2 when from and to are records", async () => {
      const edge = new RecordId("likes", 1n);
      expect(await crud(1, rows(1)).call("relate", [rid, edge, rid])).toEqual({ id: 1n, result: rows(1)[0] });
      expect(await crud(1, rows(1)).call("relate", [rid, "likes", rid])).toEqual({ id: 1n, result: rows(1) });
      expect(await crud(2, rows(1)).call("relate", [rid, "likes", rid])).toEqual({ id: 1n, result: rows(1)[0] });
      expect(await crud(2, rows(1)).call("relate", [[rid], "likes", rid])).toEqual({ id: 1n, result: rows(1) });
    });

    it("a statement error becomes -32000", async () => {
      const { call, engine } = setup(2);
      engine.respond = () => [{ status: "ERR", result: "IAM error: Not enough permissions to perform this action", time: "1ms", error: new Error() as never }];
      expect(await call("select", ["person"])).toEqual(err(-32000, "There was a problem with the database: IAM error: Not enough permissions to perform this action"));
    });
  });

  it("live and kill are refused: live queries are not supported", async () => {
    expect(await setup().call("live", ["person"])).toEqual(err(-32000, "There was a problem with the database: Live Query was made, but is not supported"));
    expect(await setup().call("kill", [new Uuid("0191e3b2-6c1a-7000-8000-000000000001")])).toEqual(
      err(-32000, "There was a problem with the database: Live Query was made, but is not supported"),
    );
  });

  it("over HTTP let / set / unset do not exist", async () => {
    for (const m of ["let", "set", "unset"]) expect(await setup(2, "http").call(m, ["x", 1n])).toEqual(err(-32601, "Method not found"));
  });

  it("an unexpected engine failure reveals nothing", async () => {
    const { call, engine } = setup(2);
    engine.respond = () => {
      throw new TypeError("secret internals");
    };
    expect(await call("select", ["person"])).toEqual(err(-32000, "There was a problem with the database: An internal error occurred"));
  });
});

describe("session expiry", () => {
  async function expired(): Promise<ReturnType<typeof setup>> {
    const s = setup(2);
    await s.call("authenticate", ["tok-stale"]);
    return s;
  }
  const EXPIRED = err(-32000, "There was a problem with the database: The session has expired");

  it.each<[string, Value[]]>([
    ["query", ["RETURN 1"]],
    ["select", ["person"]],
    ["create", ["person"]],
    ["insert", ["person", {}]],
    ["update", ["person"]],
    ["upsert", ["person"]],
    ["merge", ["person"]],
    ["patch", ["person", []]],
    ["delete", ["person"]],
    ["relate", ["a", "b", "c"]],
    ["run", ["fn::x"]],
    ["let", ["x", 1n]],
    ["unset", ["x"]],
    ["info", []],
    ["live", ["person"]],
    ["kill", ["x"]],
  ])("blocks %s", async (method, params) => {
    const { call, engine } = await expired();
    expect(await call(method, params)).toEqual(EXPIRED);
    expect(engine.calls).toHaveLength(0);
  });

  it.each<[string, Value[]]>([
    ["ping", []],
    ["version", []],
    ["use", ["n", "d"]],
    ["invalidate", []],
    ["reset", []],
  ])("still allows %s", async (method, params) => {
    const { call } = await expired();
    expect((await call(method, params)).error).toBeUndefined();
  });

  it("a new signin replaces the expiry", async () => {
    const { call } = await expired();
    expect((await call("signin", [{ user: "root", pass: "root" }])).result).toBe("tok-root");
    expect((await call("query", ["RETURN 1"])).error).toBeUndefined();
  });
});

describe("the real Iam fits the AuthService interface", () => {
  it("type-checks", async () => {
    const { Iam } = await import("../../../src/iam/index.js");
    type Check<T extends import("../../../src/server/types.js").AuthService> = T;
    const ok: Check<InstanceType<typeof Iam>> | undefined = undefined;
    expect(ok).toBeUndefined();
  });
});

export type { Session };
