// object::, duration::, record::/meta::, parse::, session:: and rand:: — expected values from SurrealDB 1.5.4 / 2.6.0.
import { describe, expect, it } from "vitest";
import { isBuiltin } from "../../../src/exec/functions/index.js";
import { newSession } from "../../../src/exec/session.js";
import { Datetime, Duration, RecordId, Uuid, type Value } from "../../../src/value/types.js";
import { FIXED_MS, call, errorOf, makeCtx } from "./helpers.js";

const both = async (name: string, args: Value[], expected: Value) => {
  expect(await call(name, args, 1)).toEqual(expected);
  expect(await call(name, args, 2)).toEqual(expected);
};

describe("object::", () => {
  it("keys, values, entries come out in key order", async () => {
    await both("object::keys", [{ b: 1n, a: 2n }], ["a", "b"]);
    await both("object::values", [{ b: 1n, a: 2n }], [2n, 1n]);
    await both("object::entries", [{ b: 1n, a: 2n }], [["a", 2n], ["b", 1n]]);
    await both("object::from_entries", [[["a", 1n], ["b", 2n]]], { a: 1n, b: 2n });
    await both("object::from_entries", [[[1n, 1n]]], { "1": 1n });
    await both("object::len", [{ a: 1n }], 1n);
    expect(await call("object::is_empty", [{}])).toBe(true);
    expect(isBuiltin("object::is_empty", 1)).toBe(false);
  });
  it("errors", async () => {
    expect(await errorOf("object::from_entries", [[["a", 1n], ["b"]]])).toBe(
      "Incorrect arguments for function object::from_entries(). Expected entries, found array",
    );
    expect(await errorOf("object::len", [[1n]])).toBe(
      "Incorrect arguments for function object::len(). Argument 1 was the wrong type. Expected a object but found [1]",
    );
  });
});

describe("duration::", () => {
  const H = 3_600_000_000_000n;
  it.each([
    ["duration::days", [new Duration(90n * H)], 3n],
    ["duration::hours", [new Duration(90n * 60_000_000_000n)], 1n],
    ["duration::mins", [new Duration(90n * 1_000_000_000n)], 1n],
    ["duration::secs", [new Duration(1_500_000_000n)], 1n],
    ["duration::millis", [new Duration(1_500_000n)], 1n],
    ["duration::micros", [new Duration(1500n)], 1n],
    ["duration::nanos", [new Duration(1_000_000_000n)], 1_000_000_000n],
    ["duration::weeks", [new Duration(15n * 24n * H)], 2n],
    ["duration::years", [new Duration(800n * 24n * H)], 2n],
    ["duration::from::days", [3n], new Duration(3n * 24n * H)],
    ["duration::from::hours", [3n], new Duration(3n * H)],
    ["duration::from::mins", [3n], new Duration(180_000_000_000n)],
    ["duration::from::secs", [3n], new Duration(3_000_000_000n)],
    ["duration::from::millis", [3n], new Duration(3_000_000n)],
    ["duration::from::micros", [3n], new Duration(3000n)],
    ["duration::from::nanos", [3n], new Duration(3n)],
    ["duration::from::weeks", [3n], new Duration(21n * 24n * H)],
    // -3 wraps as u64: 584942417355y3w5d7h13s
    ["duration::from::secs", [-3n], new Duration((2n ** 64n - 3n) * 1_000_000_000n)],
  ] as [string, Value[], Value][])("%s #%#", async (name, args, expected) => {
    await both(name, args, expected);
  });
  it("errors", async () => {
    expect(await errorOf("duration::from::secs", [1.5])).toBe(
      "Incorrect arguments for function duration::from::secs(). Argument 1 was the wrong type. Expected a u64 but found 1.5f",
    );
    expect(await errorOf("duration::days", ["x"])).toBe(
      "Incorrect arguments for function duration::days(). Argument 1 was the wrong type. Expected a duration but found 'x'",
    );
  });
});

describe("record:: (v2) and meta:: (both)", () => {
  const rid = new RecordId("user", 1n);
  it("id and table", async () => {
    await both("meta::id", [rid], 1n);
    await both("meta::tb", [rid], "user");
    expect(await call("record::id", [new RecordId("user", [1n, "a"])])).toEqual([1n, "a"]);
    expect(await call("record::id", [new RecordId("user", "a b")])).toBe("a b");
    expect(await call("record::tb", [rid])).toBe("user");
    expect(await call("record::table", [rid])).toBe("user");
    for (const n of ["record::id", "record::tb", "record::table", "record::exists"]) expect(isBuiltin(n, 1)).toBe(false);
    expect(await errorOf("meta::id", ["x"])).toBe(
      "Incorrect arguments for function meta::id(). Argument 1 was the wrong type. Expected a record but found 'x'",
    );
  });
  it("record::exists asks the engine", async () => {
    const seen: RecordId[] = [];
    const ctx = makeCtx(2, {}, {
      fetchRecord: async (r) => {
        seen.push(r);
        return r.id === 1n ? { id: r } : undefined;
      },
    });
    expect(await call("record::exists", [rid], 2, ctx)).toBe(true);
    expect(await call("record::exists", [new RecordId("user", 2n)], 2, ctx)).toBe(false);
    expect(seen).toEqual([rid, new RecordId("user", 2n)]);
  });
});

describe("parse::", () => {
  const URL_TEXT = "https://a.b:8080/p?q=1#f";
  it.each([
    ["parse::email::host", ["a@b.c"], "b.c"],
    ["parse::email::user", ["a@b.c"], "a"],
    ["parse::email::host", ["x"], undefined],
    ["parse::url::domain", [URL_TEXT], "a.b"],
    ["parse::url::host", [URL_TEXT], "a.b"],
    ["parse::url::port", [URL_TEXT], 8080n],
    ["parse::url::path", [URL_TEXT], "/p"],
    ["parse::url::query", [URL_TEXT], "q=1"],
    ["parse::url::fragment", [URL_TEXT], "f"],
    ["parse::url::scheme", [URL_TEXT], "https"],
    ["parse::url::host", ["x"], undefined],
  ] as [string, Value[], Value][])("%s #%#", async (name, args, expected) => {
    await both(name, args, expected);
  });
  it("parse::url::port falls back to the scheme's default only in v2", async () => {
    expect(await call("parse::url::port", ["https://a.b/p"], 1)).toBeUndefined();
    expect(await call("parse::url::port", ["https://a.b/p"], 2)).toBe(443n);
  });
});

describe("session::", () => {
  const session = newSession({
    ns: "test",
    db: "app",
    ac: "users",
    rd: new RecordId("user", "tobie"),
    tk: { ID: "root", exp: 1795328073n },
    id: "c1",
    ip: "127.0.0.1",
    origin: "http://x",
  });
  it("reads the session per version", async () => {
    for (const compat of [1, 2] as const) {
      const ctx = { ...makeCtx(compat), session };
      expect(await call("session::ns", [], compat, ctx)).toBe("test");
      expect(await call("session::db", [], compat, ctx)).toBe("app");
      expect(await call("session::id", [], compat, ctx)).toBe("c1");
      expect(await call("session::ip", [], compat, ctx)).toBe("127.0.0.1");
      expect(await call("session::origin", [], compat, ctx)).toBe("http://x");
      expect(await call("session::token", [], compat, ctx)).toEqual({ ID: "root", exp: 1795328073n });
    }
    const v1 = { ...makeCtx(1), session };
    const v2 = { ...makeCtx(2), session };
    expect(await call("session::sc", [], 1, v1)).toBe("users");
    expect(await call("session::sd", [], 1, v1)).toEqual(new RecordId("user", "tobie"));
    expect(await call("session::ac", [], 2, v2)).toBe("users");
    expect(await call("session::rd", [], 2, v2)).toEqual(new RecordId("user", "tobie"));
    expect(isBuiltin("session::sc", 2)).toBe(false);
    expect(isBuiltin("session::ac", 1)).toBe(false);
  });
  it("anonymous sessions give NONE", async () => {
    expect(await call("session::ns", [])).toBeUndefined();
    expect(await call("session::token", [])).toBeUndefined();
    expect(await call("session::rd", [])).toBeUndefined();
  });
});

describe("rand::", () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it("shapes", async () => {
    expect((await call("rand::uuid::v4", [])) as Uuid).toBeInstanceOf(Uuid);
    expect(((await call("rand::uuid::v4", [])) as Uuid).text).toMatch(UUID_V4);
    // rand::uuid() is a v7 in both versions (oracle), stamped with ctx.clock
    for (const compat of [1, 2] as const) {
      const u = (await call("rand::uuid", [], compat)) as Uuid;
      expect(u.text).toMatch(UUID_V7);
      expect(await call("time::from::uuid", [u], 2)).toEqual(new Datetime(BigInt(FIXED_MS) * 1_000_000n));
    }
    const at = new Datetime(1704067200000000000n);
    expect(((await call("rand::uuid::v7", [at])) as Uuid).text.slice(0, 13)).toBe("018cc251-f400");
    expect(await call("rand::string", [])).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await call("rand::string", [5n])).toMatch(/^[A-Za-z0-9]{5}$/);
    expect(await call("rand::string", [2n, 4n])).toMatch(/^[A-Za-z0-9]{2,4}$/);
    // built from random bytes (A5): the longest string has every one of the 62 characters, in the right length
    const long = (await call("rand::string", [65536n])) as string;
    expect(long).toMatch(/^[A-Za-z0-9]{65536}$/);
    expect(new Set(long).size).toBe(62);
    expect(await call("rand::guid", [])).toMatch(/^[a-z0-9]{20}$/);
    expect(await call("rand::guid", [5n])).toMatch(/^[a-z0-9]{5}$/);
    expect(await call("rand::ulid", [])).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    expect(typeof (await call("rand", []))).toBe("number");
    expect(typeof (await call("rand::bool", []))).toBe("boolean");
    expect(await call("rand::int", [1n, 1n])).toBe(1n);
    expect(await call("rand::float", [1, 1])).toBe(1);
    expect(await call("rand::enum", [])).toBeUndefined();
    expect([1n, 2n]).toContain(await call("rand::enum", [[1n, 2n]]));
    expect([1n, 2n]).toContain(await call("rand::enum", [1n, 2n]));
    const r = (await call("rand::int", [5n, 1n])) as bigint;
    expect(r >= 1n && r <= 5n).toBe(true);
    expect(await call("rand::time", [1n, 1n])).toEqual(new Datetime(1_000_000_000n));
  });
  it("length limits and version differences (oracle)", async () => {
    expect(await errorOf("rand::string", [10000000n], 1)).toBe(
      "Incorrect arguments for function rand::string(). To generate a string of X characters in length, the argument must be a positive number and no higher than 65536.",
    );
    // SurrealDB 2 names rand::guid() in rand::string's messages
    expect(await errorOf("rand::string", [10000000n], 2)).toBe(
      "Incorrect arguments for function rand::guid(). To generate a string of X characters in length, the argument must be a positive number and no higher than 65536.",
    );
    expect(await errorOf("rand::guid", [10000000n])).toBe(
      "Incorrect arguments for function rand::guid(). To generate a string of X characters in length, the argument must be a positive number and no higher than 64.",
    );
    expect(await call("rand::string", [5n, 2n], 1)).toMatch(/^[A-Za-z0-9]{2,5}$/);
    expect(await errorOf("rand::string", [5n, 2n], 2)).toBe(
      "Incorrect arguments for function rand::guid(). Lowerbound of number of characters must be less then the upperbound.",
    );
    expect(await errorOf("rand::uuid", [at()], 1)).toBe("Incorrect arguments for function rand::uuid(). Expected no arguments.");
    expect(await errorOf("rand::uuid::v4", [1n])).toBe("Incorrect arguments for function rand::uuid::v4(). Expected no arguments.");
    expect(await errorOf("rand::int", [1n])).toBe("Incorrect arguments for function rand::int(). Expected 0 or 2 arguments.");
  });
  const at = () => new Datetime(0n);
});

describe("encoding::, bytes::, sleep (oracle)", () => {
  const hello = new Uint8Array([104, 101, 108, 108, 111, 63]);
  it("base64 without padding", async () => {
    await both("encoding::base64::encode", [hello], "aGVsbG8/");
    await both("encoding::base64::encode", [new Uint8Array([104, 105])], "aGk");
    await both("encoding::base64::decode", ["aGVsbG8/"], hello);
    await both("encoding::base64::decode", ["aGk"], new Uint8Array([104, 105]));
    for (const bad of ["aGVsbG8_", "aGk=", "!!"]) {
      expect(await errorOf("encoding::base64::decode", [bad])).toBe(
        "Incorrect arguments for function encoding::base64::decode(). invalid base64",
      );
    }
    expect(await errorOf("encoding::base64::encode", ["hi"])).toBe(
      "Incorrect arguments for function encoding::base64::encode(). Argument 1 was the wrong type. Expected a bytes but found 'hi'",
    );
  });
  it("bytes::len", async () => {
    await both("bytes::len", [new Uint8Array(5)], 5n);
    expect(await errorOf("bytes::len", ["x"])).toBe(
      "Incorrect arguments for function bytes::len(). Argument 1 was the wrong type. Expected a bytes but found 'x'",
    );
  });
  it("sleep returns NONE", async () => {
    await both("sleep", [new Duration(1_000_000n)], undefined);
  });
  it("time::from::ulid (v2)", async () => {
    expect(await call("time::from::ulid", ["01ARZ3NDEKTSV4RRFFQ69G5FAV"])).toEqual(new Datetime(1469922850259n * 1_000_000n));
    expect(await errorOf("time::from::ulid", ["x"])).toBe(
      "Incorrect arguments for function time::from::ulid(). The first argument must be a string, containing a valid ULID.",
    );
  });
});

describe("math:: statistics (oracle)", () => {
  it.each([
    ["math::spread", [[1n, 5n, 3n]], 4n],
    ["math::stddev", [[1n, 2n, 3n, 4n]], 1.2909944487358056],
    ["math::variance", [[1n, 2n, 3n, 4n]], 1.6666666666666667],
    ["math::mode", [[1n, 2n, 2n, 3n]], 2n],
    ["math::mode", [[1.5, 2.5]], 2.5],
    ["math::bottom", [[5n, 1n, 3n, 2n], 2n], [2n, 1n]],
    ["math::top", [[5n, 1n, 3n, 2n], 2n], [3n, 5n]],
    ["math::percentile", [[1n, 2n, 3n, 4n], 50n], 2.5],
    ["math::nearestrank", [[1n, 2n, 3n, 4n], 50n], 3n],
    ["math::interquartile", [[1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]], 3.5],
    ["math::midhinge", [[1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]], 4.5],
    ["math::trimean", [[1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]], 4.5],
    ["math::spread", [[]], NaN],
    ["math::stddev", [[]], NaN],
    ["math::mode", [[]], NaN],
    ["math::stddev", [[1n]], 0],
  ] as [string, Value[], Value][])("%s #%#", async (name, args, expected) => {
    await both(name, args, expected);
  });
  it("SurrealDB 2 additions", async () => {
    expect(await call("math::sign", [-3n])).toBe(-1n);
    expect(await call("math::sign", [2.5])).toBe(1);
    expect(await call("math::clamp", [5n, 1n, 3n])).toBe(3n);
    expect(await call("math::lerp", [0n, 10n, 0.5])).toBe(5);
    expect(await call("math::deg2rad", [180n])).toBe(3.141592653589793);
    expect(await call("math::cos", [0n])).toBe(1);
    expect(await call("math::log", [8n, 2n])).toBe(3);
    expect(isBuiltin("math::sign", 1)).toBe(false);
  });
  it("bottom/top need k > 0", async () => {
    expect(await errorOf("math::bottom", [[5n, 1n], 0n])).toBe(
      "Incorrect arguments for function math::bottom(). The second argument must be an integer greater than 0.",
    );
  });
});
