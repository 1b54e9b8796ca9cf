// exec/statements: SLEEP duration (root only in SurrealDB; here a no-op wait on the real clock).

import type { SleepStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";
import type { Ctx } from "../context.js";
import { checkAllowed } from "../rbac.js";

export async function runSleep(s: SleepStatement, ctx: Ctx): Promise<Value> {
  checkAllowed(ctx, "Edit", { kind: "Any", level: "ROOT", ns: undefined, db: undefined });
  const ms = Number(s.duration.nanos / 1_000_000n);
  await new Promise((r) => setTimeout(r, ms));
  return undefined;
}
