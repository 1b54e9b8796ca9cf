// Truthiness as SurrealDB decides it for WHERE, IF, ||, && and PERMISSIONS.
import type { Value } from "./types.js";
export function isTruthy(v: Value): boolean { void v; throw new Error("not implemented"); }
