// Record id text as it travels in the token ID claim: formatted on issue, parsed on authenticate.
// A small local reader for the shapes tokens carry; grammar/'s parseRecordId can replace it once it lands.

import { RecordId, Uuid, type RecordIdKey } from "../value/types.js";

const SIMPLE = /^[A-Za-z0-9_]+$/;
const NUMERIC = /^[0-9]+$/;
const I64_MAX = 9223372036854775807n;

function escapeIdent(s: string): string {
  return SIMPLE.test(s) && !NUMERIC.test(s) ? s : `⟨${s.replace(/⟩/g, "\\⟩")}⟩`;
}

/** `user:1`, `user:abc`, `user:⟨a b⟩`, `⟨my table⟩:x`; uuid keys as `u'…'` (v2). */
export function recordIdText(rid: RecordId): string {
  const table = SIMPLE.test(rid.table) && !NUMERIC.test(rid.table) ? rid.table : `⟨${rid.table.replace(/⟩/g, "\\⟩")}⟩`;
  return `${table}:${keyText(rid.id)}`;
}

function keyText(key: RecordIdKey): string {
  if (typeof key === "bigint") return key.toString();
  if (typeof key === "string") return escapeIdent(key);
  if (key instanceof Uuid) return `u'${key.text}'`;
  return JSON.stringify(key, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
}

/** Parses `table:key` for simple, escaped, numeric and uuid keys; anything else is undefined. */
export function parseRecordIdText(text: string): RecordId | undefined {
  const t = readPart(text, 0);
  if (!t || text[t.end] !== ":") return undefined;
  const keyStart = t.end + 1;
  const uuid = /^u(["'])([0-9a-fA-F-]{36})\1$/.exec(text.slice(keyStart));
  if (uuid) return new RecordId(t.value, new Uuid(uuid[2]!.toLowerCase()));
  const k = readPart(text, keyStart);
  if (!k || k.end !== text.length) return undefined;
  if (!k.escaped && /^-?[0-9]+$/.test(k.value)) {
    const n = BigInt(k.value);
    if (n <= I64_MAX && n >= -I64_MAX - 1n) return new RecordId(t.value, n);
  }
  return new RecordId(t.value, k.value);
}

function readPart(text: string, start: number): { value: string; end: number; escaped: boolean } | undefined {
  const open = text[start];
  if (open === "⟨" || open === "`") {
    const close = open === "⟨" ? "⟩" : "`";
    let out = "";
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i]!;
      if (c === "\\" && text[i + 1] === close) {
        out += close;
        i++;
      } else if (c === close) return { value: out, end: i + 1, escaped: true };
      else out += c;
    }
    return undefined;
  }
  let i = start;
  if (text[i] === "-") i++;
  while (i < text.length && /[A-Za-z0-9_]/.test(text[i]!)) i++;
  return i > start ? { value: text.slice(start, i), end: i, escaped: false } : undefined;
}
