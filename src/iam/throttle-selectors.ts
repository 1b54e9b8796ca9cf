// The selector variables of a SIGNIN clause, found on its AST (attack pass 7, E8): those that pick the stored row —
// compared for equality with stored data (`email = $email`, `$email = email`, `id = type::thing('user', $id)`, `$v IN
// emails`), inside OR / AND at any depth, or naming what the clause reads (`FROM type::thing('user', $id)`). A variable
// only handed to a function (`fn::check(h, $code)`, `crypto::argon2::compare(h, $password)`) is no selector: it is the
// secret, or something checked against the row, and guessing it must not make a new identity.

import type { BinaryOp, Expr } from "../ast/nodes.js";
import { astNodes } from "./equal-time.js";

/** Operators that select by equality or membership. */
const SELECTING = new Set<BinaryOp>(["=", "==", "?=", "*=", "INSIDE", "ANYINSIDE", "ALLINSIDE", "CONTAINS", "CONTAINSANY", "CONTAINSALL"]);

/** Calls whose arguments are hidden from selection: custom functions and crypto (hashes, compares). */
const OPAQUE_CALL = /^(fn|crypto)::/i;

const isOpaque = (node: Readonly<Record<string, unknown>>): boolean =>
  (node.kind === "Call" || node.kind === "Method") && typeof node.name === "string" && OPAQUE_CALL.test(node.name);

/** The `$names` a node reads with its value in plain sight (not through an opaque call). */
function plainParams(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) plainParams(item, into);
  } else if (typeof node === "object" && node !== null && Object.getPrototypeOf(node) === Object.prototype) {
    const fields = node as Record<string, unknown>;
    if (isOpaque(fields)) return into;
    if (fields.kind === "Param" && typeof fields.name === "string") into.add(fields.name);
    for (const value of Object.values(fields)) plainParams(value, into);
  }
  return into;
}

/** Stored data: a field path that reads no variable (`email`, `profile.phone`). */
const isStored = (e: unknown): boolean => (e as { kind?: unknown }).kind === "Idiom" && plainParams(e, new Set()).size === 0;

const cache = new WeakMap<Expr, ReadonlySet<string>>();

/** The selector variable names (without `$`) of a SIGNIN clause. */
export function selectorsOf(clause: Expr): ReadonlySet<string> {
  let out = cache.get(clause);
  if (out) return out;
  const names = new Set<string>();
  for (const node of astNodes(clause)) {
    if (node.kind === "Binary" && SELECTING.has(node.op as BinaryOp)) {
      if (isStored(node.left)) plainParams(node.right, names);
      if (isStored(node.right)) plainParams(node.left, names);
    } else if (Array.isArray(node.what)) {
      // the targets of SELECT / UPDATE …: `FROM type::thing('user', $id)`, `FROM user:[$id]`
      plainParams(node.what, names);
    }
  }
  cache.set(clause, (out = names));
  return out;
}
