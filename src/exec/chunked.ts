// exec/: a long query text (POST /import's body) run in chunks of statements, so only one chunk's syntax trees are held
// at a time: the same answers as one query (each statement its own transaction unless in BEGIN … COMMIT, a failure
// does not stop the rest, a syntax error anywhere runs nothing), with memory that does not grow with the text.

import { parse } from "../../grammar/index.js";
import { StatementSplitter, type StatementText } from "../../grammar/split.js";
import type { Statement } from "../ast/nodes.js";
import { ParseError } from "../errors/index.js";
import type { QueryEngine, QueryResponse } from "./contract.js";
import type { Session } from "./session.js";

/** Statements per chunk (a BEGIN … COMMIT block stays whole). */
const CHUNK = 1000;
/** Texts shorter than this (characters) run as one query. */
const SHORT = 256 * 1024;

function* statementTexts(text: string): Generator<StatementText> {
  const splitter = new StatementSplitter();
  yield* splitter.push(text);
  const last = splitter.end();
  if (last) yield last;
}

/** Runs `text` on `engine` as one query would, a chunk of statements at a time. */
export async function executeChunked(engine: Pick<QueryEngine, "compat" | "execute">, text: string, session: Session): Promise<QueryResponse[]> {
  // a short text is one query as it is
  if (text.length < SHORT) return engine.execute(text, session, {});
  const compat = engine.compat;
  // 1. the whole text must parse (a syntax error runs nothing): each statement parsed and dropped; on an error the
  //    whole-text parse reports it with its place in the text. A LET's variable lives for the query: run it as one
  try {
    let lets = false;
    for (const t of statementTexts(text)) lets = parse(t.text, { compat }).some((s) => s.kind === "Let") || lets;
    if (lets) return engine.execute(text, session, {});
  } catch (e) {
    if (e instanceof ParseError) return engine.execute(text, session, {});
    throw e;
  }
  // 2. parsed again and run a chunk at a time, in one session; an OPTION holds for the chunks after it too
  const responses: QueryResponse[] = [];
  let chunk: Statement[] = [];
  let option: Statement | undefined;
  let inBlock = false;
  for (const t of statementTexts(text)) {
    for (const stmt of parse(t.text, { compat })) {
      chunk.push(stmt);
      if (stmt.kind === "Begin") inBlock = true;
      else if (stmt.kind === "Commit" || stmt.kind === "Cancel") inBlock = false;
      else if (stmt.kind === "Option") option = stmt;
    }
    if (!inBlock && chunk.length >= CHUNK) {
      responses.push(...(await engine.execute(chunk, session, {})));
      chunk = option ? [option] : [];
    }
  }
  if (chunk.some((s) => s.kind !== "Option")) responses.push(...(await engine.execute(chunk, session, {})));
  return responses;
}
