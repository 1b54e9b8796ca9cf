// Values to and from SurrealDB's JSON wire form (JSON RPC / HTTP).
import type { Value } from "./types.js";
import type { Compat } from "./compat.js";
export function toJson(v: Value, opts?: { compat?: Compat }): unknown { void v; void opts; throw new Error("not implemented"); }
export function fromJson(json: unknown, opts?: { legacyStrings?: boolean }): Value { void json; void opts; throw new Error("not implemented"); }
