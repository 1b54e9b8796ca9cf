// exec/statements: BEGIN / COMMIT / CANCEL are handled by the executor's statement loop; nested ones are no-ops.

import type { BeginStatement, CancelStatement, CommitStatement } from "../../ast/nodes.js";
import type { Value } from "../../value/types.js";

export async function runBegin(_s: BeginStatement): Promise<Value> {
  return undefined;
}
export async function runCommit(_s: CommitStatement): Promise<Value> {
  return undefined;
}
export async function runCancel(_s: CancelStatement): Promise<Value> {
  return undefined;
}
