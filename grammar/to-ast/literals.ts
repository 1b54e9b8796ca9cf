// CST → AST, literals: prefixed strings (d u r b), record keys and ranges, object entries; record keys as values.
import type * as A from "../../src/ast/nodes.js";
import type * as C from "../cst.js";
import { parseI64 } from "../../src/value/int.js";
import { v1StringLiteral } from "../../src/value/json.js";
import { RecordId, Uuid, type Regex, type RecordIdKey, type Value } from "../../src/value/types.js";
import { regexFrom, regexSourceOf, RegexSyntaxError } from "../../src/value/regex.js";
import { datetimeFromText, unquote, uuidFromText } from "../literals.js";
import type { IToken } from "chevrotain";
import { nodes, node, tok, has, req, firstKey, firstToken, type Node, Ctx } from "./context.js";
import { array, expr } from "./expressions.js";

export function prefixed(ctx: Ctx, t: IToken): A.Expr {
  const prefix = t.image[0].toLowerCase();
  let content: string;
  try {
    content = unquote(t.image.slice(1));
  } catch {
    ctx.fail(t, "Invalid escape character in strand");
  }
  switch (prefix) {
    case "d": {
      const d = datetimeFromText(content);
      if (d === undefined) ctx.fail(t, `Unexpected token \`${t.image}\`, expected a datetime`);
      return { kind: "Literal", value: d, pos: ctx.pos(t) };
    }
    case "u": {
      const u = uuidFromText(content);
      if (u === undefined) ctx.fail(t, `Unexpected token \`${t.image}\`, expected a uuid`);
      return { kind: "Literal", value: u, pos: ctx.pos(t) };
    }
    case "r": {
      let rid: A.RecordIdExpr;
      try {
        rid = parseRecordIdExpr(content);
      } catch {
        ctx.fail(t, `Unexpected token \`${t.image}\`, expected a record-id`);
      }
      return { ...rid, pos: ctx.pos(t) };
    }
    case "b": {
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(content)) ctx.fail(t, `Unexpected token \`${t.image}\`, expected hex bytes`);
      const bytes = new Uint8Array(content.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(content.slice(i * 2, i * 2 + 2), 16);
      return { kind: "Literal", value: bytes, pos: ctx.pos(t) };
    }
    default:
      return { kind: "Literal", value: content, pos: ctx.pos(t) };
  }
}

/** A string literal; read as compat 1, one whose whole text SurrealDB 1.x reads as a record id, datetime or uuid is that value. */
export function stringLiteral(ctx: Ctx, t: IToken): A.Expr {
  const value = ctx.string(t);
  if (ctx.compat === 2) return { kind: "Literal", value, pos: ctx.pos(t) };
  const rid = v1RecordId(ctx, value);
  return rid ? { ...rid, pos: ctx.pos(t) } : { kind: "Literal", value: v1StringLiteral(value), pos: ctx.pos(t) };
}

/** 1.5.4's reading (oracle): a whole record id, without blanks around it or its `:`, a range, a uuid key or an empty key. */
function v1RecordId(ctx: Ctx, text: string): A.RecordIdExpr | undefined {
  if (!text.includes(":") || text !== text.trim() || /^[^:]*(?:\s:|:\s)/.test(text)) return undefined;
  if (!mayBeV1RecordId(text) || ctx.v1IdFailures >= V1_ID_FAILURES) return undefined;
  let rid: A.RecordIdExpr;
  // a failed parse here is an answer, not an error to report: no stack traces for its exceptions (87 → 33 µs)
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    rid = parseRecordIdExpr(text);
  } catch {
    ctx.v1IdFailures++;
    return undefined;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const key = rid.key;
  return key.kind === "Range" || key.kind === "Uuid" || (key.kind === "String" && key.value === "") ? undefined : rid;
}

/**
 * Record-id-shaped strings of one query that may fail to parse before the rest are read as strings (stricter than
 * 1.5.4 for such a query only): each failure costs ~30–100 µs of a parse nothing interrupts (attack pass 12, J10).
 */
const V1_ID_FAILURES = 256;

/** The closer a bracketed or escaped record key ends with. */
const KEY_CLOSERS: Readonly<Record<string, string>> = { "[": "]", "{": "}", "⟨": "⟩", "`": "`" };

/**
 * Whether `text` has the shape of a record id as 1.5.4 reads one in a string (oracle), before the parser is asked: a
 * table of ASCII letters, digits and `_` (or escaped); a key that is such a word, a number, `rand()` / `ulid()` /
 * `uuid()`, a signed word or number, or bracketed / escaped and closed at the end. A string without it (a datetime, a URL, text
 * with a colon) is never parsed: a failed parse costs ~0.1–0.4 ms, so a query of such literals held the event loop
 * (attack pass 12, J10).
 */
function mayBeV1RecordId(text: string): boolean {
  if (text[0] === "⟨" || text[0] === "`") return true;
  const colon = text.indexOf(":");
  if (!/^[A-Za-z0-9_]+$/.test(text.slice(0, colon))) return false;
  const key = text.slice(colon + 1);
  const closer = KEY_CLOSERS[key[0] ?? ""];
  if (closer !== undefined) return key.length > 1 && key.endsWith(closer);
  return /^(?:rand|ulid|uuid)\(\)$/i.test(key) || /^[-+]?[A-Za-z0-9_]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?(?:f|dec)?)?$/.test(key);
}

/** `/…/`: the pattern with `\/` read as `/`, checked as SurrealDB checks it ("Invalid regex: …"). */
export function regexLiteral(ctx: Ctx, t: IToken): Regex {
  try {
    return regexFrom(regexSourceOf(t.image.slice(1, -1)));
  } catch (e) {
    if (e instanceof RegexSyntaxError) ctx.fail(t, `Invalid regex: ${e.message}`);
    throw e;
  }
}

export function objectEntries(ctx: Ctx, n: C.ObjectCstNode): { key: string; value: A.Expr }[] {
  return nodes(n, "objectEntry").map((e) => {
    const nm = tok(e, "IdentName");
    const s = tok(e, "StringLiteral");
    const num = tok(e, "NumberLiteral") ?? tok(e, "NumIdent");
    const key = nm ? ctx.nameText(nm) : s ? ctx.string(s) : req(num).image;
    return { key, value: expr(ctx, req(node(e, "expr"))) };
  });
}

/** A key (its parts are the node's own children) or a range: the key's parts, then `rangeTail`. */
export function recordKey(ctx: Ctx, n: C.RecordKeyCstNode): A.RecordKeyExpr {
  const tail = nodes(n, "rangeTail")[0];
  if (tail === undefined) return recordKeyOf(ctx, n);
  const end = node(tail, "end");
  return {
    kind: "Range",
    begin: firstKey(n) === "rangeTail" ? undefined : { key: recordKeyOf(ctx, n), inclusive: !has(tail, "exclusive") },
    end: end && { key: recordKeyOf(ctx, end), inclusive: req(tok(tail, "op")).tokenType.name === "DotDotEq" },
  };
}

function recordKeyOf(ctx: Ctx, n: C.RecordKeyCstNode | C.RecordKeyValueCstNode): A.RecordKeyExpr {
  const num = tok(n, "NumberLiteral");
  if (num) {
    if (/^\d+$/.test(num.image)) {
      // Integer keys in i64 range are numbers; longer digit runs are string keys (as SurrealDB reads them).
      const big = parseI64((has(n, "Minus") ? "-" : "") + num.image);
      if (big !== undefined) return { kind: "Number", value: big };
      return { kind: "String", value: (has(n, "Minus") ? "-" : "") + num.image };
    }
    // `user:1e5`, `user:2f`, `user:1_000` are identifier-like keys; `user:1.5` is not a key.
    if (!has(n, "Minus") && /^\d+[A-Za-z_]\w*$/.test(num.image)) return { kind: "String", value: num.image };
    const v = ctx.number(num);
    if (typeof v !== "bigint") ctx.fail(num, `Unexpected token \`${num.image}\`, expected an integer record-id key`);
    return { kind: "Number", value: has(n, "Minus") ? -v : v };
  }
  const ni = tok(n, "NumIdent") ?? tok(n, "DurationLiteral");
  if (ni) return { kind: "String", value: ni.image };
  const ps = tok(n, "PrefixedString");
  if (ps) {
    const content = ctx.string({ ...ps, image: ps.image.slice(1) });
    if (ps.image[0].toLowerCase() === "u") {
      const u = uuidFromText(content);
      if (u === undefined) ctx.fail(ps, `Unexpected token \`${ps.image}\`, expected a uuid`);
      return { kind: "Uuid", value: u };
    }
    return { kind: "String", value: content };
  }
  const s = tok(n, "StringLiteral");
  if (s) return { kind: "String", value: ctx.string(s) };
  // strings inside an array or object key stay strings in 1.x too (1.5.4: `a:['A:0']` keeps the text 'A:0')
  const keyCtx = ctx.compat === 1 ? new Ctx(ctx.text) : ctx;
  const arr = node(n, "array");
  if (arr) return { kind: "Array", items: array(keyCtx, arr).items };
  const obj = node(n, "object");
  if (obj) return { kind: "Object", entries: objectEntries(keyCtx, obj) };
  const name = req(tok(n, "IdentName"));
  const text = ctx.nameText(name);
  if (has(n, "LParen")) {
    const g = text.toLowerCase();
    if (g !== "rand" && g !== "ulid" && g !== "uuid") ctx.fail(firstToken(name), `Unexpected token \`${text}\`, expected one of \`rand\`, \`ulid\`, \`uuid\``);
    return { kind: "Generate", generator: g };
  }
  return { kind: "String", value: text };
}

/** Record-id text → RecordIdExpr (used for `r"…"` literals); set by index.ts to avoid a cycle. */
export let parseRecordIdExpr: (text: string) => A.RecordIdExpr = () => {
  throw new Error("not initialised");
};
export function setRecordIdParser(fn: (text: string) => A.RecordIdExpr): void {
  parseRecordIdExpr = fn;
}

/** RecordKeyExpr with only literal parts → RecordIdKey value (undefined if it holds expressions or a generator). */
export function recordKeyValue(k: A.RecordKeyExpr): RecordIdKey | undefined {
  switch (k.kind) {
    case "Number": return k.value;
    case "String": return k.value;
    case "Uuid": return k.value instanceof Uuid ? k.value : new Uuid(String(k.value));
    case "Array": {
      const out: Value[] = [];
      for (const e of k.items) {
        const v = literalValue(e);
        if (v === noValue) return undefined;
        out.push(v as Value);
      }
      return out;
    }
    case "Object": {
      const out: Record<string, Value> = {};
      for (const { key, value } of k.entries) {
        const v = literalValue(value);
        if (v === noValue) return undefined;
        out[key] = v as Value;
      }
      return out;
    }
    default: return undefined;
  }
}

export const noValue = Symbol("noValue");
/** The value of a literal, or of an array / object / record id of literals (else noValue). */
export function literalValue(e: A.Expr): Value | typeof noValue {
  if (e.kind === "Literal") return e.value;
  if (e.kind === "Array") {
    const out: Value[] = [];
    for (const i of e.items) {
      const v = literalValue(i);
      if (v === noValue) return noValue;
      out.push(v);
    }
    return out;
  }
  if (e.kind === "Object") {
    const out: Record<string, Value> = {};
    for (const { key, value } of e.entries) {
      const v = literalValue(value);
      if (v === noValue) return noValue;
      out[key] = v;
    }
    return out;
  }
  if (e.kind === "RecordId") {
    const key = recordKeyValue(e.key);
    return key === undefined ? noValue : new RecordId(e.table, key);
  }
  return noValue;
}
