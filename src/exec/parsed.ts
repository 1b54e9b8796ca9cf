// exec/: parsed query texts kept for reuse — a connection sends the same few texts again and again, and parsing was a
// fifth of a record user's indexed SELECT (issue #10). Only short texts of data statements are kept: ASTs are never
// mutated, and a definition's AST stays the one statement's own (none is shared through the catalog).

import { parse } from "../../grammar/index.js";
import type { Statement, StatementKind } from "../ast/nodes.js";

/** Texts kept at once (the oldest kept is dropped first), and the longest kept. */
export const MAX_PARSED_TEXTS = 256;
export const MAX_PARSED_TEXT_LENGTH = 1024;

const KEPT_KINDS: ReadonlySet<StatementKind> = new Set(["Select", "Return", "Create", "Update", "Upsert", "Delete", "Insert", "Relate", "Let"]);
/** (a block inside an expression may hold a definition: such a text is never kept) */
const DEFINES = /define|remove/i;

/** Kept texts per compat (1.x reads some string literals as record ids). */
const parsed = { 1: new Map<string, readonly Statement[]>(), 2: new Map<string, readonly Statement[]>() };

/** `parse(text)` as `compat` reads it, answered from the texts kept when it was parsed lately; a syntax error is thrown every time. */
export function parseQuery(text: string, compat: 1 | 2 = 2): readonly Statement[] {
  const kept = parsed[compat].get(text);
  if (kept !== undefined) return kept;
  const stmts = parse(text, { compat });
  if (text.length <= MAX_PARSED_TEXT_LENGTH && stmts.every((s) => KEPT_KINDS.has(s.kind)) && !DEFINES.test(text)) {
    parsed[compat].set(text, Object.freeze(stmts));
    if (parsed[compat].size > MAX_PARSED_TEXTS) parsed[compat].delete(parsed[compat].keys().next().value as string);
  }
  return stmts;
}
