// Regex values: SurrealDB's `/…/` (Rust regex syntax): checked through a JS RegExp (SurrealDB's error words), matched
// by RE2 (re2js), linear in the text as Rust's regex crate is — a JS RegExp backtracks, and `(a+)+$` against 31
// characters held the event loop for 36 s (attack pass 10, H2).
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { queryError } from "../errors/index.js";
import { Regex } from "./types.js";

/** Deepest nesting of groups Rust's regex parser takes (its nest_limit). */
const MAX_NESTING = 250;

/**
 * Most RE2 instructions a pattern compiles to (ours, stricter than Rust's 10 MiB size_limit: RE2 in JS compiles and
 * simulates a program of this size in a few ms; attack pass 11, I6: 9,000 instructions held the event loop for seconds).
 */
export const MAX_REGEX_PROGRAM = 2000;
/** Rust's size_limit, named in its refusal (ours, MAX_REGEX_PROGRAM, is reached first: the same words, as the oracle answers). */
const RUST_SIZE_LIMIT = 10 * 1024 * 1024;

/**
 * Most work of one match: the text's length × the pattern's instructions (RE2's simulation costs up to both; ours:
 * Rust's lazy DFA has no such bound), so one match holds the event loop for tens of ms at most (attack pass 11, I6).
 */
export const MAX_REGEX_WORK = 4 * 1024 * 1024;

/** A pattern Rust's regex crate refuses; `message` is its text (`regex parse error:\n    (\n    ^\nerror: unclosed group`). */
export class RegexSyntaxError extends Error {}

// Rust's Unicode-aware `\w` and `\d` (JS reads them as ASCII even with the `u` flag)
const WORD = String.raw`\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d`;
const DIGIT = String.raw`\p{Nd}`;
const POSIX: Record<string, string> = {
  alpha: "A-Za-z", digit: "0-9", alnum: "0-9A-Za-z", upper: "A-Z", lower: "a-z", space: String.raw`\t\n\v\f\r `,
  xdigit: "0-9A-Fa-f", word: "0-9A-Za-z_", punct: String.raw`!-\/:-@\[-\x60{-~`, blank: String.raw`\t `, cntrl: String.raw`\x00-\x1f\x7f`,
};
// characters a JS `u` pattern allows after `\` outside / inside a class
const JS_SYNTAX = new Set("^$\\.*+?()[]{}|/".split(""));

/** Rust's parse error: the pattern, a caret line under `at` (`to`: through that index), the reason. */
function syntaxError(source: string, at: number | undefined, what: string, to = at): RegexSyntaxError {
  const span = at === undefined ? 0 : [...source.slice(at, (to ?? at) + 1)].length;
  const caret = at === undefined ? "" : `    ${" ".repeat([...source.slice(0, at)].length)}${"^".repeat(span)}\n`;
  return new RegexSyntaxError(`regex parse error:\n    ${source}\n${caret}error: ${what}`);
}

/** Rust regex text → a JS source and flags (leading `(?flags)`, `(?P<n>`, `\A` `\z`, Unicode `\w` `\d`, POSIX classes). */
function translate(source: string): { js: string; flags: string } {
  let flags = "u";
  let i = 0;
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead) {
    for (const f of lead[1]!) if (f !== "U" && !flags.includes(f)) flags += f;
    i = lead[0].length;
  }
  let out = "";
  let inClass = false;
  const opens: number[] = [];
  // the first group nested past MAX_NESTING, refused once it closes (Rust's span is the whole group)
  let tooDeep: number | undefined;
  for (; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const n = source[i + 1];
      if (n === undefined) throw syntaxError(source, i, "incomplete escape sequence, reached end of pattern prematurely");
      i++;
      if (n === "w" || n === "W" || n === "d" || n === "D") {
        const set = n.toLowerCase() === "w" ? WORD : DIGIT;
        const negated = n === "W" || n === "D";
        out += inClass ? (negated ? `\\${n}` : set) : `[${negated ? "^" : ""}${set}]`;
      } else if (n === "A" && !inClass) out += "(?<![\\s\\S])";
      else if (n === "z" && !inClass) out += "(?![\\s\\S])";
      else if (/[A-Za-z0-9]/.test(n) || JS_SYNTAX.has(n) || (inClass && n === "-")) {
        // `\pL` is `\p{L}` in Rust
        if ((n === "p" || n === "P") && source[i + 1] !== "{" && source[i + 1] !== undefined) out += `\\${n}{${source[++i]}}`;
        else out += `\\${n}`;
      } else out += n === "-" ? "\\x2d" : n; // Rust escapes any punctuation; JS `u` only its syntax characters
      continue;
    }
    if (inClass) {
      const posix = c === "[" ? /^\[:(\^?)([a-z]+):\]/.exec(source.slice(i)) : null;
      if (posix && POSIX[posix[2]!] !== undefined && posix[1] === "") {
        out += POSIX[posix[2]!];
        i += posix[0].length - 1;
        continue;
      }
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      // a `]` right after `[` or `[^` is a literal in Rust
      const neg = source[i + 1] === "^";
      if (neg) out += "^";
      if (source[i + (neg ? 2 : 1)] === "]") out += "\\]";
      i += (neg ? 1 : 0) + (source[i + (neg ? 2 : 1)] === "]" ? 1 : 0);
      continue;
    }
    if (c === "(") {
      opens.push(i);
      if (opens.length > MAX_NESTING && tooDeep === undefined) tooDeep = i;
      if (source.startsWith("(?P<", i)) {
        out += "(?<";
        i += 3;
        continue;
      }
    } else if (c === ")") {
      const open = opens.pop();
      if (open === undefined) throw syntaxError(source, i, "unopened group");
      if (open === tooDeep) throw syntaxError(source, open, `exceed the maximum number of nested parentheses/brackets (${MAX_NESTING})`, i);
    }
    out += c;
  }
  if (inClass) throw syntaxError(source, source.lastIndexOf("["), "unclosed character class");
  if (opens.length > 0) throw syntaxError(source, opens[opens.length - 1], "unclosed group");
  return { js: out, flags };
}

const cache = new Map<string, RegExp>();

/** The compiled form of a Rust regex text; throws RegexSyntaxError when SurrealDB would refuse it. */
function compile(source: string): RegExp {
  let re = cache.get(source);
  if (re === undefined) {
    if (source.includes("\0")) throw new RegexSyntaxError("regex contained NUL byte");
    const { js, flags } = translate(source);
    try {
      re = new RegExp(js, flags);
    } catch (e) {
      throw syntaxError(source, undefined, (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, "").toLowerCase());
    }
    if (cache.size >= 1000) cache.clear();
    cache.set(source, re);
  }
  return re;
}

/** A regex value from its pattern text (`\/` already read as `/`); throws RegexSyntaxError for an invalid pattern. */
export function regexFrom(source: string): Regex {
  matcher(source);
  return new Regex(source);
}

/**
 * Rust regex text → RE2's: the syntax is Rust's own but for `\w` and `\d`, which are Unicode in Rust and ASCII in RE2
 * (inside a class a negated `\W` / `\D` keeps RE2's ASCII reading).
 */
function toRe2(source: string): string {
  const word = String.raw`\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}`;
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      const n = source[++i]!;
      if (n === "w" || n === "d") out += inClass ? (n === "w" ? word : String.raw`\p{Nd}`) : `[${n === "w" ? word : String.raw`\p{Nd}`}]`;
      else if ((n === "W" || n === "D") && !inClass) out += `[^${n === "W" ? word : String.raw`\p{Nd}`}]`;
      else out += `\\${n}`;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass && source[i - 1] !== "[" && !(source[i - 1] === "^" && source[i - 2] === "[")) inClass = false;
    out += c;
  }
  return out;
}

const matchers = new Map<string, RE2JS>();

/** Rust's refusal of a program past its size limit (here MAX_REGEX_PROGRAM). */
const tooBig = (): RegexSyntaxError => new RegexSyntaxError(`Compiled regex exceeds size limit of ${RUST_SIZE_LIMIT} bytes.`);

/**
 * The RE2 program of a Rust regex text; throws RegexSyntaxError in SurrealDB's words for a pattern it refuses, and for
 * one past MAX_REGEX_PROGRAM (RE2's own refusals are of size too: a repeat count past 1000, nesting past 1000).
 */
function matcher(source: string): RE2JS {
  let re = matchers.get(source);
  if (re !== undefined) return re;
  compile(source); // SurrealDB's refusal of a bad pattern, in its words
  // a long pattern is refused before RE2 reads it (its compile costs its length): two characters or more an instruction
  if (source.length > 2 * MAX_REGEX_PROGRAM) throw tooBig();
  try {
    re = RE2JS.compile(toRe2(source));
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) throw tooBig();
    throw e;
  }
  if (re.programSize() > MAX_REGEX_PROGRAM) throw tooBig();
  if (matchers.size >= 1000) matchers.clear();
  matchers.set(source, re);
  return re;
}

/**
 * Whether `text` holds a match of `r` (SurrealDB's `is_match`: anywhere unless anchored), in time linear in `text`;
 * refused past MAX_REGEX_WORK (the text's length × the pattern's instructions).
 */
export function regexMatches(r: Regex, text: string): boolean {
  const re = matcher(r.source);
  if (text.length * re.programSize() > MAX_REGEX_WORK) throw queryError("RegexTooCostly", MAX_REGEX_WORK);
  return re.test(text);
}

/**
 * `/…/` so that it reads back as one literal of the same pattern, in both compats (stricter than SurrealDB: 1.5.4 prints
 * the pattern as it is and 2.6.0 escapes every `/`, so a pattern `\/` or one holding a line break ended the literal early
 * and wrote SurrealQL into an export: attack pass 10, H1). An escape pair is kept as it is (an escaped line break as
 * `\n` / `\r`), an unescaped `/` becomes `\/`, a line break `\n` / `\r`: the same pattern to the regex engine.
 */
export function formatRegex(r: Regex): string {
  const breaks = (c: string): string => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : c);
  const body = r.source.replace(/\\([\s\S])|\\$|[/\n\r]/g, (m, escaped: string | undefined) =>
    escaped !== undefined ? (escaped === "\n" || escaped === "\r" ? breaks(escaped) : m) : m === "\\" ? "\\\\" : m === "/" ? "\\/" : breaks(m),
  );
  return `/${body}/`;
}

/** The pattern of a `/…/` literal's body: `\/` is a `/`, every other escape pair stays as written. */
export function regexSourceOf(body: string): string {
  return body.replace(/\\([\s\S])/g, (m, c: string) => (c === "/" ? "/" : m));
}
