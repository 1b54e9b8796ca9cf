// string:: builtins: transforms and string::is::* validators, with SurrealDB's allocation limit on generated strings.

import anyAscii from "any-ascii";
import { Table, Uuid, type Regex, type Value } from "../../value/types.js";
import { regexMatches } from "../../value/regex.js";
import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import { asRawString, parseRecordIdText } from "./util.js";
import { parseDatetimeFormat } from "./strftime.js";
import { sanitizeHtml } from "./html.js";
import {
  compareSemver,
  formatSemver,
  isDatetimeText,
  isDomainName,
  isEmailAddress,
  isIp,
  isIpv4,
  isIpv6,
  isUlidText,
  isUrl,
  isUuidText,
  parseSemver,
  type SemVer,
} from "./validate.js";

/** SurrealDB's GENERATION_ALLOCATION_LIMIT (bytes) for generated strings. */
/** string::html::encode's replacements (the text escaping of SurrealDB's HTML library: every character that can end a tag or an attribute). */
const HTML_TEXT_ESCAPES: Readonly<Record<string, string>> = {
  "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "`": "&grave;", "/": "&#47;", "&": "&amp;", "=": "&#61;",
  " ": "&#32;", "\t": "&#9;", "\n": "&#10;", "\f": "&#12;", "\r": "&#13;", "\0": "&#65533;",
};

export const ALLOCATION_LIMIT = 1_048_576;

function limit(name: string, bytes: number): void {
  if (bytes > ALLOCATION_LIMIT) throw incorrectArguments(name, `Output must not exceed ${ALLOCATION_LIMIT} bytes.`);
}

const utf8Len = (s: string): number => Buffer.byteLength(s, "utf8");
const chars = (s: string): string[] => [...s];
const str = (v: Value): string => v as string;

/** Rust char::is_alphabetic / is_numeric / is_alphanumeric. */
const ALPHA = /^\p{Alphabetic}$/u;
const NUMERIC = /^\p{N}$/u;

function slice(s: string, beg: Value, lim: Value, given: number): string {
  const cs = chars(s);
  const len = cs.length;
  let start = 0;
  if (given >= 2) {
    const b = Number(beg as bigint);
    start = b < 0 ? Math.max(len + b, 0) : b;
  }
  let take = Infinity;
  if (given >= 3) {
    const l = Number(lim as bigint);
    take = l < 0 ? Math.max(Math.max(len + l, 0) - start, 0) : l;
  }
  if (take === 0) return "";
  return cs.slice(start, take === Infinity ? undefined : start + take).join("");
}

const WHITE_SPACE = /^\p{White_Space}$/u;

/** Rust's str::trim (Unicode White_Space, all in the BMP); by index: `\p{White_Space}+$` rescanned every inner run (quadratic). */
function trimWhiteSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && WHITE_SPACE.test(s[a]!)) a++;
  while (b > a && WHITE_SPACE.test(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** SurrealDB's slug: any_ascii transliteration, lowercase, non-[a-z0-9-_] → '-', collapse and trim hyphens. */
export function slug(s: string): string {
  return anyAscii(s)
    .toLowerCase()
    .replace(/[^a-z0-9\-_]/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const semverFn = (name: string, msg: string) => (text: string): SemVer => {
  const v = parseSemver(text);
  if (!v) throw incorrectArguments(name, msg);
  return v;
};

function semverSet(name: string, field: "major" | "minor" | "patch") {
  return fn(["string", "i64"], ([v, n]) => {
    const ver = semverFn(name, "Invalid semantic version")(str(v));
    ver[field] = BigInt.asUintN(64, n as bigint);
    return formatSemver(ver);
  });
}

function semverInc(name: string, field: "major" | "minor" | "patch") {
  return fn(["string"], ([v]) => {
    const ver = semverFn(name, "Invalid semantic version")(str(v));
    ver[field] += 1n;
    if (field === "major") ver.minor = 0n;
    if (field !== "patch") ver.patch = 0n;
    return formatSemver(ver);
  });
}

const is = (test: (s: string) => boolean) => fn(["string"], ([v]) => test(str(v)));

export const stringFunctions: BuiltinTable = {
  "string::concat": fn(["...any"], (args, ctx) => {
    const parts = args.map((v) => asRawString(v, ctx.compat));
    limit("string::concat", parts.reduce((n, p) => n + utf8Len(p), 0));
    return parts.join("");
  }),
  "string::contains": fn(["string", "string"], ([a, b]) => str(a).includes(str(b))),
  "string::ends_with": fn(["string", "string"], ([a, b]) => str(a).endsWith(str(b)), { compat: 2 }),
  "string::endsWith": fn(["string", "string"], ([a, b]) => str(a).endsWith(str(b)), { compat: 1 }),
  "string::join": fn(["...any"], (args, ctx) => {
    if (args.length === 0) throw incorrectArguments("string::join", "Expected at least one argument");
    const [sep, ...rest] = args.map((v) => asRawString(v, ctx.compat));
    limit("string::join", rest.length * utf8Len(sep!) + rest.reduce((n, p) => n + utf8Len(p), 0));
    return rest.join(sep);
  }),
  "string::matches": fn(["string", "regex"], ([s, r]) => regexMatches(r as Regex, str(s))),
  "string::html::encode": fn(["string"], ([s]) => str(s).replace(/[<>"'`/&= \t\n\f\r\0]/g, (c) => HTML_TEXT_ESCAPES[c]!), { compat: 2 }),
  "string::html::sanitize": fn(["string"], ([s]) => sanitizeHtml(str(s)), { compat: 2 }),
  "string::len": fn(["string"], ([s]) => BigInt(chars(str(s)).length)),
  "string::lowercase": fn(["string"], ([s]) => str(s).toLowerCase()),
  "string::uppercase": fn(["string"], ([s]) => str(s).toUpperCase()),
  "string::repeat": fn(["string", "u64"], ([s, n]) => {
    const count = n as bigint;
    if (count < 0n || BigInt(utf8Len(str(s))) * count > BigInt(ALLOCATION_LIMIT)) limit("string::repeat", Infinity);
    return str(s).repeat(Number(count));
  }),
  "string::replace": fn(["string", "any", "string"], ([s, search, repl]) => {
    if (typeof search !== "string") {
      throw incorrectArguments("string::replace", `Argument 2 was the wrong type. Expected a string but found ${asRawString(search)}`);
    }
    const text = str(s);
    const r = str(repl);
    if (r.length > search.length) {
      const count = search === "" ? chars(text).length + 1 : text.split(search).length - 1;
      limit("string::replace", utf8Len(text) + count * (utf8Len(r) - utf8Len(search)));
    }
    if (search === "") return chars(text).reduce((acc, c) => acc + c + r, r);
    return text.split(search).join(r);
  }),
  "string::reverse": fn(["string"], ([s]) => chars(str(s)).reverse().join("")),
  "string::slice": fn(["string", "i64?", "i64?"], (args) => slice(str(args[0]), args[1], args[2], args.length)),
  "string::slug": fn(["string"], ([s]) => slug(str(s))),
  "string::split": fn(["string", "string"], ([s, sep]) => {
    const text = str(s);
    // Rust's split on "" yields an empty string at both ends.
    return str(sep) === "" ? ["", ...chars(text), ""] : text.split(str(sep));
  }),
  "string::starts_with": fn(["string", "string"], ([a, b]) => str(a).startsWith(str(b)), { compat: 2 }),
  "string::startsWith": fn(["string", "string"], ([a, b]) => str(a).startsWith(str(b)), { compat: 1 }),
  "string::trim": fn(["string"], ([s]) => trimWhiteSpace(str(s))),
  "string::words": fn(["string"], ([s]) => str(s).split(/\p{White_Space}+/u).filter((w) => w !== "")),

  "string::is::alphanum": is((s) => chars(s).every((c) => ALPHA.test(c) || NUMERIC.test(c))),
  "string::is::alpha": is((s) => chars(s).every((c) => ALPHA.test(c))),
  "string::is::ascii": is((s) => /^[\x00-\x7f]*$/.test(s)),
  "string::is::numeric": is((s) => chars(s).every((c) => NUMERIC.test(c))),
  "string::is::hexadecimal": is((s) => /^[0-9a-fA-F]*$/.test(s)),
  "string::is::domain": is(isDomainName),
  "string::is::email": is(isEmailAddress),
  // SurrealDB 1 takes any value here: uuids are true, other non-strings false.
  "string::is::uuid": fn(["string"], ([s]) => isUuidText(str(s)), {
    v1: fn(["any"], ([v]) => v instanceof Uuid || (typeof v === "string" && isUuidText(v))),
  }),
  "string::is::url": is(isUrl),
  "string::is::semver": is((s) => parseSemver(s) !== undefined),
  "string::is::latitude": is((s) => /^[-+]?([1-8]?\d(\.\d+)?|90(\.0+)?)$/.test(s)),
  "string::is::longitude": is((s) => /^[-+]?(180(\.0+)?|((1[0-7]\d)|([1-9]?\d))(\.\d+)?)$/.test(s)),
  "string::is::ip": fn(["string"], ([s]) => isIp(str(s)), { compat: 2 }),
  "string::is::ipv4": fn(["string"], ([s]) => isIpv4(str(s)), { compat: 2 }),
  "string::is::ipv6": fn(["string"], ([s]) => isIpv6(str(s)), { compat: 2 }),
  "string::is::ulid": fn(["string"], ([s]) => isUlidText(str(s)), { compat: 2 }),
  "string::is::datetime": fn(
    ["string", "string?"],
    (args) => (args.length === 1 ? isDatetimeText(str(args[0])) : parseDatetimeFormat(str(args[0]), str(args[1])) !== undefined),
    { v1: fn(["string", "string"], ([s, f]) => parseDatetimeFormat(str(s), str(f)) !== undefined) },
  ),
  "string::is::record": fn(
    ["string", "any?"],
    (args) => {
      const rid = parseRecordIdText(str(args[0]));
      if (args.length === 1) return rid !== undefined;
      const tb = args[1];
      const name = typeof tb === "string" ? tb : tb instanceof Table ? tb.name : undefined;
      if (name === undefined) {
        throw incorrectArguments("string::is::record()", "Expected an optional string or table type for the second argument");
      }
      return rid !== undefined && rid.table === name;
    },
    { compat: 2 },
  ),

  "string::semver::compare": fn(["string", "string"], ([a, b]) => {
    const name = "string::semver::compare";
    const l = semverFn(name, "Invalid semantic version string for left argument")(str(a));
    const r = semverFn(name, "Invalid semantic version string for right argument")(str(b));
    return BigInt(compareSemver(l, r));
  }),
  "string::semver::major": fn(["string"], ([v]) => semverFn("string::semver::major", "Invalid semantic version")(str(v)).major),
  "string::semver::minor": fn(["string"], ([v]) => semverFn("string::semver::minor", "Invalid semantic version")(str(v)).minor),
  "string::semver::patch": fn(["string"], ([v]) => semverFn("string::semver::patch", "Invalid semantic version")(str(v)).patch),
  "string::semver::inc::major": semverInc("string::semver::inc::major", "major"),
  "string::semver::inc::minor": semverInc("string::semver::inc::minor", "minor"),
  "string::semver::inc::patch": semverInc("string::semver::inc::patch", "patch"),
  "string::semver::set::major": semverSet("string::semver::set::major", "major"),
  "string::semver::set::minor": semverSet("string::semver::set::minor", "minor"),
  "string::semver::set::patch": semverSet("string::semver::set::patch", "patch"),
};
