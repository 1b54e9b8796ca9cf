// SurrealDB's total order and equality across all value types; used by ORDER BY, comparison ops and sets.
import type { Value } from "./types.js";
export function compareValues(a: Value, b: Value): number { void a; void b; throw new Error("not implemented"); }
export function valueEquals(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
export function valueExact(a: Value, b: Value): boolean { void a; void b; throw new Error("not implemented"); }
