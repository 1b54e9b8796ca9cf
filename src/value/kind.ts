// Type names of values as SurrealDB reports them in type:: functions and error messages.
import type { Value } from "./types.js";
export function typeName(v: Value): string { void v; throw new Error("not implemented"); }
