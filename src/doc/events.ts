// doc/: DEFINE EVENT processing after a write ($event, $before, $after, $value bound).

import type { TableEntry } from "../store/catalog.js";
import { isTruthy, valueEquals } from "../value/index.js";
import type { Value, ValueObject } from "../value/types.js";
import type { DocEnv, WriteOp } from "./env.js";

export async function processEvents(env: DocEnv, table: TableEntry, op: WriteOp, after: ValueObject | undefined): Promise<void> {
  if (table.events.size === 0 || env.importing) return;
  // an UPDATE that changed nothing runs no event (SurrealDB 1.5.4 and 2.6.0)
  if (op.action === "update" && valueEquals(op.before, after, { compat: env.compat })) return;
  const event = op.action.toUpperCase();
  const doc: Value = after ?? op.before;
  const vars = { event, before: op.before, after, value: doc, input: undefined, this: doc };
  for (const ev of table.events.values()) {
    if (!isTruthy(await env.evaluate(ev, ev.when, doc, vars), { compat: env.compat })) continue;
    for (const then of ev.then) await env.evaluate(ev, then, doc, vars);
  }
}
