// Small value helpers shared by the builtin namespaces (private stand-ins until value/ provides them).

import { Datetime, Decimal, Duration, Geometry, RecordId, Table, Uuid, isValueObject, type Value } from "../../value/types.js";
import { render } from "./display.js";

/** SurrealDB truthiness: NONE, NULL, false, 0, "", [], {} are falsy; everything else is truthy. */
export function isTruthy(v: Value): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (typeof v === "string") return v.length > 0;
  if (v instanceof Decimal) return Number(v.text) !== 0;
  if (v instanceof Duration) return v.nanos !== 0n;
  if (v instanceof Datetime || v instanceof Uuid || v instanceof RecordId || v instanceof Table || v instanceof Geometry) return true;
  if (v instanceof Uint8Array) return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isValueObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** SurrealDB's `as_raw_string`: strings as they are, anything else as SurrealQL text. */
export function asRawString(v: Value): string {
  return typeof v === "string" ? v : render(v);
}

const IDENT = /^[A-Za-z0-9_]+$/;

/** Minimal record-id text parser (`tb:key`, ⟨…⟩ / backtick escapes, numeric, uuid, array and object keys kept as text). */
export function parseRecordIdText(text: string): RecordId | undefined {
  let i = 0;
  const readPart = (stopAtColon: boolean): string | undefined => {
    const open = text[i];
    if (open === "⟨" || open === "`") {
      const close = open === "⟨" ? "⟩" : "`";
      let out = "";
      i++;
      while (i < text.length && text[i] !== close) {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        out += text[i++];
      }
      if (text[i] !== close) return undefined;
      i++;
      return out;
    }
    const start = i;
    while (i < text.length && (stopAtColon ? text[i] !== ":" : true)) i++;
    const raw = text.slice(start, i);
    return raw;
  };
  const table = readPart(true);
  if (table === undefined || table === "" || text[i] !== ":") return undefined;
  if (!text.startsWith("⟨") && !text.startsWith("`") && !IDENT.test(table)) return undefined;
  i++;
  const rest = text.slice(i);
  if (rest === "") return undefined;
  if (rest.startsWith("⟨") || rest.startsWith("`")) {
    const key = readPart(false);
    return key !== undefined && i === text.length ? new RecordId(table, key) : undefined;
  }
  if (/^[+-]?\d+$/.test(rest)) {
    const n = BigInt(rest);
    return n >= -(2n ** 63n) && n < 2n ** 63n ? new RecordId(table, n) : new RecordId(table, rest);
  }
  if (IDENT.test(rest)) return new RecordId(table, rest);
  const uuid = /^u['"]([0-9a-fA-F-]{36})['"]$/.exec(rest);
  if (uuid) return new RecordId(table, new Uuid(uuid[1]!.toLowerCase()));
  if ((rest.startsWith("[") && rest.endsWith("]")) || (rest.startsWith("{") && rest.endsWith("}"))) {
    return new RecordId(table, rest);
  }
  return undefined;
}
