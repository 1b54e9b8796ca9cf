// rand:: builtins: random numbers, strings, uuids (v4/v7), ulids; uuid v7 / ulid timestamps come from ctx.clock.

import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { Datetime, Duration, Uuid, type Value } from "../../value/types.js";
import type { FunctionContext } from "./context.js";
import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { randomFloat } from "../random.js";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const GUID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const MAX_STRING = 65536;
const MAX_GUID = 64;

/** `length` characters drawn uniformly from an ASCII `alphabet`, built flat (one Buffer; `+=` per character made a rope). */
function randomString(alphabet: string, length: number): string {
  const out = Buffer.allocUnsafe(length);
  // bytes at or above `below` would favour the first letters: drop them
  const below = 256 - (256 % alphabet.length);
  let filled = 0;
  while (filled < length) {
    const bytes = randomBytes(length - filled + 16);
    for (let i = 0; i < bytes.length && filled < length; i++) {
      const b = bytes[i]!;
      if (b < below) out[filled++] = alphabet.charCodeAt(b % alphabet.length);
    }
  }
  return out.toString("latin1");
}

/** Uniform bigint in [lo, hi] (inclusive). */
function randomBigInt(lo: bigint, hi: bigint): bigint {
  const span = hi - lo + 1n;
  const bytes = Math.ceil(span.toString(16).length / 2) + 8;
  return lo + (BigInt("0x" + randomBytes(bytes).toString("hex")) % span);
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function msOf(ctx: FunctionContext, at: Value): bigint {
  return at instanceof Datetime ? at.nanos / 1_000_000n : BigInt(Math.floor(ctx.clock.now()));
}

/** RFC 9562 UUID v7: 48-bit ms timestamp, version 7, variant 10, random rest. */
export function uuidV7At(ms: bigint): Uuid {
  const b = randomBytes(16);
  const ts = BigInt.asUintN(48, ms);
  for (let i = 0; i < 6; i++) b[i] = Number((ts >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return new Uuid(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
}

function ulidAt(ms: bigint): string {
  let time = "";
  let t = BigInt.asUintN(48, ms);
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[Number(t % 32n)] + time;
    t /= 32n;
  }
  return time + randomString(CROCKFORD, 16);
}

const lengthError = (name: string, max: number) =>
  incorrectArguments(name, `To generate a string of X characters in length, the argument must be a positive number and no higher than ${max}.`);

export const randFunctions: BuiltinTable = {
  rand: fn([], () => randomFloat()),
  "rand::bool": fn([], () => randomInt(2) === 1),
  "rand::enum": fn(["...any"], (args) => {
    const items = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
    return items.length === 0 ? undefined : items[randomInt(items.length)];
  }),
  "rand::float": fn(["f64?", "f64?"], (args) => {
    if (args.length === 0) return randomFloat();
    const [a, b] = [args[0] as number, args[1] as number];
    return Math.min(a, b) + randomFloat() * Math.abs(b - a);
  }, { counts: [0, 2], arity: "0 or 2 arguments", typesFirst: true }),
  "rand::int": fn(["i64?", "i64?"], (args) => {
    if (args.length === 0) return randomBigInt(I64_MIN, I64_MAX);
    const [a, b] = [args[0] as bigint, args[1] as bigint];
    return a <= b ? randomBigInt(a, b) : randomBigInt(b, a);
  }, { counts: [0, 2], arity: "0 or 2 arguments", typesFirst: true }),
  "rand::string": fn(["i64?", "i64?"], (args, ctx) => {
    // SurrealDB 2 names rand::guid() in these messages.
    const name = ctx.compat === 2 ? "rand::guid" : "rand::string";
    if (args.length === 0) return randomString(ALPHANUMERIC, 32);
    const lo = Number(args[0] as bigint);
    // 1.x wants at least one character
    const least = ctx.compat === 1 ? 1 : 0;
    if (args.length === 1) {
      if (lo < least || lo > MAX_STRING) throw lengthError(name, MAX_STRING);
      return randomString(ALPHANUMERIC, lo);
    }
    let hi = Number(args[1] as bigint);
    let min = lo;
    if (min > hi) {
      if (ctx.compat === 2) throw incorrectArguments(name, "Lowerbound of number of characters must be less then the upperbound.");
      [min, hi] = [hi, min];
    }
    if (min < least || hi > MAX_STRING) {
      // 1.x words the two-bound form apart
      if (ctx.compat === 1) throw incorrectArguments(name, `To generate a string of between X and Y characters in length, the 2 arguments must be positive numbers and no higher than ${MAX_STRING}.`);
      throw lengthError(name, MAX_STRING);
    }
    return randomString(ALPHANUMERIC, min + randomInt(hi - min + 1));
  }),
  "rand::guid": fn(["i64?", "i64?"], (args, ctx) => {
    if (args.length === 0) return randomString(GUID_CHARS, 20);
    let min = Number(args[0] as bigint);
    let max = args.length === 2 ? Number(args[1] as bigint) : min;
    if (min > max) {
      if (ctx.compat === 2) throw incorrectArguments("rand::guid", "Lowerbound of number of characters must be less then the upperbound.");
      [min, max] = [max, min];
    }
    if (min < 0 || max > MAX_GUID) throw lengthError("rand::guid", MAX_GUID);
    return randomString(GUID_CHARS, min + randomInt(max - min + 1));
  }),
  "rand::uuid": fn(["datetime?"], (args, ctx) => uuidV7At(msOf(ctx, args[0])), { v1: fn([], (_a, ctx) => uuidV7At(msOf(ctx, undefined))) }),
  "rand::uuid::v4": fn([], () => new Uuid(randomUUID())),
  "rand::uuid::v7": fn(["datetime?"], (args, ctx) => uuidV7At(msOf(ctx, args[0])), { v1: fn([], (_a, ctx) => uuidV7At(msOf(ctx, undefined))) }),
  "rand::ulid": fn(["datetime?"], (args, ctx) => ulidAt(msOf(ctx, args[0])), { v1: fn([], (_a, ctx) => ulidAt(msOf(ctx, undefined))) }),
  "rand::time": fn(["any?", "any?"], (args, ctx) => {
    if (args.length === 0) return randomTimeBetween(0n, 253402300799n);
    // 2.x: bounds in epoch seconds (integers only) or datetimes
    const secs = (v: Value): bigint => {
      if (typeof v === "bigint") return v;
      if (v instanceof Datetime) return v.nanos / 1_000_000_000n;
      throw incorrectArguments("rand::time", "Expected two arguments of type datetime or int");
    };
    return randomTimeBetween(secs(args[0]), secs(args[1]), 2);
  }, {
    counts: [0, 2],
    arity: "0 or 2 arguments",
    v1: fn(["i64?", "i64?"], ([a, b]) => (a === undefined ? randomTimeBetween(0n, 253402300799n) : randomTimeBetween(a as bigint, b as bigint, 1)), {
      counts: [0, 2],
      arity: "0 or 2 arguments",
      typesFirst: true,
    }),
  }),
  "rand::duration": fn(["duration", "duration"], ([a, b]) => {
    const [x, y] = [(a as Duration).nanos, (b as Duration).nanos];
    return new Duration(x <= y ? randomBigInt(x, y) : randomBigInt(y, x));
  }, { compat: 2 }),
};

const TIME_MIN_SECS = -8334601228800n;
const TIME_MAX_SECS = 8210266876799n;

/**
 * A whole-second datetime between two bounds in epoch seconds, each within SurrealDB's datetime range. 1.5.4 takes
 * 1 … 8210298412799 and panics past 8210266876799 (the range's end): compat 1 refuses those too, in its words.
 */
function randomTimeBetween(a: bigint, b: bigint, compat: 1 | 2 = 2): Datetime {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  if (compat === 1 && (lo < 1n || hi > TIME_MAX_SECS)) {
    throw incorrectArguments("rand::time", "To generate a time between X and Y seconds, the 2 arguments must be positive numbers and no higher than 8210298412799.");
  }
  if (lo < TIME_MIN_SECS || hi > TIME_MAX_SECS) {
    throw incorrectArguments(
      "rand::time",
      `To generate a random time, the 2 arguments must be numbers between ${TIME_MIN_SECS} and ${TIME_MAX_SECS} seconds from the UNIX epoch or a 'datetime' within the range d'-262143-01-01T00:00:00Z' and +262142-12-31T23:59:59Z'.`,
    );
  }
  return new Datetime(randomBigInt(lo, hi) * 1_000_000_000n);
}
