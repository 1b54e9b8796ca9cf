// The embedded API's import: SurrealQL read chunk by chunk, split into statements, each parsed and run as a root owner
// in order; the first failing statement stops it with file:line:column and the source line with a caret.

import { parse } from "../grammar/index.js";
import { caretSnippet, sourcePosition, splitStatements, type StatementText } from "../grammar/split.js";
import type { DefineStatement, Statement } from "./ast/nodes.js";
import { QUERY_MESSAGES } from "./errors/catalogue.js";
import { ParseError, SurrealError } from "./errors/index.js";
import type { Datastore } from "./exec/datastore.js";
import { newSession, type Session } from "./exec/session.js";
import { definedAlready } from "./exec/statements/define-same.js";

/** An import failed: where, SurrealDB's message, and the source line with a caret under the column (as `check`). */
export class ImportError extends SurrealError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    readonly snippet = "",
  ) {
    super("Import", `${file}:${line}:${column}: ${reason}`);
  }
}

export interface ImportOptions {
  /** Skip a DEFINE whose definition is stored already exactly as written (start-up imports). */
  readonly skipUnchanged?: boolean;
  /** Called after each statement with the count so far. */
  readonly onProgress?: (statements: number) => void;
}

export interface ImportSummary {
  readonly statements: number;
  /** DEFINEs skipped as stored already (skipUnchanged). */
  readonly unchanged: number;
}

/** A privileged session for imports and set-up: a root owner, as `surreal import` with root credentials. */
export function ownerSession(): Session {
  return newSession({ actor: { level: "Root", ns: undefined, db: undefined, id: "surql-auth", roles: ["OWNER"] } });
}

/** Messages of statements that did not fail themselves but were not run because another one in their block failed. */
export const NOT_RUN = new Set<string>([QUERY_MESSAGES.QueryNotExecuted(), QUERY_MESSAGES.QueryCancelled()]);

function failure(name: string, text: StatementText, stmt: Statement | undefined, reason: string): ImportError {
  const at = sourcePosition(text, stmt?.pos?.line ?? 1, stmt?.pos?.column ?? 1);
  return new ImportError(name, at.line, at.column, reason, caretSnippet(text, at.line, at.column));
}

/** Parses one statement text of file `name`; a syntax error is an ImportError at its place in the file. */
export function parseStatementText(name: string, text: StatementText): Statement[] {
  try {
    return parse(text.text);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    const at = sourcePosition(text, e.line, e.column);
    throw new ImportError(name, at.line, at.column, e.message.split("\n")[0]!, caretSnippet(text, at.line, at.column));
  }
}

/** Runs the statements of `chunks` in order; `BEGIN … COMMIT` blocks run as one transaction. Throws ImportError. */
export async function importChunks(engine: Datastore, chunks: AsyncIterable<string> | Iterable<string>, name: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const session = ownerSession();
  let statements = 0;
  let unchanged = 0;
  // an open BEGIN block: its statements and their texts, run at COMMIT / CANCEL
  let block: { stmt: Statement; text: StatementText }[] | undefined;
  const run = async (items: { stmt: Statement; text: StatementText }[]) => {
    const responses = await engine.execute(items.map((i) => i.stmt), session);
    const real = items.filter((i) => !["Begin", "Commit", "Cancel"].includes(i.stmt.kind));
    const failed = responses.findIndex((r) => r.status === "ERR" && !NOT_RUN.has(String(r.result)));
    if (failed >= 0) throw failure(name, real[failed]!.text, real[failed]!.stmt, String(responses[failed]!.result));
    statements += real.length;
    opts.onProgress?.(statements);
  };
  for await (const text of splitStatements(toAsync(chunks))) {
    for (const stmt of parseStatementText(name, text)) {
      if (block) {
        block.push({ stmt, text });
        if (stmt.kind === "Commit" || stmt.kind === "Cancel") {
          await run(block);
          block = undefined;
        }
        continue;
      }
      if (stmt.kind === "Begin") {
        block = [{ stmt, text }];
        continue;
      }
      if (opts.skipUnchanged && stmt.kind.startsWith("Define") && (await definedAlready(engine.catalog, stmt as DefineStatement, session.ns, session.db))) {
        unchanged++;
        continue;
      }
      await run([{ stmt, text }]);
    }
  }
  // a block without COMMIT is cancelled, as in a query
  if (block) await run(block);
  return { statements, unchanged };
}

async function* toAsync(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  yield* chunks;
}
