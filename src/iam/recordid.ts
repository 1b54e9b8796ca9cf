// Record id text as it travels in the token ID claim: formatted on issue, parsed (as SurrealQL) on authenticate.

import { parseRecordId } from "../../grammar/index.js";
import type { Compat } from "../exec/session.js";
import { formatRecordId } from "../value/record.js";
import type { RecordId } from "../value/types.js";

/** Texts of record ids printed lately (a cached token's id is one object, printed on every authenticate). */
const TEXTS = { 1: new WeakMap<RecordId, string>(), 2: new WeakMap<RecordId, string>() };

/** As SurrealDB prints it: v1 `user:⟨a b⟩`, v2 ``user:`a b` ``; uuid keys `u'…'` in v2. */
export function recordIdText(rid: RecordId, compat: Compat): string {
  const texts = TEXTS[compat];
  let text = texts.get(rid);
  if (text === undefined) texts.set(rid, (text = formatRecordId(rid, { compat })));
  return text;
}

/** The ID claim parsed as a SurrealQL record id; unparsable text throws the parser's ParseError, as SurrealDB does. */
export function parseRecordIdClaim(text: string): RecordId {
  return parseRecordId(text);
}
