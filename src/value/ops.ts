// Binary and unary operators with SurrealDB semantics (arithmetic, containment, comparison).
import type { BinaryOp } from "../ast/nodes.js";
import type { Value } from "./types.js";
import type { Compat } from "./compat.js";
export type OpOpts = { compat?: Compat };
export function add(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function sub(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function mul(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function div(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function rem(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function pow(a: Value, b: Value, opts?: OpOpts): Value { void a; void b; void opts; throw new Error("not implemented"); }
export function neg(a: Value, opts?: OpOpts): Value { void a; void opts; throw new Error("not implemented"); }
export function contains(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function inside(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function containsAll(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function containsAny(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function containsNone(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function allInside(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function anyInside(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function noneInside(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function fuzzyMatch(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
/** Every BinaryOp except the short-circuit ones (`||`, `&&`, `??`, `?:`), which the evaluator handles. */
export function applyBinary(op: BinaryOp, a: Value, b: Value, opts?: OpOpts): Value { void op; void a; void b; void opts; throw new Error("not implemented"); }
