// exec/: a long query text (POST /import's body) run in chunks of statements, so only one chunk's syntax trees and
// answers are held at a time: the same answers as one query (each statement its own transaction unless in BEGIN …
// COMMIT, a failure does not stop the rest, a syntax error anywhere runs nothing), with memory that does not grow with
// the text, and the event loop given back between chunks (attack pass 10, H4: /health stalled 2.4 s).

import { parse } from "../../grammar/index.js";
import { StatementSplitter, type StatementText } from "../../grammar/split.js";
import type { Statement } from "../ast/nodes.js";
import { ParseError } from "../errors/index.js";
import type { QueryEngine, QueryResponse } from "./contract.js";
import type { Session } from "./session.js";

/** Most statements in a chunk (a BEGIN … COMMIT block stays whole). */
const CHUNK = 1000;
/** Fewest: a chunk's fixed cost stays small beside its statements. */
const MIN_CHUNK = 16;
/** Texts shorter than this (characters) run as one query. */
const SHORT = 256 * 1024;
/** Longest run of work (ms) before the event loop gets a turn; a chunk is sized to take about this long. */
const TURN_MS = 20;

/** Characters handed to the splitter at once: it splits what it is given in one go. */
const PIECE = 64 * 1024;

function* statementTexts(text: string): Generator<StatementText> {
  const splitter = new StatementSplitter();
  for (let at = 0; at < text.length; at += PIECE) yield* splitter.push(text.slice(at, at + PIECE));
  const last = splitter.end();
  if (last) yield last;
}

/** Gives the event loop a turn (I/O, timers) once TURN_MS of work ran since the last one. */
class Turns {
  private since = performance.now();

  async pass(): Promise<void> {
    if (performance.now() - this.since < TURN_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

type Engine = Pick<QueryEngine, "compat" | "execute">;

/**
 * Runs `text` on `engine` as one query would, a chunk of statements at a time, yielding each chunk's answers in order;
 * the next chunk runs only when they are asked for (the caller's backpressure). A syntax error throws before any runs.
 */
export async function* chunkedResponses(engine: Engine, text: string, session: Session, signal?: AbortSignal): AsyncGenerator<QueryResponse[]> {
  const options = signal === undefined ? {} : { signal };
  // a short text is one query as it is
  if (text.length < SHORT) return yield await engine.execute(text, session, {}, options);
  const compat = engine.compat;
  const turns = new Turns();
  // 1. the whole text must parse (a syntax error runs nothing): each statement parsed and dropped; on an error the
  //    whole-text parse reports it with its place in the text. A LET's variable lives for the query: run it as one
  try {
    let lets = false;
    for (const t of statementTexts(text)) {
      lets = parse(t.text, { compat }).some((s) => s.kind === "Let") || lets;
      await turns.pass();
    }
    if (lets) return yield await engine.execute(text, session, {}, options);
  } catch (e) {
    if (e instanceof ParseError) return yield await engine.execute(text, session, {}, options);
    throw e;
  }
  // 2. parsed again and run a chunk at a time, in one session; an OPTION holds for the chunks after it too. A chunk's
  //    size follows the last one's time, so one runs for about TURN_MS
  let size = MIN_CHUNK;
  let chunk: Statement[] = [];
  let option: Statement | undefined;
  let inBlock = false;
  const run = async (stmts: Statement[]) => {
    const t0 = performance.now();
    const answers = await engine.execute(stmts, session, {}, options);
    const ms = Math.max(performance.now() - t0, 0.1);
    size = Math.max(MIN_CHUNK, Math.min(CHUNK, Math.round((stmts.length * TURN_MS) / ms)));
    return answers;
  };
  for (const t of statementTexts(text)) {
    for (const stmt of parse(t.text, { compat })) {
      chunk.push(stmt);
      if (stmt.kind === "Begin") inBlock = true;
      else if (stmt.kind === "Commit" || stmt.kind === "Cancel") inBlock = false;
      else if (stmt.kind === "Option") option = stmt;
    }
    if (!inBlock && chunk.length >= size) {
      if (signal?.aborted) return;
      yield await run(chunk);
      chunk = option ? [option] : [];
      await turns.pass();
    } else await turns.pass();
  }
  if (chunk.some((s) => s.kind !== "Option") && !signal?.aborted) yield await run(chunk);
}
