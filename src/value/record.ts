// Identifier escaping and record-id text forms, shared by display, JSON, printer and the engine.
import { compatOf, type CompatOpts } from "./compat.js";
import { toSql } from "./display.js";
import { parseI64 } from "./int.js";
import { RecordId, RecordIdRange, Uuid, type RecordIdKey } from "./types.js";

/** Words SurrealDB 2.x escapes as identifiers (its RESERVED_KEYWORD set; 1.x escapes none). */
export const RESERVED_KEYWORDS_V2: ReadonlySet<string> = new Set(
  "ALTER BEGIN BREAK CANCEL COMMIT CONTINUE CREATE DEFINE FOR IF INFO INSERT KILL LIVE OPTION REBUILD RETURN RELATE REMOVE SELECT LET SHOW SLEEP THROW UPDATE UPSERT USE DIFF RAND NONE NULL AFTER BEFORE VALUE BY ALL TRUE FALSE WHERE TABLE".split(
    " ",
  ),
);

const PLAIN = /^[A-Za-z0-9_]+$/;
const DIGITS = /^[0-9]*$/;
const DIGITS_UNDERSCORES = /^[0-9_]*$/;

/** Characters SurrealDB 2.x escapes inside quoted text besides the quote and the backslash. */
function escapeControlV2(s: string): string {
  return s.replace(/[\n\r\t\f\b]/g, (c) =>
    c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : c === "\f" ? "\\f" : "\\u{8}",
  );
}

/**
 * `` `…` ``. 1.x writes backslashes as they are, except one that would read as an escape (before a backslash, a backtick
 * or the end): that one is doubled, so the text always reads back as one identifier (1.5.4 prints ``\`a\\`` raw, which
 * ends the identifier early: attack pass 9, G6).
 */
function backticks(s: string, compat: 1 | 2): string {
  const body = compat === 1 ? s.replace(/\\(?=\\|`|$)/g, "\\\\").replace(/`/g, "\\`") : escapeControlV2(s.replace(/\\/g, "\\\\").replace(/`/g, "\\`"));
  return `\`${body}\``;
}

/**
 * An identifier (table, field, param-free name) as SurrealDB prints it.
 * 1.x: backticks when a character is outside [A-Za-z0-9_] or the name is all digits.
 * 2.x: also when it starts with a digit or is a reserved keyword.
 */
export function escapeIdent(name: string, opts?: CompatOpts): string {
  const compat = compatOf(opts);
  if (compat === 1) return PLAIN.test(name) && !DIGITS.test(name) ? name : backticks(name, 1);
  if (PLAIN.test(name) && !/^[0-9]/.test(name) && !RESERVED_KEYWORDS_V2.has(name.toUpperCase())) return name;
  return backticks(name, 2);
}

/** Rust's `{:?}` escaping of a str body, which 1.x uses for object keys (approximated with Unicode classes). */
function rustDebugEscape(s: string): string {
  return s.replace(/[\\"\n\r\t\0]|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      case "\0":
        return "\\0";
      default:
        return `\\u{${c.codePointAt(0)!.toString(16)}}`;
    }
  });
}

/**
 * An object key. Both versions use double quotes when a character is outside [A-Za-z0-9_];
 * 2.x also when the key starts with a digit or is empty. 2.x escapes backticks inside (as 2.6.0 prints them) and, unlike
 * 2.6.0, double quotes too: 2.6.0 prints `{ "a"b": 1 }`, so a client's key could end the key early and write SurrealQL
 * into an export or a token's ID claim (attack pass 9, G6 / G10).
 */
export function escapeKey(name: string, opts?: CompatOpts): string {
  const compat = compatOf(opts);
  if (compat === 1) return PLAIN.test(name) ? name : `"${rustDebugEscape(name)}"`;
  if (PLAIN.test(name) && !/^[0-9]/.test(name)) return name;
  return `"${escapeControlV2(name.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/"/g, '\\"'))}"`;
}

/** A function name (`fn::a::b`, `string::len`): each part as written when plain, else in backticks (stricter than 2.6.0, which prints parts raw: G7). */
export function escapeFunctionName(name: string, opts?: CompatOpts): string {
  return name
    .split("::")
    .map((p) => (PLAIN.test(p) && !/^[0-9]/.test(p) ? p : backticks(p, compatOf(opts))))
    .join("::");
}

/**
 * A string record key. 1.x: `⟨…⟩` when a character is outside [A-Za-z0-9_] or it is all digits.
 * 2.x: backticks, also when it is only digits and underscores.
 * 1.x writes backslashes as they are, except one that would read as an escape (before a backslash, `⟩` or the end):
 * that one is doubled, so the text reads back (SurrealDB 1.5.4 reads `⟨…⟩` raw; our one parser reads `\\` and `\⟩`).
 */
export function escapeRecordKeyString(key: string, opts?: CompatOpts): string {
  const compat = compatOf(opts);
  if (compat === 1) {
    if (PLAIN.test(key) && !DIGITS.test(key)) return key;
    return `⟨${key.replace(/\\(?=\\|⟩|$)/g, "\\\\").replace(/⟩/g, "\\⟩")}⟩`;
  }
  if (PLAIN.test(key) && !DIGITS_UNDERSCORES.test(key)) return key;
  return backticks(key, 2);
}

/** The table part of a record id: 1.x uses `⟨…⟩` (record-key rules), 2.x the identifier rules. */
export function escapeRecordTable(table: string, opts?: CompatOpts): string {
  return compatOf(opts) === 1 ? escapeRecordKeyString(table, opts) : escapeIdent(table, opts);
}

export function formatRecordKey(key: RecordIdKey, opts?: CompatOpts): string {
  if (typeof key === "bigint") return key.toString();
  if (typeof key === "string") return escapeRecordKeyString(key, opts);
  if (key instanceof Uuid) return compatOf(opts) === 1 ? escapeRecordKeyString(key.text, opts) : `u'${key.text}'`;
  if (key instanceof RecordIdRange) {
    const b = key.begin ? `${formatRecordKey(key.begin.value, opts)}${key.begin.inclusive ? "" : ">"}` : "";
    const e = key.end ? `${key.end.inclusive ? "=" : ""}${formatRecordKey(key.end.value, opts)}` : "";
    return `${b}..${e}`;
  }
  return toSql(key, opts);
}

/** `user:1`, `user:abc`, `user:⟨a-b⟩` (1.x) / ``user:`a-b` `` (2.x), `user:[1, 'a']`, `user:{ a: 1 }`, `user:u'…'`. */
export function formatRecordId(rid: RecordId, opts?: CompatOpts): string {
  return `${escapeRecordTable(rid.table, opts)}:${formatRecordKey(rid.id, opts)}`;
}

// Inside `…` or ⟨…⟩: `\\` and an escaped closing delimiter; 2.x-style `\n \r \t \f \u{8}`;
// any other backslash stays as written (1.x prints backslashes unescaped). Undefined if an unescaped `close` occurs.
export function unescapeDelimited(body: string, close: string): string | undefined {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === close) return undefined;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[i + 1]!;
    if (n === close || n === "\\") {
      out += n;
      i++;
    } else if (close === "`" && "nrtf".includes(n)) {
      out += n === "n" ? "\n" : n === "r" ? "\r" : n === "t" ? "\t" : "\f";
      i++;
    } else if (close === "`" && body.startsWith("u{8}", i + 1)) {
      out += "\b";
      i += 4;
    } else {
      out += c;
    }
  }
  return out;
}

function parseIdentPart(text: string): string | undefined {
  if (text.startsWith("`") && text.endsWith("`") && text.length >= 2) return unescapeDelimited(text.slice(1, -1), "`");
  if (text.startsWith("⟨") && text.endsWith("⟩") && text.length >= 2) return unescapeDelimited(text.slice(1, -1), "⟩");
  return PLAIN.test(text) ? text : undefined;
}

function splitAtColon(text: string): [string, string] | undefined {
  let i = 0;
  if (text.startsWith("`") || text.startsWith("⟨")) {
    const close = text[0] === "`" ? "`" : "⟩";
    for (i = 1; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === close) break;
    }
    i++;
  } else {
    while (i < text.length && text[i] !== ":") i++;
  }
  if (text[i] !== ":") return undefined;
  return [text.slice(0, i), text.slice(i + 1)];
}

/**
 * The simple record-id forms: `tb:ident`, `tb:123`, `tb:-5`, `tb:⟨…⟩`, `` tb:`…` `` (table may be
 * escaped too). Integer keys in i64 range become bigint, longer digit runs a string key.
 * 2.x rejects an unescaped all-digit table and a `+` sign; 1.x accepts both.
 * Anything else → undefined (full forms such as `tb:[1, 2]` need the grammar).
 */
export function parseRecordIdText(text: string, opts?: CompatOpts): RecordId | undefined {
  const compat = compatOf(opts);
  const parts = splitAtColon(text);
  if (!parts) return undefined;
  const table = parseIdentPart(parts[0]);
  if (table === undefined || table === "") return undefined;
  if (compat === 2 && DIGITS.test(parts[0])) return undefined;
  const key = parts[1];
  if (/^[+-]?[0-9]+$/.test(key)) {
    if (compat === 2 && key.startsWith("+")) return undefined;
    const n = parseI64(key);
    if (n !== undefined) return new RecordId(table, n);
    return /^[0-9]+$/.test(key) ? new RecordId(table, key) : undefined;
  }
  const k = parseIdentPart(key);
  if (k === undefined || (k === "" && !key.startsWith("⟨") && !key.startsWith("`"))) return undefined;
  return new RecordId(table, k);
}

const ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A generated record key: 20 characters of [a-z0-9], as SurrealDB's `Id::rand()`. */
export function randomRecordKey(): string {
  let out = "";
  const bytes = new Uint8Array(32);
  while (out.length < 20) {
    crypto.getRandomValues(bytes);
    // 252 = 7 × 36: rejecting the rest keeps the alphabet uniform
    for (const b of bytes) if (b < 252 && out.length < 20) out += ID_CHARS[b % 36];
  }
  return out;
}

// `String(recordId)` and template strings print `table:id` as SurrealQL 2.x does (not `[object Object]`).
declare module "./types.js" {
  interface RecordId {
    toString(): string;
  }
}
RecordId.prototype.toString = function (this: RecordId): string {
  return formatRecordId(this);
};
