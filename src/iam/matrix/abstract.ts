// iam/matrix: decide a PERMISSIONS WHERE clause statically for one identity kind, where that is sound. A partial
// evaluator over what is known of an identity ($access is 'account', $auth is NONE for a guest); anything else is
// unknown, and a clause with an unknown outcome stays conditional.

import type { BinaryExpr, Expr, ExprKind, IdiomExpr, IdiomPart } from "../../ast/nodes.js";
import { applyBinary } from "../../value/ops.js";
import { isTruthy } from "../../value/truthy.js";
import type { Value } from "../../value/types.js";

/**
 * What is known of a value: exactly `v`; only its truthiness; only that it is neither NONE nor NULL and truthy
 * (`some`: a record id, a token's claims); that it is the current document's id (`self`, when judging a user's own
 * record); nothing.
 */
export type Abs =
  | { readonly k: "value"; readonly v: Value }
  | { readonly k: "truth"; readonly t: boolean }
  | { readonly k: "some" }
  | { readonly k: "self" }
  | { readonly k: "unknown" };

export const UNKNOWN: Abs = { k: "unknown" };
export const SOME: Abs = { k: "some" };
export const SELF: Abs = { k: "self" };
export const known = (v: Value): Abs => ({ k: "value", v });

export interface Facts {
  readonly compat: 1 | 2;
  /** Engine variables by name without `$` (auth, access / scope, token); a name not here is unknown. */
  readonly params: ReadonlyMap<string, Abs>;
  /** `$session` fields (ac, rd, tk; 1.x sc, sd, tk). */
  readonly session: ReadonlyMap<string, Abs>;
  /** The document is the identity's own record: `id` and `$auth` are the same record. */
  readonly ownRecord: boolean;
}

const nullish = (a: Abs): boolean => a.k === "value" && (a.v === undefined || a.v === null);
const nonNullish = (a: Abs): boolean => a.k === "some" || a.k === "self";

/** true / false when the truthiness is known. */
function truth(a: Abs, f: Facts): boolean | undefined {
  if (a.k === "value") return isTruthy(a.v, { compat: f.compat });
  if (a.k === "truth") return a.t;
  return a.k === "self" || a.k === "some" ? true : undefined;
}

const byTruth = (t: boolean | undefined): Abs => (t === undefined ? UNKNOWN : { k: "truth", t });

function binary(e: BinaryExpr, f: Facts): Abs {
  const l = evalAbs(e.left, f);
  const r = evalAbs(e.right, f);
  switch (e.op) {
    case "&&": {
      const [a, b] = [truth(l, f), truth(r, f)];
      return byTruth(a === false || b === false ? false : a === true && b === true ? true : undefined);
    }
    case "||": {
      const [a, b] = [truth(l, f), truth(r, f)];
      // the right side decides only when the left one evaluated (it might throw)
      return byTruth(a === true || (a === false && b === true) ? true : a === false && b === false ? false : undefined);
    }
    case "??":
      return nullish(l) ? r : nonNullish(l) ? l : UNKNOWN;
    case "=":
    case "==":
    case "!=": {
      const same = equal(l, r, e, f);
      return same === undefined ? UNKNOWN : known(e.op === "!=" ? !same : same);
    }
    default:
      return l.k === "value" && r.k === "value" ? apply(e, l.v, r.v, f) : UNKNOWN;
  }
}

/** Equality when it is decidable: two known values, the same document id, or NONE / NULL against a non-null. */
function equal(l: Abs, r: Abs, e: BinaryExpr, f: Facts): boolean | undefined {
  if (l.k === "value" && r.k === "value") {
    const v = apply(e, l.v, r.v, f);
    return v.k === "value" ? v.v === (e.op !== "!=") : undefined;
  }
  if (l.k === "self" && r.k === "self") return true;
  if ((nullish(l) && nonNullish(r)) || (nonNullish(l) && nullish(r))) return false;
  return undefined;
}

function apply(e: BinaryExpr, a: Value, b: Value, f: Facts): Abs {
  try {
    return known(applyBinary(e.op, a, b, { compat: f.compat }));
  } catch {
    return UNKNOWN;
  }
}

/** Path steps that read a field: on NONE they give NONE. */
const fieldStep = (p: IdiomPart): boolean => p.kind === "Field" || p.kind === "Optional";

function idiom(e: IdiomExpr, f: Facts): Abs {
  const [head, ...rest] = e.parts;
  if (head === undefined) return UNKNOWN;
  // 1. a bare field: only the record id is known never to be NONE
  if (head.kind === "Field") return head.name === "id" && rest.length === 0 ? (f.ownRecord ? SELF : SOME) : UNKNOWN;
  if (head.kind !== "Start") return UNKNOWN;
  // 2. `$session.ac`, `$auth.id` on the identity's own record
  if (head.value.kind === "Param" && rest.length === 1 && rest[0]!.kind === "Field") {
    if (head.value.name === "session") return f.session.get(rest[0].name) ?? UNKNOWN;
    if (head.value.name === "auth" && rest[0].name === "id" && f.params.get("auth")?.k === "self") return SELF;
  }
  // 3. fields of NONE are NONE
  const base = evalAbs(head.value, f);
  return base.k === "value" && base.v === undefined && rest.every(fieldStep) ? base : UNKNOWN;
}

type Handler<K extends ExprKind> = (e: Extract<Expr, { kind: K }>, f: Facts) => Abs;

const EXPRS: { readonly [K in ExprKind]: Handler<K> } = {
  Literal: (e) => known(e.value),
  Array: (e, f) => {
    const items = e.items.map((i) => evalAbs(i, f));
    return items.every((i) => i.k === "value") ? known(items.map((i) => (i as { v: Value }).v)) : UNKNOWN;
  },
  Object: () => UNKNOWN,
  RecordId: () => SOME,
  Param: (e, f) => f.params.get(e.name) ?? UNKNOWN,
  Table: () => UNKNOWN,
  Idiom: idiom,
  Binary: binary,
  Unary: (e, f) => (e.op === "!" ? byTruth(negate(truth(evalAbs(e.operand, f), f))) : UNKNOWN),
  Cast: () => UNKNOWN,
  Call: () => UNKNOWN,
  Constant: () => UNKNOWN,
  Subquery: (e, f) => (e.inner.kind === "Expr" ? evalAbs(e.inner.expr, f) : UNKNOWN),
  Block: () => UNKNOWN,
  Mock: () => UNKNOWN,
  RangeValue: () => UNKNOWN,
  Closure: () => UNKNOWN,
};

const negate = (t: boolean | undefined): boolean | undefined => (t === undefined ? undefined : !t);

export function evalAbs(e: Expr, f: Facts): Abs {
  return (EXPRS[e.kind] as Handler<ExprKind>)(e, f);
}

/** true: the clause holds for every document; false: for none; undefined: it depends. */
export function decide(cond: Expr, f: Facts): boolean | undefined {
  return truth(evalAbs(cond, f), f);
}
