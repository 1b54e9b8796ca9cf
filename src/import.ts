// The import of a SurrealQL file: read chunk by chunk, split into statements, parsed one at a time and run in batches
// (each one transaction) so memory stays flat as the file grows; the first failing statement stops it with
// file:line:column and the source line with a caret. The embedded API runs batches on its engine, the CLI over HTTP.

import { parse } from "../grammar/index.js";
import { caretSnippet, sourcePosition, splitStatements, type StatementText } from "../grammar/split.js";
import type { DefineStatement, OptionStatement, Statement } from "./ast/nodes.js";
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
  /** Called after each batch with the count of statements imported so far. */
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

/** Statements that give no answer of their own. */
const CONTROL = new Set<Statement["kind"]>(["Begin", "Commit", "Cancel", "Option"]);

/** Parses one statement text of file `name` (as `compat` reads it); a syntax error is an ImportError at its place in the file. */
export function parseStatementText(name: string, text: StatementText, compat?: 1 | 2): Statement[] {
  try {
    return parse(text.text, { compat });
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    const at = sourcePosition(text, e.line, e.column);
    throw new ImportError(name, at.line, at.column, e.message.split("\n")[0]!, caretSnippet(text, at.line, at.column));
  }
}

/** One statement text of the file and what it parses to. */
export interface ImportItem {
  readonly text: StatementText;
  readonly stmts: readonly Statement[];
}

/** Statements run together: in one transaction (`wrap`), or a BEGIN … COMMIT block of the file as written. */
export interface ImportBatch {
  readonly items: readonly ImportItem[];
  readonly wrap: boolean;
  /** The namespace / database selected when the batch starts (USE statements of the file move them). */
  readonly ns: string | undefined;
  readonly db: string | undefined;
  /** An `OPTION IMPORT` of the file seen before the batch: it is run again at the batch's start. */
  readonly option: OptionStatement | undefined;
}

/** What a batch answered, one entry per statement that answers (BEGIN, COMMIT, CANCEL and OPTION do not). */
export type BatchAnswer = readonly { readonly status: string; readonly result: unknown }[];

export interface BatchPolicy {
  /** The SurrealDB version the statements are read as (default 2). */
  readonly compat?: 1 | 2;
  readonly ns?: string;
  readonly db?: string;
  /** Largest batch. */
  readonly statements: number;
  readonly bytes: number;
  /** Whether a statement may share a batch with others (the rest run alone). */
  readonly batchable: (stmt: Statement) => boolean;
  /** Asked before a statement that runs alone outside a block: true skips it (counted as unchanged). */
  readonly skip?: (stmt: Statement) => Promise<boolean>;
}

/** The statement of `batch` that failed itself (not one a failure stopped), with its item and message. */
function failedIn(batch: ImportBatch, answers: BatchAnswer): { item: ImportItem; stmt: Statement; index: number; message: string } | undefined {
  const real = batch.items.flatMap((item) => item.stmts.filter((s) => !CONTROL.has(s.kind)).map((stmt) => ({ item, stmt })));
  const index = answers.findIndex((r) => r.status === "ERR" && !NOT_RUN.has(String(r.result)));
  return index < 0 ? undefined : { ...real[index]!, index, message: String(answers[index]!.result) };
}

function failure(name: string, text: StatementText, stmt: Statement, reason: string): ImportError {
  const at = sourcePosition(text, stmt.pos?.line ?? 1, stmt.pos?.column ?? 1);
  return new ImportError(name, at.line, at.column, reason, caretSnippet(text, at.line, at.column));
}

/**
 * Runs the statement texts of file `name` in batches through `run`, in order; a BEGIN … COMMIT block of the file is
 * one batch as written. The first failing statement throws an ImportError after the statements before it ran: a
 * batch that failed part-way is undone and what preceded the failure is run again.
 */
export async function importStatements(
  texts: AsyncIterable<StatementText>,
  name: string,
  run: (batch: ImportBatch) => Promise<BatchAnswer>,
  policy: BatchPolicy,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  let statements = 0;
  let unchanged = 0;
  let ns = policy.ns;
  let db = policy.db;
  let option: OptionStatement | undefined;
  let items: ImportItem[] = [];
  let bytes = 0;
  let inBlock = false;
  // what is selected when the pending batch starts
  let head = { ns, db, option };
  const add = (item: ImportItem) => {
    if (items.length === 0) head = { ns, db, option };
    items.push(item);
  };
  const flush = async (wrap: boolean) => {
    const batch: ImportBatch = { items, wrap: wrap && items.length > 1, ...head };
    items = [];
    bytes = 0;
    if (batch.items.length === 0) return;
    const failed = failedIn(batch, await run(batch));
    if (failed) {
      // the statements before the failing one ran in the undone transaction: run them again, then stop
      const before = batch.wrap ? batch.items.slice(0, batch.items.indexOf(failed.item)) : [];
      if (before.length > 0 && failedIn(batch, await run({ ...batch, items: before })) === undefined) opts.onProgress?.((statements += failed.index));
      throw failure(name, failed.item.text, failed.stmt, failed.message);
    }
    statements += batch.items.reduce((n, i) => n + i.stmts.filter((s) => !CONTROL.has(s.kind)).length, 0);
    opts.onProgress?.(statements);
  };
  for await (const text of texts) {
    let stmts: Statement[];
    try {
      stmts = parseStatementText(name, text, policy.compat);
    } catch (e) {
      // what came before a syntax error runs (unless it is in an unfinished BEGIN block), then the import stops
      if (!inBlock) await flush(true);
      throw e;
    }
    if (stmts.length === 0) continue;
    const kind = stmts.length === 1 ? stmts[0]!.kind : undefined;
    if (inBlock) {
      add({ text, stmts });
      if (kind === "Commit" || kind === "Cancel") {
        await flush(false);
        inBlock = false;
      }
    } else if (kind === "Begin") {
      await flush(true);
      add({ text, stmts });
      inBlock = true;
    } else if (stmts.every(policy.batchable)) {
      add({ text, stmts });
      bytes += text.text.length;
      if (items.length >= policy.statements || bytes >= policy.bytes) await flush(true);
    } else {
      await flush(true);
      if (kind !== undefined && (await policy.skip?.(stmts[0]!))) unchanged++;
      else {
        add({ text, stmts });
        await flush(false);
      }
    }
    // USE moves the namespace / database of the batches that follow; OPTION IMPORT holds for the rest of the file
    for (const s of stmts) {
      if (s.kind === "Use") {
        if (s.ns !== undefined) [ns, db] = [s.ns, s.db ?? db];
        else if (s.db !== undefined) db = s.db;
      } else if (s.kind === "Option" && s.name.toUpperCase() === "IMPORT") option = s.value ? s : undefined;
    }
  }
  // a block without COMMIT is cancelled, as in a query
  await flush(!inBlock);
  return { statements, unchanged };
}

/** Data statements: batched in the embedded import (a DEFINE runs alone: its hashing may be slow, it may be skipped). */
const DATA = new Set<Statement["kind"]>(["Create", "Insert", "Update", "Upsert", "Delete", "Relate", "Use", "Option"]);

const BEGIN: Statement = { kind: "Begin" };
const COMMIT: Statement = { kind: "Commit" };

/** Runs the statements of `chunks` on `engine` as a root owner, in batches of at most 1,000 statements or 1 MiB. */
export async function importChunks(engine: Datastore, chunks: AsyncIterable<string> | Iterable<string>, name: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const session = ownerSession();
  const run = (batch: ImportBatch) => {
    const stmts = batch.items.flatMap((i) => i.stmts);
    const wrapped = batch.wrap ? [BEGIN, ...stmts, COMMIT] : stmts;
    return engine.execute(batch.option ? [batch.option, ...wrapped] : wrapped, session);
  };
  const skip = async (stmt: Statement) =>
    opts.skipUnchanged === true && stmt.kind.startsWith("Define") && (await definedAlready(engine.catalog, stmt as DefineStatement, session.ns, session.db));
  const policy = { compat: engine.compat, statements: 1000, bytes: 1 << 20, batchable: (s: Statement) => DATA.has(s.kind), skip };
  return importStatements(splitStatements(toAsync(chunks)), name, run, policy, opts);
}

async function* toAsync(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  yield* chunks;
}
