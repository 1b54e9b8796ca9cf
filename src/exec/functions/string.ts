// string:: builtins: transforms and string::is::* validators, with SurrealDB's allocation limit on generated strings.

import anyAscii from "any-ascii";
import { Table, Uuid, type Regex, type Value } from "../../value/types.js";
import { checkArrayLength } from "../../value/size.js";
import { textPieces } from "../../value/pieces.js";
import { regexMatches } from "../../value/regex.js";
import { incorrectArguments, fn, type BuiltinTable } from "./registry.js";
import type { FunctionContext } from "./context.js";
import { asRawString, parseRecordIdText } from "./util.js";
import { parseDatetimeFormat } from "./strftime.js";
import { sanitizeHtmlPaced } from "./html.js";
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

/** UTF-16 units a builtin transforms at once, between two checkpoints of the query's budget. */
export const PIECE = 16 * 1024;

/**
 * `visit` each piece of `s` in order with a checkpoint of the query's budget after each (the scheduler's turn, the
 * deadline): one call over a long string no longer holds the event loop (attack pass 11, I5).
 */
async function eachPiece(s: string, ctx: FunctionContext, visit: (piece: string) => void): Promise<void> {
  for (const piece of textPieces(s, PIECE)) {
    visit(piece);
    const pause = ctx.budget?.checkpointNow();
    if (pause) await pause;
  }
}

/** `f` over `s` a piece at a time (eachPiece), each piece's result in order; `f` must read each character alone. */
async function piecewise(s: string, ctx: FunctionContext, f: (piece: string) => string): Promise<string[]> {
  const out: string[] = [];
  await eachPiece(s, ctx, (piece) => out.push(f(piece)));
  return out;
}

/** `f(s)` at once for a short string, else `f` a piece at a time (piecewise), the pieces' results joined in `order`. */
function perCharacter(s: string, ctx: FunctionContext, f: (piece: string) => string, order: "forward" | "reversed" = "forward"): string | Promise<string> {
  if (s.length <= PIECE) return f(s);
  return piecewise(s, ctx, f).then((out) => (order === "forward" ? out : out.reverse()).join(""));
}

/**
 * The parts of `text` between the separators `find` reports (`[start, end)` of the next one at or after `from`, not
 * empty), with a checkpoint of the query's budget every PIECE units read and the array's size checked as it grows.
 */
async function cut(text: string, ctx: FunctionContext, find: (from: number) => readonly [number, number] | undefined): Promise<string[]> {
  const out: string[] = [];
  let from = 0;
  let read = 0;
  for (let at = find(0); at !== undefined; at = find(from)) {
    out.push(text.slice(from, at[0]));
    from = at[1];
    if (from - read >= PIECE) {
      read = from;
      checkArrayLength(BigInt(out.length));
      const pause = ctx.budget?.checkpointNow();
      if (pause) await pause;
    }
  }
  out.push(text.slice(from));
  return out;
}

/**
 * `text` with every `search` (not empty) replaced by `r`, left to right as replaceAll does, a PIECE of the text at a
 * time with a checkpoint between pieces (attack pass 11, I5: one replaceAll over 838,000 matches held the loop 0.6 s).
 */
async function replacePieces(text: string, search: string, r: string, ctx: FunctionContext): Promise<string> {
  const done: string[] = [];
  let part: string[] = [];
  let from = 0;
  let read = 0;
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, from)) {
    part.push(text.slice(from, at), r);
    from = at + search.length;
    if (from - read >= PIECE) {
      done.push(part.join(""));
      part = [];
      read = from;
      const pause = ctx.budget?.checkpointNow();
      if (pause) await pause;
    }
  }
  part.push(text.slice(from));
  done.push(part.join(""));
  return done.join("");
}

/** Occurrences of `search` (not empty) in `text`, without splitting it. */
function occurrences(text: string, search: string): number {
  let n = 0;
  for (let i = text.indexOf(search); i >= 0; i = text.indexOf(search, i + search.length)) n++;
  return n;
}

/** Code points in `s` (Rust's chars().count()), without making them. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** The UTF-16 offset of code point `n` of `s` (its length past the end). */
function unitOffset(s: string, n: number): number {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    i += (s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** Rust char::is_alphabetic / is_numeric / is_alphanumeric, over a whole string at once. */
const ALPHAS = /^\p{Alphabetic}*$/u;
const NUMERICS = /^\p{N}*$/u;
const ALPHANUMS = /^[\p{Alphabetic}\p{N}]*$/u;

function slice(s: string, beg: Value, lim: Value, given: number): string {
  const len = codePoints(s);
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
  if (take === 0 || start >= len) return "";
  const from = unitOffset(s, start);
  return take === Infinity ? s.slice(from) : s.slice(from, from + unitOffset(s.slice(from), take));
}

/** Unicode White_Space (all in the BMP), by code unit. */
const WHITE_SPACE = new Set([0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);

/** Rust's str::trim; by index: `\p{White_Space}+$` rescanned every inner run (quadratic). */
function trimWhiteSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && WHITE_SPACE.has(s.charCodeAt(a))) a++;
  while (b > a && WHITE_SPACE.has(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Scratch bytes a slug is written into between two pieces (synchronous use only, copied out after each piece). */
const SLUG_SCRATCH = Buffer.allocUnsafe(PIECE);

/**
 * SurrealDB's slug written a character at a time: the words — runs of [a-z0-9_] after any_ascii transliteration and
 * lowercasing — joined by one '-'. Fed a piece at a time, it carries the pending separator across piece boundaries, so
 * no pass over the whole answer follows the pieces (attack pass 11, I5: that pass held the loop 0.16–0.86 s).
 */
class Slugger {
  private readonly parts: string[] = [];
  private n = 0;
  private gap = false;

  /** Slugs `s` onto the answer (any_ascii per non-ASCII run, never cut inside a surrogate pair by textPieces). */
  feed(s: string): this {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        this.put(c);
        continue;
      }
      let j = i + 1;
      while (j < s.length && s.charCodeAt(j) >= 0x80) j++;
      const t = anyAscii(s.slice(i, j));
      for (let k = 0; k < t.length; k++) this.put(t.charCodeAt(k));
      i = j - 1;
    }
    this.flush();
    return this;
  }

  /** The answer so far. */
  answer(): string {
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join("");
  }

  /** One ASCII character: lowercased, kept in a word, or a separator (written as '-' only before the next word). */
  private put(c: number): void {
    const lower = c >= 65 && c <= 90 ? c + 32 : c;
    if ((lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) || lower === 95) {
      if (this.n + 2 > SLUG_SCRATCH.length) this.flush();
      if (this.gap && (this.n > 0 || this.parts.length > 0)) SLUG_SCRATCH[this.n++] = 45;
      SLUG_SCRATCH[this.n++] = lower;
      this.gap = false;
    } else this.gap = true;
  }

  private flush(): void {
    if (this.n > 0) this.parts.push(SLUG_SCRATCH.toString("latin1", 0, this.n));
    this.n = 0;
  }
}

/** SurrealDB's slug: any_ascii transliteration, lowercase, non-[a-z0-9-_] → '-', collapse and trim hyphens. */
export function slug(s: string): string {
  return new Slugger().feed(s).answer();
}

/** string::slug of a long string: a piece at a time (eachPiece). */
async function slugPieces(s: string, ctx: FunctionContext): Promise<string> {
  const out = new Slugger();
  await eachPiece(s, ctx, (piece) => out.feed(piece));
  return out.answer();
}

const htmlEncode = (s: string): string => s.replace(/[<>"'`/&= \t\n\f\r\0]/g, (c) => HTML_TEXT_ESCAPES[c]!);
const reversed = (s: string): string => chars(s).reverse().join("");

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
  "string::html::encode": fn(["string"], ([s], ctx) => perCharacter(str(s), ctx, htmlEncode), { compat: 2 }),
  "string::html::sanitize": fn(["string"], ([s], ctx) => sanitizeHtmlPaced(str(s), () => ctx.budget?.checkpointNow()), { compat: 2 }),
  "string::len": fn(["string"], ([s]) => BigInt(codePoints(str(s)))),
  "string::lowercase": fn(["string"], ([s]) => str(s).toLowerCase()),
  "string::uppercase": fn(["string"], ([s]) => str(s).toUpperCase()),
  "string::repeat": fn(["string", "u64"], ([s, n]) => {
    const count = n as bigint;
    if (count < 0n || BigInt(utf8Len(str(s))) * count > BigInt(ALLOCATION_LIMIT)) limit("string::repeat", Infinity);
    return str(s).repeat(Number(count));
  }),
  "string::replace": fn(["string", "any", "string"], ([s, search, repl], ctx) => {
    if (typeof search !== "string") {
      throw incorrectArguments("string::replace", `Argument 2 was the wrong type. Expected a string but found ${asRawString(search)}`);
    }
    const text = str(s);
    const r = str(repl);
    if (r.length > search.length) {
      const count = search === "" ? codePoints(text) + 1 : occurrences(text, search);
      limit("string::replace", utf8Len(text) + count * (utf8Len(r) - utf8Len(search)));
    }
    if (search === "") return chars(text).reduce((acc, c) => acc + c + r, r);
    if (text.length > PIECE) return replacePieces(text, search, r, ctx);
    // `$` is special in a replacement text: `$$` writes one
    return text.replaceAll(search, r.replaceAll("$", "$$$$"));
  }),
  "string::reverse": fn(["string"], ([s], ctx) => perCharacter(str(s), ctx, reversed, "reversed")),
  "string::slice": fn(["string", "i64?", "i64?"], (args) => slice(str(args[0]), args[1], args[2], args.length)),
  "string::slug": fn(["string"], ([s], ctx) => (str(s).length <= PIECE ? slug(str(s)) : slugPieces(str(s), ctx))),
  "string::split": fn(["string", "string"], ([s, sep], ctx) => {
    const text = str(s);
    const by = str(sep);
    if (by !== "" && text.length > PIECE) return cut(text, ctx, (from) => {
      const at = text.indexOf(by, from);
      return at < 0 ? undefined : [at, at + by.length];
    });
    // Rust's split on "" yields an empty string at both ends; each character a value, refused before it is made
    if (str(sep) === "") checkArrayLength(BigInt(text.length + 2));
    return str(sep) === "" ? ["", ...chars(text), ""] : text.split(str(sep));
  }),
  "string::starts_with": fn(["string", "string"], ([a, b]) => str(a).startsWith(str(b)), { compat: 2 }),
  "string::startsWith": fn(["string", "string"], ([a, b]) => str(a).startsWith(str(b)), { compat: 1 }),
  "string::trim": fn(["string"], ([s]) => trimWhiteSpace(str(s))),
  "string::words": fn(["string"], ([s], ctx) => {
    const text = str(s);
    if (text.length <= PIECE) return text.split(/\p{White_Space}+/u).filter((w) => w !== "");
    const space = (i: number): boolean => WHITE_SPACE.has(text.charCodeAt(i));
    return cut(text, ctx, (from) => {
      let at = from;
      while (at < text.length && !space(at)) at++;
      let end = at;
      while (end < text.length && space(end)) end++;
      return at < text.length ? [at, end] : undefined;
    }).then((words) => words.filter((w) => w !== ""));
  }),

  "string::is::alphanum": is((s) => ALPHANUMS.test(s)),
  "string::is::alpha": is((s) => ALPHAS.test(s)),
  "string::is::ascii": is((s) => /^[\x00-\x7f]*$/.test(s)),
  "string::is::numeric": is((s) => NUMERICS.test(s)),
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
