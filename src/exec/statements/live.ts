// exec/statements: LIVE SELECT / KILL — live queries are not supported by this engine.

import type { KillStatement, LiveStatement } from "../../ast/nodes.js";
import { QueryError } from "../../errors/index.js";
import type { Value } from "../../value/types.js";

export async function runLive(_s: LiveStatement): Promise<Value> {
  throw new QueryError("Unsupported", "Live queries are not supported");
}
export async function runKill(_s: KillStatement): Promise<Value> {
  throw new QueryError("Unsupported", "Live queries are not supported");
}
