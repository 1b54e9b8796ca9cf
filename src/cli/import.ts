// CLI `import`: a SurrealQL file (an export, say) read chunk by chunk, split into statements and sent to POST /import of
// a running server in batches, each one transaction; the first failing statement stops it with file:line:column and
// a caret. BEGIN … COMMIT blocks of the file are sent as they are. Progress goes to stderr.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { caretSnippet, sourcePosition, splitStatements, type StatementText } from "../../grammar/split.js";
import type { Statement } from "../ast/nodes.js";
import { QUERY_MESSAGES } from "../errors/catalogue.js";
import { ImportError, parseStatementText } from "../import.js";
import type { TransferOptions } from "./args.js";
import { formatProblem } from "./check.js";
import { failure, transferHeaders, transferUrl } from "./export.js";
import { Progress } from "./progress.js";

/** One statement text of the file and what it parses to (one statement, or none for a comment). */
interface Item {
  readonly text: StatementText;
  readonly stmts: readonly Statement[];
}

/** A batch: its items and the namespace / database selected when it starts (USE statements of the file move them). */
interface Batch {
  readonly items: Item[];
  readonly ns: string;
  readonly db: string;
  bytes: number;
}

const BATCH_STATEMENTS = 500;
const BATCH_BYTES = 512 * 1024;
const CONTROL = new Set(["Begin", "Commit", "Cancel"]);
const NOT_RUN = new Set<string>([QUERY_MESSAGES.QueryNotExecuted(), QUERY_MESSAGES.QueryCancelled()]);

/** The import stopped: a problem to print as `check` does. */
class Stop extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/** Text chunks of the file (or stdin), counting the bytes read. */
async function* chunksOf(source: AsyncIterable<Buffer>, read: { bytes: number }): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of source) {
    read.bytes += chunk.length;
    yield decoder.decode(chunk, { stream: true });
  }
  yield decoder.decode();
}

function parsed(file: string, text: StatementText): Statement[] {
  try {
    return parseStatementText(file, text);
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    throw new Stop(formatProblem({ file, line: e.line, column: e.column, message: e.reason, snippet: e.snippet }));
  }
}

/** The body of a batch: its statement texts, inside BEGIN … COMMIT when `wrap`. */
function body(items: readonly Item[], wrap: boolean): string {
  const texts = items.map((i) => (/;\s*$/.test(i.text.text) ? i.text.text : `${i.text.text}\n;`)).join("");
  return wrap ? `BEGIN TRANSACTION;${texts}\nCOMMIT TRANSACTION;` : texts;
}

export async function importCommand(opts: TransferOptions): Promise<number> {
  const file = opts.file === undefined || opts.file === "-" ? "<stdin>" : opts.file;
  const read = { bytes: 0 };
  let total: number | undefined;
  let source: AsyncIterable<Buffer>;
  if (file === "<stdin>") source = process.stdin;
  else {
    try {
      total = (await stat(file)).size;
    } catch (e) {
      process.stderr.write(`surql-auth: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return 1;
    }
    source = createReadStream(file, { highWaterMark: 256 * 1024 });
  }
  const progress = new Progress(process.stderr, total);
  let done = 0;
  let ns = opts.ns;
  let db = opts.db;

  /** POSTs items; the index of the first statement that failed itself and its message, or undefined. */
  const send = async (batch: Batch, wrap: boolean): Promise<{ index: number; message: string } | undefined> => {
    const res = await fetch(transferUrl(opts.endpoint, "import"), {
      method: "POST",
      headers: { ...transferHeaders({ ...opts, ns: batch.ns, db: batch.db }), accept: "application/json", "content-type": "text/plain" },
      body: body(batch.items, wrap),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Stop(`surql-auth: ${failure("import", res.status, text)}`);
    const results = JSON.parse(text) as { status?: string; result?: unknown }[];
    const index = results.findIndex((r) => r.status === "ERR" && !NOT_RUN.has(String(r.result)));
    return index < 0 ? undefined : { index, message: String(results[index]!.result) };
  };

  /** Sends a batch (wrapped in a transaction unless it is a block of the file); on a failure, runs what preceded it. */
  const flush = async (batch: Batch, wrap: boolean) => {
    if (batch.items.length === 0) return;
    const failed = await send(batch, wrap);
    const real = batch.items.flatMap((item) => item.stmts.filter((s) => !CONTROL.has(s.kind)).map((stmt) => ({ item, stmt })));
    if (failed === undefined) {
      done += real.length;
      progress.update(done, read.bytes);
      return;
    }
    const { item, stmt } = real[failed.index]!;
    // the statements before the failing one ran in the undone transaction: run them again, then stop
    const before = wrap ? batch.items.slice(0, batch.items.indexOf(item)) : [];
    if (before.length > 0 && (await send({ ...batch, items: before }, true)) === undefined) done += failed.index;
    const at = sourcePosition(item.text, stmt.pos?.line ?? 1, stmt.pos?.column ?? 1);
    throw new Stop(formatProblem({ file, ...at, message: failed.message, snippet: caretSnippet(item.text, at.line, at.column) }));
  };

  let batch: Batch = { items: [], ns, db, bytes: 0 };
  let block: Batch | undefined;
  try {
    for await (const text of splitStatements(chunksOf(source, read))) {
      let stmts: Statement[];
      try {
        stmts = parsed(file, text);
      } catch (e) {
        // what came before a syntax error runs (unless it is in an unfinished BEGIN block), then the import stops
        if (e instanceof Stop && !block) await flush(batch, true);
        throw e;
      }
      if (stmts.length === 0) continue;
      const item = { text, stmts };
      const kind = stmts.length === 1 ? stmts[0]!.kind : "";
      if (block) {
        block.items.push(item);
        if (kind === "Commit" || kind === "Cancel") {
          await flush(block, false);
          block = undefined;
          batch = { items: [], ns, db, bytes: 0 };
        }
      } else if (kind === "Begin") {
        await flush(batch, true);
        block = { items: [item], ns, db, bytes: 0 };
      } else {
        batch.items.push(item);
        batch.bytes += text.text.length;
        if (batch.items.length >= BATCH_STATEMENTS || batch.bytes >= BATCH_BYTES) {
          await flush(batch, true);
          batch = { items: [], ns, db, bytes: 0 };
        }
      }
      // USE moves the namespace / database of the batches that follow (each request is its own session)
      for (const s of stmts) {
        if (s.kind !== "Use") continue;
        if (s.ns !== undefined) [ns, db] = [s.ns, s.db ?? db];
        else if (s.db !== undefined) db = s.db;
        if (batch.items.length === 0) batch = { items: [], ns, db, bytes: 0 };
      }
    }
    await flush(block ?? batch, block === undefined);
  } catch (e) {
    progress.clear();
    if (!(e instanceof Stop)) throw e;
    process.stderr.write(`${e.text}\n`);
    process.stderr.write(`surql-auth: import stopped at the first failing statement; ${done} statement(s) before it were imported\n`);
    return 1;
  }
  progress.clear();
  process.stdout.write(`${progress.summary(done)}\n`);
  return 0;
}
