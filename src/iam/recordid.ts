// Record id text as it travels in the token ID claim: formatted on issue, parsed on authenticate.

import type { Compat } from "../exec/session.js";
import { formatRecordId, parseRecordIdText as parseSimple } from "../value/record.js";
import { RecordId, Uuid } from "../value/types.js";

/** As SurrealDB prints it: v1 `user:⟨a b⟩`, v2 ``user:`a b` ``; uuid keys `u'…'` in v2. */
export function recordIdText(rid: RecordId, compat: Compat): string {
  return formatRecordId(rid, { compat });
}

/** Parses the simple, escaped (⟨…⟩ or backticks), numeric and uuid key forms; anything else is undefined. */
export function parseRecordIdText(text: string): RecordId | undefined {
  const simple = parseSimple(text);
  if (simple) return simple;
  const uuid = /^([A-Za-z0-9_]+):u(["'])([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\2$/.exec(text);
  return uuid ? new RecordId(uuid[1]!, new Uuid(uuid[3]!.toLowerCase())) : undefined;
}
