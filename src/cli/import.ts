// CLI `import`: a SurrealQL file (an export, say) read chunk by chunk, split into statements and sent to POST /import of
// a running server in batches, each one transaction; the first failing statement stops it with file:line:column and
// a caret. BEGIN … COMMIT blocks of the file are sent as they are. Progress goes to stderr.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { splitStatements } from "../../grammar/split.js";
import { ImportError, importStatements, type BatchAnswer, type ImportBatch } from "../import.js";
import type { TransferOptions } from "./args.js";
import { formatProblem } from "./check.js";
import { failure, transferHeaders, transferUrl } from "./export.js";
import { Progress } from "./progress.js";

const BATCH_STATEMENTS = 500;
const BATCH_BYTES = 512 * 1024;

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

/** The body of a batch: its statement texts (after the file's OPTION IMPORT), inside BEGIN … COMMIT when wrapped. */
function body(batch: ImportBatch): string {
  const texts = batch.items.map((i) => (/;\s*$/.test(i.text.text) ? i.text.text : `${i.text.text}\n;`)).join("");
  const option = batch.option ? "OPTION IMPORT;\n" : "";
  return batch.wrap ? `${option}BEGIN TRANSACTION;${texts}\nCOMMIT TRANSACTION;` : option + texts;
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

  /** POSTs a batch in the namespace / database selected when it starts (each request is its own session). */
  const send = async (batch: ImportBatch): Promise<BatchAnswer> => {
    const res = await fetch(transferUrl(opts.endpoint, "import"), {
      method: "POST",
      headers: { ...transferHeaders({ ...opts, ns: batch.ns ?? opts.ns, db: batch.db ?? opts.db }), accept: "application/json", "content-type": "text/plain" },
      body: body(batch),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Stop(`surql-auth: ${failure("import", res.status, text)}`);
    return JSON.parse(text) as BatchAnswer;
  };

  const policy = { ns: opts.ns, db: opts.db, statements: BATCH_STATEMENTS, bytes: BATCH_BYTES, batchable: () => true };
  try {
    await importStatements(splitStatements(chunksOf(source, read)), file, send, policy, { onProgress: (n) => progress.update((done = n), read.bytes) });
  } catch (e) {
    progress.clear();
    if (e instanceof ImportError) e = new Stop(formatProblem({ file, line: e.line, column: e.column, message: e.reason, snippet: e.snippet }));
    if (!(e instanceof Stop)) throw e;
    process.stderr.write(`${e.text}\n`);
    process.stderr.write(`surql-auth: import stopped at the first failing statement; ${done} statement(s) before it were imported\n`);
    return 1;
  }
  progress.clear();
  process.stdout.write(`${progress.summary(done)}\n`);
  return 0;
}
