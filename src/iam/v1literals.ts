// SurrealDB 1.x reads a string literal whose whole text is a record id as that record id (`RETURN 'user:ann'`
// is `user:ann`; 2.x needs `r'user:ann'`). The shared parser keeps such literals as strings, so the SIGNIN /
// SIGNUP clauses of a v1 scope get this reading here, before they run: only literals written in the clause
// change — a computed string (`string::concat('user:', 'ann')`, a CBOR string parameter) stays a string, and
// 1.5.4 refuses it as an identity too ("No record was returned"; checked with the oracle).

import { parseRecordId } from "../../grammar/index.js";
import type { Expr } from "../ast/nodes.js";
import { RecordId } from "../value/types.js";

/**
 * The record id a 1.x string literal stands for, or undefined. Conservative where our record-id grammar is
 * wider than 1.5.4's: surrounding whitespace and an empty key (`user:⟨⟩`) stay strings, as in 1.5.4.
 */
export function v1LiteralRecordId(text: string): RecordId | undefined {
  if (!text.includes(":") || text !== text.trim()) return undefined;
  try {
    const rid = parseRecordId(text);
    return rid.id === "" ? undefined : rid;
  } catch {
    return undefined;
  }
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== "object") return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Copies `node` with every `{ kind: "Literal", value: <record-id text> }` replaced; unchanged parts are shared. */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const out = node.map((x) => {
      const y = rewrite(x);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : node;
  }
  if (!isPlainObject(node)) return node;
  if (node.kind === "Literal" && typeof node.value === "string") {
    const rid = v1LiteralRecordId(node.value);
    return rid ? { ...node, value: rid } : node;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(node)) {
    const w = rewrite(v);
    if (w !== v) (out ??= { ...node })[k] = w;
  }
  return out ?? node;
}

const cache = new WeakMap<Expr, Expr>();

/** A v1 scope clause as SurrealDB 1.x parsed it (record-id string literals are record ids); memoised per clause. */
export function withV1RecordLiterals(expr: Expr): Expr {
  let out = cache.get(expr);
  if (!out) {
    out = rewrite(expr) as Expr;
    cache.set(expr, out);
  }
  return out;
}
