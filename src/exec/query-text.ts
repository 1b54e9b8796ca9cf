// exec/: the bound on a client's query text. Parsing cannot yield to the event loop, so the text a record user, scope
// user or guest may send is small enough that its worst shape parses in a few tens of milliseconds (SECURITY.md rule 8).

import { queryError } from "../errors/index.js";
import type { Session } from "./session.js";

/** The longest query text (UTF-8 bytes) of a session below the system users; system users keep the transport's body limit. */
export const MAX_CLIENT_QUERY_TEXT = 32 * 1024;

/** Whether `session` may send text up to the transport's limit: system users, and anonymous sessions with authentication off. */
export function unboundedText(session: Session, auth: boolean): boolean {
  const level = session.actor.level;
  return level === "Root" || level === "Namespace" || level === "Database" || (level === "No" && !auth);
}

/** `text`, or the QueryTooLarge error when a bounded session sends more than MAX_CLIENT_QUERY_TEXT bytes. */
export function boundedText(text: string, session: Session, auth: boolean): string {
  // a UTF-16 unit is at most 3 UTF-8 bytes: short texts need no count
  if (text.length * 3 <= MAX_CLIENT_QUERY_TEXT || unboundedText(session, auth)) return text;
  if (Buffer.byteLength(text, "utf8") > MAX_CLIENT_QUERY_TEXT) throw queryError("QueryTooLarge", MAX_CLIENT_QUERY_TEXT);
  return text;
}
