// CLI `test`: judging one answer against its expectation — SurrealQL values compared as values (`$any` matches
// anything, `@expect-match` ignores unlisted fields), denials recognised, and a line diff when they differ.

import { randomUUID } from "node:crypto";
import { DIFF_DELETE, DIFF_INSERT, diffCharsToLines, diffLinesToChars, diffMain } from "diff-match-patch-es";
import { AUTH_MESSAGES } from "../errors/catalogue.js";
import { valueEquals } from "../value/compare.js";
import { isValueObject, type Value } from "../value/types.js";
import { formatValue } from "./sql-format.js";

/** What `$any` holds in an expectation: a string no answer contains. */
export const ANY = `surql-auth:any:${randomUUID()}`;
/** What `$absent` holds: the field must not be there (a NONE field is no field, so NONE cannot say it). */
export const ABSENT = `surql-auth:absent:${randomUUID()}`;

/** The variables an expectation is evaluated with. */
export const EXPECTATION_VARS = { any: ANY, absent: ABSENT } as const;

export type Answer = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly error: string };

/** Does `actual` match `expected`? `match`: objects need only the fields `expected` lists. */
export function matches(expected: Value, actual: Value, mode: "exact" | "match", compat: 1 | 2): boolean {
  if (expected === ANY) return true;
  if (expected === ABSENT) return actual === undefined;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((x, i) => matches(x, actual[i], mode, compat));
  if (isValueObject(expected)) {
    if (!isValueObject(actual)) return false;
    // `exact` also compares the fields `expected` does not list
    const keys = new Set(mode === "exact" ? [...Object.keys(expected), ...Object.keys(actual)] : Object.keys(expected));
    return [...keys].every((k) => matches(expected[k], actual[k], mode, compat));
  }
  return valueEquals(expected, actual, { compat });
}

/**
 * `actual` cut to the shape of `expected` for a diff: `$any` places show `$any`, and (match) unlisted fields are
 * dropped, so the diff shows only what decides the outcome.
 */
function project(expected: Value, actual: Value, mode: "exact" | "match"): Value {
  if (expected === ANY) return ANY;
  if (Array.isArray(expected) && Array.isArray(actual)) return actual.map((x, i) => (i < expected.length ? project(expected[i], x, mode) : x));
  if (isValueObject(expected) && isValueObject(actual)) {
    const out: Record<string, Value> = {};
    for (const k of Object.keys(actual)) {
      if (mode === "match" && !(k in expected)) continue;
      out[k] = k in expected ? project(expected[k], actual[k], mode) : actual[k];
    }
    for (const k of Object.keys(expected)) if (expected[k] === ABSENT && !(k in actual)) out[k] = ABSENT;
    return out;
  }
  return actual;
}

/** A value as indented SurrealQL, `$any` and `$absent` written as such. */
export function show(v: Value, compat: 1 | 2): string {
  return formatValue(v, { pretty: true, json: false, compat })
    .replace(/\t/g, "  ")
    .replace(new RegExp(`(['"])(${ANY}|${ABSENT})\\1`, "g"), (_, _q, s: string) => (s === ANY ? "$any" : "$absent"));
}

/** A line diff of expected against actual: `- ` lines only expected, `+ ` only actual, `  ` both. */
export function valueDiff(expected: Value, actual: Value, mode: "exact" | "match", compat: 1 | 2): string {
  const { chars1, chars2, lineArray } = diffLinesToChars(`${show(expected, compat)}\n`, `${show(project(expected, actual, mode), compat)}\n`);
  const diffs = diffMain(chars1, chars2, undefined, false);
  diffCharsToLines(diffs, lineArray);
  const out: string[] = [];
  for (const [op, text] of diffs) {
    const mark = op === DIFF_DELETE ? "- " : op === DIFF_INSERT ? "+ " : "  ";
    for (const line of text.replace(/\n$/, "").split("\n")) out.push(mark + line);
  }
  return out.join("\n");
}

/**
 * Errors that mean "this identity may not": IAM, a refused sign-in or sign-up, expiry, and the "You don't have
 * permission" family.
 */
const DENIALS = (
  [
    "NotAllowed",
    "InvalidAuth",
    "ExpiredSession",
    "ExpiredToken",
    "NoRecordFound",
    "SigninQueryFailed",
    "SignupQueryFailed",
    "AccessRecordSigninQueryFailed",
    "AccessRecordSignupQueryFailed",
  ] as const
).map((code) => AUTH_MESSAGES[code]());

export function isDenialError(message: string): boolean {
  return DENIALS.some((d) => message.includes(d)) || /^You don't have permission/.test(message) || /not enough permissions/i.test(message);
}

/** An answer that permissions reduced to nothing: `[]`, NONE or NULL. */
export function isEmpty(v: Value): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}
