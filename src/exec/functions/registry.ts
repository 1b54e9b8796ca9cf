// The builtin registry: full name → declared arguments + implementation; checks arity and argument types uniformly.

import { QueryError, queryError } from "../../errors/index.js";
import { Datetime, Decimal, Duration, RecordId, Regex, Uuid, isValueObject, type Value, type ValueObject } from "../../value/types.js";
import { regexFrom, RegexSyntaxError } from "../../value/regex.js";
import type { Compat } from "../session.js";
import type { FunctionContext } from "./context.js";
import { formatDatetimeText, render } from "./display.js";

/**
 * Argument kinds, named as SurrealDB's "Expected a …" messages name them.
 * A trailing "?" in a signature marks an optional argument.
 */
export type ArgKind =
  | "any"
  | "string"
  | "regex"
  | "i64"
  | "u64"
  | "f64"
  | "number"
  | "bool"
  | "array"
  | "object"
  | "datetime"
  | "duration"
  | "record"
  | "uuid"
  | "bytes"
  | "closure";

export interface Builtin {
  /** Declared argument kinds; "kind?" = optional (trailing). `"...kind"` as the last entry = any number more. */
  readonly args: readonly string[];
  readonly impl: (args: Value[], ctx: FunctionContext) => Value | Promise<Value>;
  /** Only in this compat level (absent = both). */
  readonly compat?: Compat;
  /** Override of the arity text after "Expected " (e.g. "0 or 2 arguments"). */
  readonly arity?: string;
  /** Override of the accepted argument counts (with `arity`). */
  readonly counts?: readonly number[];
  /** With `counts`: convert the given arguments first, then check the count (SurrealDB's rand::int). */
  readonly typesFirst?: boolean;
  /** A different declaration for compat 1 (SurrealDB 1.x), e.g. other arity. */
  readonly v1?: Builtin;
}

export type BuiltinTable = Record<string, Builtin>;

/** Shorthand to declare a builtin. */
export function fn(args: readonly string[], impl: Builtin["impl"], extra: Omit<Builtin, "args" | "impl"> = {}): Builtin {
  return { args, impl, ...extra };
}

export function incorrectArguments(name: string, detail: string): QueryError {
  return queryError("InvalidArguments", name, detail);
}

/** SurrealDB's `InvalidArguments` wording for a wrong argument type. */
export function wrongType(name: string, index: number, expected: string, found: Value, compat: Compat = 2): QueryError {
  return incorrectArguments(name, `Argument ${index + 1} was the wrong type. Expected a ${expected} but found ${render(found, compat)}`);
}

function arityText(min: number, max: number): string {
  if (max === 0) return "no arguments";
  if (min === max) return max === 1 ? "1 argument" : `${max} arguments`;
  const counts = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
  if (counts.length === 2) return `${counts[0]} or ${counts[1]} arguments`;
  return `${counts.slice(0, -1).join(", ")}, or ${counts[counts.length - 1]} arguments`;
}

/**
 * Check arity and coerce each argument to its declared kind; returns the coerced list.
 * As in SurrealDB: fixed signatures check the count first; signatures with optional arguments
 * convert arguments left to right and report a wrong count only when they run past the end.
 */
export function checkArguments(name: string, def: Builtin, args: Value[], ctx: FunctionContext): Value[] {
  const specs = def.args;
  const variadic = specs.length > 0 && specs[specs.length - 1]!.startsWith("...");
  const fixed = variadic ? specs.slice(0, -1) : specs;
  const min = fixed.filter((s) => !s.endsWith("?")).length;
  const max = variadic ? Infinity : fixed.length;
  const arityError = () => incorrectArguments(name, `Expected ${def.arity ?? arityText(min, max)}.`);
  const sequential = def.counts ? def.typesFirst === true : min !== max;
  if (!sequential) {
    const countOk = def.counts ? def.counts.includes(args.length) : args.length >= min && args.length <= max;
    if (!countOk) throw arityError();
  }
  const out = args.map((arg, i) => {
    if (i >= max || (def.counts && i >= fixed.length)) throw arityError();
    const spec = i < fixed.length ? fixed[i]! : specs[specs.length - 1]!.slice(3);
    // A given optional argument is checked like any other (SurrealDB: `f(x, NONE)` is a type error).
    const kind = (spec.endsWith("?") ? spec.slice(0, -1) : spec) as ArgKind;
    return coerceArg(name, i, kind, arg, ctx);
  });
  if (def.counts ? !def.counts.includes(args.length) : args.length < min) throw arityError();
  return out;
}

function coerceArg(name: string, i: number, kind: ArgKind, v: Value, ctx: FunctionContext): Value {
  const bad = (): never => {
    throw wrongType(name, i, kind === "closure" ? "function" : kind, v, ctx.compat);
  };
  switch (kind) {
    case "any":
      return v;
    case "string":
      // SurrealDB converts uuids and datetimes to their text for string arguments.
      if (typeof v === "string") return v;
      if (v instanceof Uuid) return v.text;
      if (v instanceof Datetime) return formatDatetimeText(v);
      return bad();
    case "regex":
      if (v instanceof Regex) return v;
      if (typeof v !== "string") return bad();
      try {
        return regexFrom(v);
      } catch (e) {
        if (!(e instanceof RegexSyntaxError)) throw e;
        throw incorrectArguments(name, `Argument ${i + 1} was the wrong type. ${queryError("InvalidRegex", e.message).message}`);
      }
    case "bool":
      return typeof v === "boolean" ? v : bad();
    case "array":
      return Array.isArray(v) ? v : bad();
    case "object":
      return isValueObject(v) ? (v as ValueObject) : bad();
    case "datetime":
      return v instanceof Datetime ? v : bad();
    case "duration":
      return v instanceof Duration ? v : bad();
    case "record":
      return v instanceof RecordId ? v : bad();
    case "uuid":
      return v instanceof Uuid ? v : bad();
    case "bytes":
      return v instanceof Uint8Array ? v : bad();
    case "number":
      return typeof v === "bigint" || typeof v === "number" || v instanceof Decimal ? v : bad();
    case "f64":
      if (typeof v === "number") return v;
      if (typeof v === "bigint") return Number(v);
      if (v instanceof Decimal) return Number(v.text);
      return bad();
    case "i64":
    case "u64": {
      let n: bigint | undefined;
      if (typeof v === "bigint") n = v;
      else if (typeof v === "number" && Number.isInteger(v)) n = BigInt(v);
      else if (v instanceof Decimal && /^-?\d+(\.0*)?$/.test(v.text)) n = BigInt(v.text.split(".")[0]!);
      // Negative values pass as "u64" too: SurrealDB reads them as i64 and wraps (string::repeat then hits its limit).
      return n === undefined ? bad() : n;
    }
    case "closure":
      return ctx.isClosure?.(v) ? v : bad();
  }
}
