// The credential object of signin / signup (auth.md §3.1): exact key names, values as raw strings.

import type { Compat } from "../exec/session.js";
import { Datetime, Duration, isValueObject, RecordId, Table, Uuid, type Value, type ValueObject } from "../value/types.js";
import { nonComputed } from "./errors.js";
import { recordIdText } from "./recordid.js";

export interface Credentials {
  readonly ns: string | undefined;
  readonly db: string | undefined;
  /** SC (v1) or AC (v2). */
  readonly ac: string | undefined;
  readonly user: string | undefined;
  readonly pass: string | undefined;
}

/** SurrealDB's `to_raw_string`: strings unquoted, numbers and bools as text. */
export function rawString(v: Value, compat: Compat = 2): string {
  if (typeof v === "string") return v;
  if (v === null) return "NULL";
  if (v === undefined) return "NONE";
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof RecordId) return recordIdText(v, compat);
  if (v instanceof Uuid) return v.text;
  if (v instanceof Duration || v instanceof Datetime) return String(v.nanos);
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x));
}

function pick(vars: ValueObject, compat: Compat, ...keys: string[]): string | undefined {
  for (const k of keys) {
    if (Object.prototype.hasOwnProperty.call(vars, k) && vars[k] !== undefined) return rawString(vars[k], compat);
  }
  return undefined;
}

export function readCredentials(vars: ValueObject, compat: Compat): Credentials {
  return {
    ns: pick(vars, compat, "NS", "ns"),
    db: pick(vars, compat, "DB", "db"),
    ac: compat === 1 ? pick(vars, compat, "SC", "sc") : pick(vars, compat, "AC", "ac"),
    user: pick(vars, compat, "user"),
    pass: pick(vars, compat, "pass"),
  };
}

/** True when `v` holds no value SurrealDB 2.x calls non-computed; of ours, only a table (CBOR tag 7) is one. */
function isComputed(v: Value): boolean {
  if (v instanceof Table) return false;
  if (Array.isArray(v)) return v.every(isComputed);
  if (isValueObject(v)) return Object.values(v).every(isComputed);
  return true;
}

/**
 * v2 signin / signup first refuse a credential object holding a non-computed value anywhere (2.6.0
 * `vars.validate_computed()`, before the dispatch): "Found a non-computed value where they are not allowed".
 * 1.5.4 has no such check (a table is just another variable).
 */
export function assertComputedCredentials(vars: ValueObject, compat: Compat): void {
  if (compat === 2 && !isComputed(vars)) throw nonComputed();
}
