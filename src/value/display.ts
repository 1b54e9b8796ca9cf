// Values as SurrealQL text, the way SurrealDB prints them in INFO FOR and in error messages.
import type { Value } from "./types.js";
import type { Compat } from "./compat.js";
export function toSql(v: Value, opts?: { compat?: Compat }): string { void v; void opts; throw new Error("not implemented"); }
export function quoteString(s: string): string { void s; throw new Error("not implemented"); }
