// `<type> expr` casts and field TYPE coercion with SurrealDB's conversion rules and messages.
import type { TypeKind } from "../ast/nodes.js";
import type { Value } from "./types.js";
import type { Compat } from "./compat.js";
export function cast(v: Value, type: TypeKind, opts?: { compat?: Compat }): Value { void v; void type; void opts; throw new Error("not implemented"); }
export function coerce(v: Value, type: TypeKind, opts?: { compat?: Compat }): Value { void v; void type; void opts; throw new Error("not implemented"); }
export function formatKind(type: TypeKind, opts?: { compat?: Compat }): string { void type; void opts; throw new Error("not implemented"); }
